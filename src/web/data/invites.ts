import { queryOptions } from '@tanstack/react-query';
import type { InviteInput } from '../../shared/invites.ts';
import { acceptInvite, cancelInvite, declineInvite, inviteUser, listInvites, showInvite } from '../../shared/operations/invites.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { organizationKeys } from './organizations.ts';

// Invitations: an organization's pending ones, and the one behind a link's token (for its addressee).

export const inviteKeys = {
  pending: (organizationId: number) => [...organizationKeys.organization(organizationId), 'invites'] as const,
  byToken: (token: string) => [...organizationKeys.all, 'invite', token] as const,
};

export const inviteQueries = {
  pending: (organizationId: number) =>
    queryOptions({
      queryKey: inviteKeys.pending(organizationId),
      queryFn: ({ signal }) => api(listInvites, { params: { organization_id: organizationId }, signal }).then((r) => r.invites),
    }),
  byToken: (token: string) =>
    queryOptions({
      queryKey: inviteKeys.byToken(token),
      queryFn: ({ signal }) => api(showInvite, { params: { token }, signal }),
      // Its errors (expired, another account, used) are answers to show, not failures to retry.
      retry: false,
    }),
};

export const inviteMutations = {
  /** Sends an invitation, or a fresh one to an address already invited (the old link stops working). */
  send: mutation({
    mutationFn: ({ organizationId, invite }: { organizationId: number; invite: InviteInput }) =>
      api(inviteUser, { params: { organization_id: organizationId }, body: invite }),
    invalidates: (_r, { organizationId }) => [inviteKeys.pending(organizationId)],
  }),
  cancel: mutation({
    mutationFn: ({ organizationId, inviteId }: { organizationId: number; inviteId: string }) =>
      api(cancelInvite, { params: { organization_id: organizationId, invite_id: inviteId } }),
    invalidates: (_r, { organizationId }) => [inviteKeys.pending(organizationId)],
    // A 404: accepted, declined or cancelled meanwhile.
    invalidatesOnError: ({ organizationId }) => [inviteKeys.pending(organizationId)],
  }),
  /** The caller joins: one more organization of theirs. */
  accept: mutation({
    mutationFn: (token: string) => api(acceptInvite, { params: { token } }),
    invalidates: () => [organizationKeys.mine()],
  }),
  /** Nothing cached changes: the link's own page shows the answer. */
  decline: mutation({
    mutationFn: (token: string) => api(declineInvite, { params: { token } }),
    invalidates: () => [],
  }),
};
