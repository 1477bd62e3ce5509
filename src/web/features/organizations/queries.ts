import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import type { Invite } from '../../../shared/invites.ts';
import type { Member, OrganizationSummary } from '../../../shared/organizations.ts';
import type { Role } from '../../../shared/roles.ts';

// The read side of the feature: keys and query options. Light enough for the route table, whose loaders
// start these requests while the pages' code downloads; the mutation hooks stay in api.ts.

export const orgKeys = {
  all: ['organizations'] as const,
  mine: () => [...orgKeys.all, 'mine'] as const,
  members: (orgId: number) => [...orgKeys.all, orgId, 'members'] as const,
  invites: (orgId: number) => [...orgKeys.all, orgId, 'invites'] as const,
  roles: (orgId: number) => [...orgKeys.all, orgId, 'roles'] as const,
  invite: (token: string) => [...orgKeys.all, 'invite', token] as const,
};

export const orgQueries = {
  mine: () =>
    queryOptions({
      queryKey: orgKeys.mine(),
      queryFn: ({ signal }) => api.get<{ organizations: OrganizationSummary[] }>('/v0/organizations', { signal }).then((r) => r.organizations),
    }),
  members: (orgId: number) =>
    queryOptions({
      queryKey: orgKeys.members(orgId),
      queryFn: ({ signal }) => api.get<Member[]>(`/v0/organizations/${orgId}/members`, { signal }),
    }),
  invites: (orgId: number) =>
    queryOptions({
      queryKey: orgKeys.invites(orgId),
      queryFn: ({ signal }) => api.get<{ invites: Invite[] }>(`/v0/organizations/${orgId}/invites`, { signal }).then((r) => r.invites),
    }),
  roles: (orgId: number) =>
    queryOptions({
      queryKey: orgKeys.roles(orgId),
      queryFn: ({ signal }) => api.get<{ roles: Role[] }>(`/v0/organizations/${orgId}/roles`, { signal }).then((r) => r.roles),
      staleTime: Infinity,
    }),
  invite: (token: string) =>
    queryOptions({
      queryKey: orgKeys.invite(token),
      queryFn: ({ signal }) => api.get<Invite>(`/v0/invites/${encodeURIComponent(token)}`, { signal }),
      retry: false,
    }),
};
