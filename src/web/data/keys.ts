import { queryOptions } from '@tanstack/react-query';
import type { CreateOrganizationKeyInputType } from '../../shared/keys.ts';
import {
  createOrganizationKey,
  createPersonalKey,
  listOrganizationKeys,
  listPersonalKeys,
  revokeAllKeys,
  revokeOrganizationKey,
  revokePersonalKey,
} from '../../shared/operations/keys.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { organizationKeys } from './organizations.ts';

// API keys: the person's own (personal) keys, and the keys of an organization they administer (kept
// under that organization's cache key, so leaving or switching organizations drops them with the rest).

export const apiKeyKeys = {
  personal: ['api-keys', 'personal'] as const,
  organization: (organizationId: number) => [...organizationKeys.organization(organizationId), 'api-keys'] as const,
};

export const apiKeyQueries = {
  personal: () => queryOptions({ queryKey: apiKeyKeys.personal, queryFn: ({ signal }) => api(listPersonalKeys, { signal }) }),
  organization: (organizationId: number) =>
    queryOptions({
      queryKey: apiKeyKeys.organization(organizationId),
      queryFn: ({ signal }) => api(listOrganizationKeys, { params: { organization_id: organizationId }, signal }),
    }),
};

export const apiKeyMutations = {
  /** The answer carries the key itself: the only time the dashboard sees it. */
  createPersonal: mutation({
    mutationFn: (name: string) => api(createPersonalKey, { body: { name } }),
    invalidates: () => [apiKeyKeys.personal],
  }),
  revokePersonal: mutation({
    mutationFn: (keyId: number) => api(revokePersonalKey, { params: { key_id: keyId } }),
    invalidates: () => [apiKeyKeys.personal],
    invalidatesOnError: () => [apiKeyKeys.personal],
  }),
  /** Every key of the person, organization ones too: every cached organization key list is stale. */
  revokeAll: mutation({
    mutationFn: (confirm: string) => api(revokeAllKeys, { body: { confirm } }),
    invalidates: () => [apiKeyKeys.personal, organizationKeys.all],
  }),
  createOrganization: mutation({
    mutationFn: ({ organizationId, body }: { organizationId: number; body: CreateOrganizationKeyInputType }) =>
      api(createOrganizationKey, { params: { organization_id: organizationId }, body }),
    invalidates: (_key, { organizationId }) => [apiKeyKeys.organization(organizationId)],
  }),
  revokeOrganization: mutation({
    mutationFn: ({ organizationId, keyId }: { organizationId: number; keyId: number }) =>
      api(revokeOrganizationKey, { params: { organization_id: organizationId, key_id: keyId } }),
    invalidates: (_key, { organizationId }) => [apiKeyKeys.organization(organizationId)],
    invalidatesOnError: ({ organizationId }) => [apiKeyKeys.organization(organizationId)],
  }),
};
