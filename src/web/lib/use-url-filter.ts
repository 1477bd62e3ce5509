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
  // Back/forward (or a link) changed the URL: the field follows. Our own updates leave them equal.
  // A new `param` (a filter that switches modes, moving its text to the other parameter itself) is not such
  // a change: the address may still be on its way. State adjusted while rendering, not in an effect.
  const [seen, setSeen] = useState({ param, urlValue });
  if (param !== seen.param) {
    setSeen({ param, urlValue });
  } else if (urlValue !== seen.urlValue) {
    setSeen({ param, urlValue });
    if (urlValue !== value) setInput(urlValue);
  }

  return { input, setInput, value };
}
