import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';

export interface ConfirmRequest {
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  onConfirm: () => void;
}

// The dialog's code (Mantine Modal, focus trap, scroll lock) loads the first time a confirmation is
// asked for, not with the shell: it is not needed to show any page.
const ConfirmDialog = lazy(() => import('./confirm-dialog.tsx'));

let current: ConfirmRequest | null = null;
const listeners = new Set<() => void>();
const store = {
  get: () => current,
  set(next: ConfirmRequest | null) {
    current = next;
    listeners.forEach((l) => l());
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Asks before destroying something; the confirm button says exactly what will happen. */
export function confirmDelete(request: ConfirmRequest): void {
  store.set(request);
}

/** Rendered once by the app's providers: shows the pending confirmation, if any. */
export function ConfirmHost() {
  const request = useSyncExternalStore(store.subscribe, store.get, store.get);
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog request={request} onClose={() => store.set(null)} />
    </Suspense>
  );
}
