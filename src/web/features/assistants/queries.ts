import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SpendingLimitSchema } from '../../../shared/account.ts';
import type { Assistant, AssistantPricing, Voice } from '../../../shared/assistants.ts';
import type { Credits } from '../../../shared/credits.ts';
import { api } from '../../lib/api-client.ts';

// The read side of the feature: keys and query options. Light enough for the route table, whose loaders
// start these requests while the pages' code downloads; the mutation hooks stay in api.ts.

export const assistantKeys = {
  // The account feature invalidates ['assistants'] when the spending limit caps assistants.
  all: ['assistants'] as const,
  list: () => [...assistantKeys.all, 'list'] as const,
  detail: (id: number) => [...assistantKeys.all, 'detail', id] as const,
  voices: () => [...assistantKeys.all, 'voices'] as const,
  pricing: () => [...assistantKeys.all, 'pricing'] as const,
  credits: () => ['credits'] as const,
  // Same key as the account feature's query of the same endpoint, so both share one cache entry.
  spendingLimit: () => ['account', 'spending-limit'] as const,
};

export const assistantQueries = {
  list: () =>
    queryOptions({
      queryKey: assistantKeys.list(),
      queryFn: async ({ signal }) => (await api.get<{ info: Assistant[] }>('/v0/assistant', { signal })).info,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: assistantKeys.detail(id),
      queryFn: async ({ signal }) => (await api.get<{ info: Assistant }>(`/v0/assistant/${id}`, { signal })).info,
    }),
  voices: () =>
    queryOptions({
      queryKey: assistantKeys.voices(),
      queryFn: async ({ signal }) => (await api.get<{ info: Voice[] }>('/v0/assistant/voice', { signal })).info,
    }),
  pricing: () =>
    queryOptions({
      queryKey: assistantKeys.pricing(),
      queryFn: ({ signal }) => api.get<AssistantPricing>('/v0/assistant/pricing', { signal }),
      staleTime: 5 * 60_000,
    }),
  credits: () =>
    queryOptions({
      queryKey: assistantKeys.credits(),
      queryFn: ({ signal }) => api.get<Credits>('/v0/credits', { signal }),
    }),
  spendingLimit: () =>
    queryOptions({
      queryKey: assistantKeys.spendingLimit(),
      queryFn: ({ signal }) => api.get<z.infer<typeof SpendingLimitSchema>>('/v0/user/spending-limit', { signal }),
    }),
};
