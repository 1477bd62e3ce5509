import { queryOptions } from '@tanstack/react-query';
import type { CustomEndpointInputType } from '../../shared/custom-endpoints.ts';
import { createCustomEndpoint, deleteCustomEndpoint, listCustomEndpoints } from '../../shared/operations/custom-endpoints.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';

// Custom model endpoints of the active key's workspace.

export const customEndpointKeys = {
  all: ['custom-endpoints'] as const,
  list: () => [...customEndpointKeys.all, 'list'] as const,
};

export const customEndpointQueries = {
  list: () => queryOptions({ queryKey: customEndpointKeys.list(), queryFn: ({ signal }) => api(listCustomEndpoints, { signal }) }),
};

export const customEndpointMutations = {
  create: mutation({
    mutationFn: (body: CustomEndpointInputType) => api(createCustomEndpoint, { body }),
    invalidates: () => [customEndpointKeys.all],
  }),
  delete: mutation({
    mutationFn: (name: string) => api(deleteCustomEndpoint, { query: { name } }),
    invalidates: () => [customEndpointKeys.all],
    invalidatesOnError: () => [customEndpointKeys.all],
  }),
};
