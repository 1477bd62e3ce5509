import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A filter field kept in the URL (`?param=`), so a filtered view can be shared and survives a reload.
 * The field is local state: the URL follows it debounced. Driving the field from the URL directly lost
 * keystrokes when typing fast (each navigation re-rendered the field with a value one key behind).
 */
export function useUrlFilter(param: string, delay = 250): { input: string; setInput: (value: string) => void; value: string } {
  const [params, setParams] = useSearchParams();
  const urlValue = params.get(param) ?? '';
  const [input, setInput] = useState(urlValue);
  const [value] = useDebouncedValue(input, delay);

  useEffect(() => {
    if (value === urlValue) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(param, value);
        else next.delete(param);
        return next;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new filter value should change the URL
  }, [value]);
  // Back/forward (or a link) changed the URL: the field follows. Our own updates are not such a change, even
  // when one arrives after the field moved on (`written`: what the effect above writes, not yet seen in the
  // address; see addressArrived). A new `param` (a filter that switches modes, moving its text to the other
  // parameter itself) is not one either: the address may still be on its way. State adjusted while
  // rendering, not in an effect.
  const [seen, setSeen] = useState({ param, urlValue, value, written: [] as string[] });
  if (param !== seen.param) {
    setSeen({ param, urlValue, value, written: [] });
  } else if (value !== seen.value || urlValue !== seen.urlValue) {
    let written = value !== seen.value && value !== urlValue ? [...seen.written, value] : seen.written;
    let external = false;
    if (urlValue !== seen.urlValue) ({ pending: written, external } = addressArrived(written, urlValue));
    setSeen({ param, urlValue, value, written });
    if (external && urlValue !== value) setInput(urlValue);
  }

  return { input, setInput, value };
}

/**
 * The address now shows `shown`; `written` are the values the field wrote to it, oldest first, not yet seen
 * there. The address follows asynchronously (a navigation, rendered as a transition), so a value written
 * before the latest can arrive after the field has moved on: it is ours, and the field must keep what it has
 * (taking it for a change from outside put an earlier search back into the field under the user's hands).
 * Only a value the field never wrote (back/forward, a link) comes from outside.
 */
export function addressArrived(written: readonly string[], shown: string): { pending: string[]; external: boolean } {
  const at = written.indexOf(shown);
  return at === -1 ? { pending: [], external: true } : { pending: written.slice(at + 1), external: false };
}
