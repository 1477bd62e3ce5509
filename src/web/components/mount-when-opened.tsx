import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders lazily loaded UI (a dialog, the notifications) from the first time it is opened on: its code is
 * fetched when someone needs it, not with the page. It then stays mounted, so it closes with its transition.
 */
export function MountWhenOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(opened);
  if (opened && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
