import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { z } from 'zod';
import type {
  CanDeleteAccountSchema,
  CreateWithBusinessInfo,
  CreateWithBusinessInfoResponse,
  SetSpendingLimitResponse,
  SpendingLimitSchema,
} from '../../../shared/account.ts';
import type { CustomEndpoint, CustomEndpointCreated, CustomEndpointInputType } from '../../../shared/custom-endpoints.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { meQuery } from '../../lib/me-query.ts';
import { sessionStore } from '../../lib/session.ts';

export const accountKeys = {
  all: ['account'] as const,
  spendingLimit: () => [...accountKeys.all, 'spending-limit'] as const,
  canDelete: () => [...accountKeys.all, 'can-delete'] as const,
  customEndpoints: () => [...accountKeys.all, 'custom-endpoints'] as const,
};

export const accountQueries = {
  spendingLimit: () =>
    queryOptions({
      queryKey: accountKeys.spendingLimit(),
      queryFn: ({ signal }) => api.get<z.infer<typeof SpendingLimitSchema>>('/v0/user/spending-limit', { signal }),
    }),
  canDelete: () =>
    queryOptions({
      queryKey: accountKeys.canDelete(),
      queryFn: ({ signal }) => api.get<z.infer<typeof CanDeleteAccountSchema>>('/v0/user/can-delete-account', { signal }),
    }),
  customEndpoints: () =>
    queryOptions({
      queryKey: accountKeys.customEndpoints(),
      queryFn: ({ signal }) => api.get<CustomEndpoint[]>('/v0/custom_endpoint/list', { signal }),
    }),
};

type CreateResult = z.infer<typeof CreateWithBusinessInfoResponse>;

/** Classify your own account (email null) or create a colleague's (email given; their key comes back once). */
export function useCreateWithBusinessInfo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWithBusinessInfo) => api.post<CreateResult>('/v0/user/create-with-business-info', input),
    onSuccess: (result, input) => {
      if (!input.email) {
        void client.invalidateQueries({ queryKey: meQuery.queryKey });
        notifications.show({ color: 'teal', message: result.message });
      }
    },
  });
}

export function useSetSpendingLimit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (cap: number | null) => api.put<z.infer<typeof SetSpendingLimitResponse>>('/v0/user/spending-limit', { monthly_spending_cap: cap }),
    onSuccess: (result) => {
      client.setQueryData(accountKeys.spendingLimit(), { user_id: result.user_id, monthly_spending_cap: result.monthly_spending_cap });
      // Capped assistants changed.
      void client.invalidateQueries({ queryKey: ['assistants'] });
    },
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (confirmEmail: string) => api.delete<{ message: string }>('/v0/user/delete-account', { body: { confirm_email: confirmEmail } }),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'Your account was deleted.' });
      sessionStore.signOut('Your account was deleted.');
    },
  });
}

export function useCreateCustomEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomEndpointInputType) => api.post<z.infer<typeof CustomEndpointCreated>>('/v0/custom_endpoint', input),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: accountKeys.customEndpoints() });
      notifications.show({ color: 'teal', message: `Custom endpoint ${result.endpoint.name} added.` });
    },
  });
}

export function useDeleteCustomEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.delete<{ info: string }>('/v0/custom_endpoint', { query: { name } }),
    onSuccess: (_result, name) => notifications.show({ color: 'teal', message: `Custom endpoint ${name} deleted.` }),
    onError: (error, name) => {
      // Already gone (deleted elsewhere): say so and show the list as it is now.
      if (error instanceof ApiError && error.status === 404) {
        notifications.show({ color: 'yellow', message: `Custom endpoint ${name} was already deleted; the list is refreshed.` });
      } else {
        notifications.show({ color: 'red', message: error instanceof Error ? error.message : 'Could not delete the endpoint.' });
      }
    },
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.customEndpoints() }),
  });
}
