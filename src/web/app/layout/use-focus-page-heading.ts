import { useEffect, useRef } from 'react';

/**
 * After a move to another page, focus the new page's heading (its one h1), as a screen reader user expects:
 * the page's name is read out and Tab continues from the top of the new content, instead of from `<body>`.
 * The first load keeps the browser's own focus. The heading may show a moment after the address changes
 * (the page's chunk or data is still coming), so this looks for it on each frame for a few seconds. A change of
 * address that keeps the same page on screen (a tab, a filter) finds the same heading with the same words and
 * leaves focus where it is.
 */
export function useFocusPageHeading(pathname: string): void {
  const last = useRef<{ element: Element; text: string } | null>(null);
  const loaded = useRef(false);

  useEffect(() => {
    const focus = loaded.current;
    loaded.current = true;
    const deadline = performance.now() + 5_000;
    let frame = 0;
    const attempt = () => {
      const heading = document.querySelector<HTMLElement>('#main h1');
      const text = heading?.textContent ?? '';
      if (heading && (heading !== last.current?.element || text !== last.current.text)) {
        last.current = { element: heading, text };
        if (focus) {
          if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
          heading.focus();
        }
        return;
      }
      if (performance.now() < deadline) frame = requestAnimationFrame(attempt);
    };
    frame = requestAnimationFrame(attempt);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
}
