import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders a lazily loaded dialog from its first opening on: its code (a form, its schemas) is fetched
 * when someone asks for it, not with the page. It then stays mounted, so it closes with its transition.
 */
export function MountWhenOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(opened);
  if (opened && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
