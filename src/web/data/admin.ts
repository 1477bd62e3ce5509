import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CreditGrantInput } from '../../shared/admin.ts';
import { disableUser, enableUser, grantCredits, listAdminOrganizations, listAdminUsers, listCreditGrants } from '../../shared/operations/admin.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { accountKeys } from './account.ts';
import { creditKeys } from './credits.ts';

// The instance administrators' area: every person and organization, disabling accounts, credit grants.

export interface AdminListParams {
  search: string;
  page: number;
}

export const adminKeys = {
  all: ['admin'] as const,
  users: (p: AdminListParams) => [...adminKeys.all, 'users', p] as const,
  organizations: (p: AdminListParams) => [...adminKeys.all, 'organizations', p] as const,
  grants: (p: AdminListParams) => [...adminKeys.all, 'grants', p] as const,
};

const query = ({ search, page }: AdminListParams) => ({ search: search || undefined, page });

export const adminQueries = {
  // The previous page stays on screen while the next one (or a new search) loads.
  users: (p: AdminListParams) =>
    queryOptions({ queryKey: adminKeys.users(p), queryFn: ({ signal }) => api(listAdminUsers, { query: query(p), signal }), placeholderData: keepPreviousData }),
  organizations: (p: AdminListParams) =>
    queryOptions({
      queryKey: adminKeys.organizations(p),
      queryFn: ({ signal }) => api(listAdminOrganizations, { query: query(p), signal }),
      placeholderData: keepPreviousData,
    }),
  grants: (p: AdminListParams) =>
    queryOptions({ queryKey: adminKeys.grants(p), queryFn: ({ signal }) => api(listCreditGrants, { query: query(p), signal }), placeholderData: keepPreviousData }),
};

export const adminMutations = {
  disable: mutation({
    mutationFn: (userId: string) => api(disableUser, { params: { user_id: userId } }),
    invalidates: () => [adminKeys.all],
  }),
  enable: mutation({
    mutationFn: (userId: string) => api(enableUser, { params: { user_id: userId } }),
    invalidates: () => [adminKeys.all],
  }),
  /** A grant changes the lists' balances, and the administrator's own when they granted to themselves. */
  grant: mutation({
    mutationFn: (body: CreditGrantInput) => api(grantCredits, { body }),
    invalidates: () => [adminKeys.all, creditKeys.balance(), accountKeys.me],
  }),
};
