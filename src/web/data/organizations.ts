import { queryOptions } from '@tanstack/react-query';
import { createOrganization, listOrganizations, listRoles } from '../../shared/operations/organizations.ts';
import type { CreateOrganizationInput } from '../../shared/organizations.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';

// Organizations: cache keys, reads and changes. Members (members.ts) and invitations (invites.ts) of one
// organization keep their keys under `organization(id)`.

export const organizationKeys = {
  all: ['organizations'] as const,
  /** The organizations the caller belongs to. */
  mine: () => [...organizationKeys.all, 'mine'] as const,
  organization: (organizationId: number) => [...organizationKeys.all, organizationId] as const,
  roles: (organizationId: number) => [...organizationKeys.organization(organizationId), 'roles'] as const,
};

export const organizationQueries = {
  mine: () =>
    queryOptions({
      queryKey: organizationKeys.mine(),
      queryFn: ({ signal }) => api(listOrganizations, { signal }).then((r) => r.organizations),
    }),
  roles: (organizationId: number) =>
    queryOptions({
      queryKey: organizationKeys.roles(organizationId),
      queryFn: ({ signal }) => api(listRoles, { params: { organization_id: organizationId }, signal }).then((r) => r.roles),
      // The four system roles never change.
      staleTime: Infinity,
    }),
};

export const organizationMutations = {
  create: mutation({
    mutationFn: (body: CreateOrganizationInput) => api(createOrganization, { body }),
    invalidates: () => [organizationKeys.mine()],
  }),
};
