import { queryOptions } from '@tanstack/react-query';
import { getCredits } from '../../shared/operations/credits.ts';
import { api } from '../lib/api-client.ts';

// The credit balance of the active key's workspace (what hiring an assistant spends).

export const creditKeys = {
  balance: () => ['credits'] as const,
};

export const creditQueries = {
  balance: () => queryOptions({ queryKey: creditKeys.balance(), queryFn: ({ signal }) => api(getCredits, { signal }) }),
};
