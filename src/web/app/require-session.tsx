import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session.ts';

/** Signed-in pages only: without a key or a session, go to sign-in and come back here afterwards. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  const location = useLocation();
  if (!signedIn) {
    const from = location.pathname + location.search;
    return <Navigate to={from === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(from)}`} replace />;
  }
  return <>{children}</>;
}
