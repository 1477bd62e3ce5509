import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session.ts';

/** Signed-in pages only: without a key or a session, go to sign-in and come back here afterwards. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  const location = useLocation();
  if (!signedIn) {
    // An invite link opened signed out: its own page offers joining without an account (or signing in first).
    if (location.pathname === '/invite') return <Navigate to={`/invite/join${location.search}`} replace />;
    const from = location.pathname + location.search;
    return <Navigate to={from === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(from)}`} replace />;
  }
  return <>{children}</>;
}
