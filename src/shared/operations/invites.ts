import { z } from 'zod';
import { MessageSchema } from '../common.ts';
import {
  AcceptedInviteSchema,
  InviteIdParams,
  InviteInput,
  InviteListSchema,
  InvitePreviewSchema,
  InviteSchema,
  JoinByInviteInput,
  JoinedByInviteSchema,
  TokenParams,
} from '../invites.ts';
import { inOrganization, operation, PUBLIC, SIGNED_IN } from '../operation.ts';
import { OrgPathParams } from '../organizations.ts';

// Invitations: an organization's side (send, list, cancel) and the invitee's (by token: show, accept,
// decline). The invitee's side is for the addressee's own account, whichever key it uses; a person
// without an account joins by the link alone (issue 19: the token proves the invited mailbox).

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

export const previewInvite = operation({
  method: 'GET',
  path: '/v0/invites/{token}/preview',
  operationId: 'previewInvite',
  summary: 'What an invite link offers, to whoever holds it, signed in or not: organization, address, role, and whether that address has an account',
  tag: 'organizations',
  extension: true,
  access: PUBLIC,
  params: TokenParams,
  response: InvitePreviewSchema,
  errors: [400, 404],
});

export const joinByInvite = operation({
  method: 'POST',
  path: '/v0/invites/{token}/join',
  operationId: 'joinByInvite',
  summary:
    'Join by invitation without an account (ROSTER_SIGNUP open or invite; closed is 403): creates the invited address’s account, accepts the invite and starts a browser session, in one transaction',
  description:
    'The token, mailed to the invited address, proves it: the account is created for that address (verified), with the optional `name` and the sign-up credits (ROSTER_SIGNUP_CREDITS), joins with the invite’s role, and the answer sets the session cookie, as the e-mail link sign-in does (any session cookie sent along is ended). The invite is used up. Allowed when ROSTER_SIGNUP is `open` or `invite` (an invitation is what `invite` admits); `closed` refuses it with 403. When the address already has an account: 409, sign in with it and accept (POST /v0/invites/{token}/accept) instead. Expired 400; used, declined, cancelled or replaced 404. Needs the same-origin checks of every cookie request (Origin and the X-Roster-CSRF header).',
  tag: 'organizations',
  extension: true,
  access: PUBLIC,
  params: TokenParams,
  body: JoinByInviteInput,
  response: JoinedByInviteSchema,
  status: 201,
  errors: [400, 403, 404, 409, 422],
});
