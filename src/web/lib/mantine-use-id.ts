import { useId as useReactId } from 'react';

/**
 * Mantine's `useId` (@mantine/hooks), in its place in the dashboard's build (scripts/mantine-use-id.ts), without
 * its second render. Mantine's starts from React's id and then, in a layout effect, swaps it for a random one:
 * a state update inside React's commit, which React renders at once, synchronously, in the same task. On the
 * first screen every AppShell part, Popover and input wrapper did so; that render, and the page's passive
 * effects React runs before it, made the first commit one task of 57-109 ms (Lighthouse's trace, assistants).
 * React's id is stable and unique within the app's one root (src/web/main.tsx), which is all Mantine's ids are
 * for (a label's `for`, `aria-controls`, `aria-labelledby`).
 */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  return typeof staticId === 'string' ? staticId : `mantine-${reactId.replace(/[^\w-]/g, '')}`;
}
