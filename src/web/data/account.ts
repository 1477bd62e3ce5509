import { queryOptions } from '@tanstack/react-query';
import type { CreateWithBusinessInfo } from '../../shared/account.ts';
import type { ResponseOf } from '../../shared/operation.ts';
import { canDeleteAccount, createUserWithBusinessInfo, deleteAccount, getClassification, getSpendingLimit, setSpendingLimit } from '../../shared/operations/account.ts';
import { getBasicInfo } from '../../shared/operations/users.ts';
import { api } from '../lib/api-client.ts';
import { assistantKeys } from './assistants.ts';
import { mutation } from '../lib/mutation.ts';

// The signed-in account: who the active key belongs to, its classification, spending limit, whether it can be deleted.

/** "Who am I" for the active key: name, credits, and the key's workspace, role and permissions. */
export type Me = ResponseOf<typeof getBasicInfo>;

export const accountKeys = {
  me: ['me'] as const,
  all: ['account'] as const,
  spendingLimit: () => [...accountKeys.all, 'spending-limit'] as const,
  canDelete: () => [...accountKeys.all, 'can-delete'] as const,
  classification: () => [...accountKeys.all, 'classification'] as const,
};

/** Asked on every page (and by the route table, which must not pull the query hooks into the first chunk). */
export const meQuery = queryOptions({ queryKey: accountKeys.me, queryFn: ({ signal }) => api(getBasicInfo, { signal }) });

export const accountQueries = {
  spendingLimit: () => queryOptions({ queryKey: accountKeys.spendingLimit(), queryFn: ({ signal }) => api(getSpendingLimit, { signal }) }),
  canDelete: () => queryOptions({ queryKey: accountKeys.canDelete(), queryFn: ({ signal }) => api(canDeleteAccount, { signal }) }),
  classification: () => queryOptions({ queryKey: accountKeys.classification(), queryFn: ({ signal }) => api(getClassification, { signal }) }),
};

/** Checks a key before the session uses it (sign-in): answers who it belongs to, or throws. */
export const whoIs = (key: string, apiBase: string) => api(getBasicInfo, { key, apiBase });

export const accountMutations = {
  /** Classify your own account (email null) or create a colleague's (email given; their key comes back once). */
  createWithBusinessInfo: mutation({
    mutationFn: (body: CreateWithBusinessInfo) => api(createUserWithBusinessInfo, { body }),
    invalidates: (_r, body) => (body.email ? [] : [accountKeys.me, accountKeys.classification()]),
  }),
  /** Lowering the cap caps personal assistants above it: their lists change too. */
  setSpendingLimit: mutation({
    mutationFn: (cap: number | null) => api(setSpendingLimit, { body: { monthly_spending_cap: cap } }),
    invalidates: () => [accountKeys.spendingLimit(), assistantKeys.all],
  }),
  delete: mutation({
    mutationFn: (confirmEmail: string) => api(deleteAccount, { body: { confirm_email: confirmEmail } }),
    invalidates: () => [],
  }),
};
