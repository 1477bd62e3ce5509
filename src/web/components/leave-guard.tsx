import { lazy, useEffect, useState } from 'react';
import { useBlocker, useLocation, type BlockerFunction } from 'react-router';
import { isSignedIn, sessionStore } from '../lib/session.ts';
import { MountWhenOpened } from './mount-when-opened.tsx';

// The dialog's code (Mantine Modal) loads the first time someone tries to leave unsaved changes.
const LeaveDialog = lazy(() => import('./leave-dialog.tsx'));

/**
 * Every form on screen with unsaved changes holds a token here, with the path of its page. One registry
 * (not one blocker per form) because the router allows one blocker at a time, and a page may show several
 * forms (Account). The path: the page just left may not have unmounted yet when the next navigation starts
 * (Back pressed at once), and its forms must not hold up the page now shown.
 */
const unsaved = new Map<symbol, string>();

/**
 * Declares that the calling form has unsaved changes while `dirty` is true: leaving its page by a link,
 * the sidebar or Back then asks first (`<LeaveGuard />`), and reloading or closing the tab gets the
 * browser's own question. The form stops counting when it unmounts or is no longer dirty.
 */
export function useUnsavedChanges(dirty: boolean): void {
  const [token] = useState(() => Symbol('unsaved changes'));
  const { pathname } = useLocation();
  useEffect(() => {
    if (!dirty) return;
    unsaved.set(token, pathname);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!unsaved.has(token)) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      unsaved.delete(token);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty, token, pathname]);
}

/**
 * For a navigation the user asked for with their changes dealt with (hired, deleted): forgets every
 * unsaved change on screen, so the next navigation does not ask. Call it just before navigating.
 */
export function leaveWithoutAsking(): void {
  unsaved.clear();
}

/**
 * Only another page counts as leaving: a new search or #section stays on the same form. Once signed out
 * (the user's choice, or the session ended) there is nothing left to stay for.
 */
const shouldBlock: BlockerFunction = ({ currentLocation, nextLocation }) =>
  currentLocation.pathname !== nextLocation.pathname && [...unsaved.values()].includes(currentLocation.pathname) && isSignedIn(sessionStore.get());

/** Rendered once by the signed-in layout: asks "Leave without saving?" when a navigation would drop unsaved changes. */
export function LeaveGuard() {
  const blocker = useBlocker(shouldBlock);
  const blocked = blocker.state === 'blocked';
  return (
    <MountWhenOpened opened={blocked}>
      <LeaveDialog opened={blocked} onStay={() => blocker.reset?.()} onLeave={() => blocker.proceed?.()} />
    </MountWhenOpened>
  );
}
