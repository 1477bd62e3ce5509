import { z } from 'zod';
import { MessageSchema } from '../common.ts';
import { AcceptedInviteSchema, InviteIdParams, InviteInput, InviteListSchema, InviteSchema, TokenParams } from '../invites.ts';
import { inOrganization, operation, SIGNED_IN } from '../operation.ts';
import { OrgPathParams } from '../organizations.ts';

// Invitations: an organization's side (send, list, cancel) and the invitee's (by token: show, accept,
// decline). The invitee's side is for the addressee's own account, whichever key it uses.

export const inviteUser = operation({
  method: 'POST',
  path: '/v0/organizations/{organization_id}/invites',
  operationId: 'inviteUser',
  summary: 'Invite someone by e-mail (re-inviting a pending address rotates its token)',
  tag: 'organizations',
  access: inOrganization('org:write'),
  params: OrgPathParams,
  body: InviteInput,
  response: InviteSchema,
  status: 201,
  errors: [400, 403, 404, 409, 422, 429],
  idempotent: true,
});

export const listInvites = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/invites',
  operationId: 'listInvites',
  summary: 'Pending (unexpired) invites of an organization, newest first',
  tag: 'organizations',
  access: inOrganization('org:read'),
  params: OrgPathParams,
  response: InviteListSchema,
  errors: [403, 404],
});

export const cancelInvite = operation({
  method: 'DELETE',
  path: '/v0/organizations/{organization_id}/invites/{invite_id}',
  operationId: 'cancelInvite',
  summary: 'Cancel a pending invite (its link stops working)',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:write'),
  params: InviteIdParams,
  response: z.null().optional(),
  status: 204,
  errors: [403, 404],
});

export const myPendingInvites = operation({
  method: 'GET',
  path: '/v0/invites/pending',
  operationId: 'myPendingInvites',
  summary: 'Pending invites addressed to the caller’s e-mail',
  tag: 'organizations',
  extension: true,
  access: SIGNED_IN,
  response: InviteListSchema,
});

export const showInvite = operation({
  method: 'GET',
  path: '/v0/invites/{token}',
  operationId: 'showInvite',
  summary: 'The invite behind a token, for its addressee (organization and role before accepting)',
  tag: 'organizations',
  extension: true,
  access: SIGNED_IN,
  params: TokenParams,
  response: InviteSchema,
  errors: [400, 403, 404],
});

export const acceptInvite = operation({
  method: 'POST',
  path: '/v0/invites/{token}/accept',
  operationId: 'acceptInvite',
  summary: 'Accept an invite: become a member and receive the organization key (shown once)',
  tag: 'organizations',
  extension: true,
  access: SIGNED_IN,
  params: TokenParams,
  response: AcceptedInviteSchema,
  errors: [400, 403, 404, 409],
});

export const declineInvite = operation({
  method: 'POST',
  path: '/v0/invites/{token}/decline',
  operationId: 'declineInvite',
  summary: 'Decline an invite (its link stops working)',
  tag: 'organizations',
  extension: true,
  access: SIGNED_IN,
  params: TokenParams,
  response: MessageSchema,
  errors: [400, 403, 404],
});
