import { queryOptions } from '@tanstack/react-query';
import { deleteOrganization, getOrganizationDeletion, leaveOrganization, moveCreditsToOrganization, transferOwnership } from '../../shared/operations/organizations.ts';
import { accountKeys } from './account.ts';
import { creditKeys } from './credits.ts';
import { memberKeys } from './members.ts';
import { organizationKeys } from './organizations.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';

// Ownership of an organization: hand it over, leave it, delete it (with its pre-flight), fund it from
// the owner's own balance. Each change refreshes the caller's organizations and the account-deletion
// pre-flight, whose blockers these actions resolve.

export const ownershipKeys = {
  deletion: (organizationId: number) => [...organizationKeys.organization(organizationId), 'deletion'] as const,
};

export const ownershipQueries = {
  deletion: (organizationId: number) =>
    queryOptions({
      queryKey: ownershipKeys.deletion(organizationId),
      queryFn: ({ signal }) => api(getOrganizationDeletion, { params: { organization_id: organizationId }, signal }),
      // Counted when the dialog opens, never from a stale cache.
      staleTime: 0,
    }),
};

interface Confirmed {
  organizationId: number;
  /** The organization's name as the person typed it. */
  confirmName: string;
}

const afterOwnershipChange = (organizationId: number) => [organizationKeys.mine(), memberKeys.list(organizationId), accountKeys.canDelete(), accountKeys.me];

export const ownershipMutations = {
  transfer: mutation({
    mutationFn: ({ organizationId, confirmName, userId }: Confirmed & { userId: string }) =>
      api(transferOwnership, { params: { organization_id: organizationId }, body: { user_id: userId, confirm_name: confirmName } }),
    invalidates: (_r, { organizationId }) => afterOwnershipChange(organizationId),
    invalidatesOnError: ({ organizationId }) => [memberKeys.list(organizationId)],
  }),
  leave: mutation({
    mutationFn: ({ organizationId, confirmName }: Confirmed) =>
      api(leaveOrganization, { params: { organization_id: organizationId }, body: { confirm_name: confirmName } }),
    invalidates: () => [organizationKeys.mine(), accountKeys.canDelete()],
    removes: (_r, { organizationId }) => [organizationKeys.organization(organizationId)],
  }),
  delete: mutation({
    mutationFn: ({ organizationId, confirmName }: Confirmed) =>
      api(deleteOrganization, { params: { organization_id: organizationId }, body: { confirm_name: confirmName } }),
    invalidates: () => [organizationKeys.mine(), accountKeys.canDelete()],
    removes: (_r, { organizationId }) => [organizationKeys.organization(organizationId)],
    invalidatesOnError: ({ organizationId }) => [ownershipKeys.deletion(organizationId)],
  }),
  moveCredits: mutation({
    mutationFn: ({ organizationId, amount }: { organizationId: number; amount: number }) =>
      api(moveCreditsToOrganization, { params: { organization_id: organizationId }, body: { amount } }),
    invalidates: () => [creditKeys.balance(), accountKeys.me],
  }),
};
