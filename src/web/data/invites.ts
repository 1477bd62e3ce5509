import { queryOptions } from '@tanstack/react-query';
import type { InviteInput, JoinByInviteInput } from '../../shared/invites.ts';
import { acceptInvite, cancelInvite, declineInvite, inviteUser, joinByInvite, listInvites, previewInvite } from '../../shared/operations/invites.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { organizationKeys } from './organizations.ts';

// Invitations: an organization's pending ones, and the one behind a link's token (for its addressee, or,
// as a preview, for whoever holds the link, signed in or not).

export const inviteKeys = {
  pending: (organizationId: number) => [...organizationKeys.organization(organizationId), 'invites'] as const,
  /** The invite behind a link's token (its preview: signed in or not), outside every workspace's keys. */
  preview: (token: string) => ['invite-preview', token] as const,
};

export const inviteQueries = {
  pending: (organizationId: number) =>
    queryOptions({
      queryKey: inviteKeys.pending(organizationId),
      queryFn: ({ signal }) => api(listInvites, { params: { organization_id: organizationId }, signal }).then((r) => r.invites),
    }),
  preview: (token: string) =>
    queryOptions({
      queryKey: inviteKeys.preview(token),
      queryFn: ({ signal }) => api(previewInvite, { params: { token }, signal }),
      // Expired or used: an answer to show.
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
  /**
   * The caller joins: one more organization of theirs. The used invite is dropped from the cache: asked
   * again (the workspace switch that follows reloads what is on screen), it would only answer 404.
   */
  accept: mutation({
    mutationFn: (token: string) => api(acceptInvite, { params: { token } }),
    invalidates: () => [organizationKeys.mine()],
    removes: (_r, token) => [inviteKeys.preview(token)],
  }),
  /** Nothing cached changes but the used invite: the link's own page shows the answer. */
  decline: mutation({
    mutationFn: (token: string) => api(declineInvite, { params: { token } }),
    invalidates: () => [],
    removes: (_r, token) => [inviteKeys.preview(token)],
  }),
  /**
   * Joins without an account: the server creates it, accepts the invite and sets the session cookie (the
   * answer holds no secret). Signing in resets the cache; the used invite is dropped before that.
   */
  join: mutation({
    mutationFn: ({ token, body }: { token: string; body: JoinByInviteInput }) => api(joinByInvite, { params: { token }, body, cookie: true }),
    invalidates: () => [],
    removes: (_r, { token }) => [inviteKeys.preview(token)],
  }),
};
