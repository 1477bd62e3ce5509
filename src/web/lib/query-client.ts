import { QueryClient, timeoutManager } from '@tanstack/react-query';
import { coalescedTimeouts } from './coalesced-timeouts.ts';
import { ApiError } from './api-client.ts';
import { sessionStore } from './session.ts';
import { workspaceStore } from './workspace.ts';

/** A 4xx will not change by asking again; network blips and 5xx get two more tries. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/** The app's one cache: the provider hands it to components, and route loaders fill it before pages render. */
export const queryClient = createQueryClient();

function createQueryClient(): QueryClient {
  // Before any query exists: React Query's timers all go through one provider (lib/coalesced-timeouts.ts).
  timeoutManager.setTimeoutProvider(coalescedTimeouts());
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 15_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
  // Another sign-in, or another workspace: forget the data of the last one, and let what is on screen load again.
  sessionStore.onSwitch(() => void client.resetQueries());
  workspaceStore.onSwitch(() => void client.resetQueries());
  return client;
}
