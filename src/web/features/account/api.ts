import { notifications } from '@mantine/notifications';
import { accountMutations } from '../../data/account.ts';
import { customEndpointMutations } from '../../data/custom-endpoints.ts';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useApiMutation } from '../../lib/mutation.ts';
import { sessionStore } from '../../lib/session.ts';

// The account pages' changes: the data layer's mutations plus what these pages tell the user.

/** Classify your own account (email null) or create a colleague's (email given; their key comes back once). */
export function useCreateWithBusinessInfo() {
  return useApiMutation(accountMutations.createWithBusinessInfo, {
    onSuccess: (result, input) => {
      if (!input.email) notifications.show({ color: 'teal', message: result.message });
    },
  });
}

export function useSetSpendingLimit() {
  return useApiMutation(accountMutations.setSpendingLimit);
}

export function useDeleteAccount() {
  return useApiMutation(accountMutations.delete, {
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'Your account was deleted.' });
      sessionStore.signOut('Your account was deleted.');
    },
  });
}

export function useCreateCustomEndpoint() {
  return useApiMutation(customEndpointMutations.create, {
    onSuccess: (result) => notifications.show({ color: 'teal', message: `Custom endpoint ${result.endpoint.name} added.` }),
  });
}

export function useDeleteCustomEndpoint() {
  return useApiMutation(customEndpointMutations.delete, {
    onSuccess: (_result, name) => notifications.show({ color: 'teal', message: `Custom endpoint ${name} deleted.` }),
    onError: (error, name) => {
      // Already gone (deleted elsewhere): say so; the list is refreshed either way.
      if (error instanceof ApiError && error.status === 404) {
        notifications.show({ color: 'yellow', message: `Custom endpoint ${name} was already deleted; the list is refreshed.` });
      } else {
        notifications.show({ color: 'red', message: errorMessage(error) });
      }
    },
  });
}
