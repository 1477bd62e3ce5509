import { RequireSession } from '../require-session.tsx';
import { AppLayout } from './app-layout.tsx';

export function SignedInLayout() {
  return (
    <RequireSession>
      <AppLayout />
    </RequireSession>
  );
}
