import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AcceptedInviteSchema,
  INVITE_DEFAULT_DAYS,
  InviteIdParams,
  InviteInput,
  InviteListSchema,
  InviteSchema,
  TokenParams,
} from '../../../shared/invites.ts';
import { OrgPathParams } from '../../../shared/organizations.ts';
import { MessageSchema } from '../../../shared/common.ts';
import type { Principal } from '../../auth/principal.ts';
import { requireOrgPermission } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { findMembership, insertMembership } from '../organizations/repository.ts';
import { resolveAssignableRole } from '../organizations/routes.ts';
import {
  closeInvite,
  findInviteById,
  findInviteByToken,
  listInvitesFor,
  listPendingInvites,
  toInvite,
  upsertInvite,
} from './repository.ts';

const GONE = 'Invite not found or no longer valid.';

async function callerEmail(deps: Deps, principal: Principal): Promise<string | null> {
  const row = await deps.db.selectFrom('users').select('email').where('id', '=', principal.userId).executeTakeFirst();
  return row?.email?.toLowerCase() ?? null;
}

/** The pending invite behind a token, checked against the caller: 404 unknown/used, 400 expired, 403 other address. */
async function inviteForCaller(deps: Deps, principal: Principal, token: string) {
  const row = await findInviteByToken(deps.db, token);
  if (!row || row.status !== 'pending') throw notFound(GONE);
  if (row.expires_at <= deps.now().toISOString()) throw badRequest('Invite has expired');
  const email = await callerEmail(deps, principal);
  if (email !== row.email) {
    throw forbidden('This invite was sent to a different e-mail address. Sign in with the invited account.');
  }
  return row;
}

export function invitesRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'POST',
    url: '/v0/organizations/{organization_id}/invites',
    operationId: 'inviteUser',
    summary: 'Invite someone by e-mail (re-inviting a pending address rotates its token)',
    tag: 'organizations',
    params: OrgPathParams,
    body: InviteInput,
    response: InviteSchema,
    status: 201,
    errors: [400, 403, 404, 409, 422, 429],
    idempotent: true,
    handler: async ({ params, body, principal, deps, idempotency }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:write');
      const roleId = resolveAssignableRole(body.role_id, body.role_name);
      return upsertInvite(
        deps.db,
        {
          organizationId: params.organization_id,
          email: body.email,
          roleId,
          days: body.expires_in_days ?? INVITE_DEFAULT_DAYS,
          invitedBy: principal.userId,
          publicUrl: deps.config.publicUrl,
        },
        deps.now(),
        (tx, invite) => idempotency.record(tx, invite),
      );
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/organizations/{organization_id}/invites',
    operationId: 'listInvites',
    summary: 'Pending (unexpired) invites of an organization, newest first',
    tag: 'organizations',
    params: OrgPathParams,
    response: InviteListSchema,
    errors: [403, 404],
    handler: async ({ params, principal, deps }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:read');
      return { invites: await listPendingInvites(deps.db, params.organization_id, deps.now()) };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/organizations/{organization_id}/invites/{invite_id}',
    operationId: 'cancelInvite',
    summary: 'Cancel a pending invite (its link stops working)',
    tag: 'organizations',
    extension: true,
    params: InviteIdParams,
    response: z.null().optional(),
    status: 204,
    errors: [403, 404],
    handler: async ({ params, principal, deps }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:write');
      const row = await findInviteById(deps.db, params.organization_id, params.invite_id);
      if (!row || row.status !== 'pending' || !(await closeInvite(deps.db, row.id, 'cancelled', deps.now()))) {
        throw notFound('Invite not found.');
      }
      return undefined;
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/invites/pending',
    operationId: 'myPendingInvites',
    summary: 'Pending invites addressed to the caller’s e-mail',
    tag: 'organizations',
    extension: true,
    response: InviteListSchema,
    handler: async ({ principal, deps }) => {
      const email = await callerEmail(deps, principal);
      return { invites: email ? await listInvitesFor(deps.db, email, deps.now()) : [] };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/invites/{token}',
    operationId: 'showInvite',
    summary: 'The invite behind a token, for its addressee (organization and role before accepting)',
    tag: 'organizations',
    extension: true,
    params: TokenParams,
    response: InviteSchema,
    errors: [400, 403, 404],
    handler: async ({ params, principal, deps }) => toInvite(await inviteForCaller(deps, principal, params.token)),
  });

  route(app, {
    method: 'POST',
    url: '/v0/invites/{token}/accept',
    operationId: 'acceptInvite',
    summary: 'Accept an invite: become a member and receive the organization key (shown once)',
    tag: 'organizations',
    extension: true,
    params: TokenParams,
    response: AcceptedInviteSchema,
    errors: [400, 403, 404, 409],
    handler: async ({ params, principal, deps }) => {
      const row = await inviteForCaller(deps, principal, params.token);
      if (await findMembership(deps.db, row.organization_id, principal.userId)) {
        await closeInvite(deps.db, row.id, 'accepted', deps.now());
        throw conflict('You are already a member of this organization.');
      }
      const apiKey = await deps.db.transaction().execute(async (tx) => {
        // Single use: only the request that flips the invite from pending gets a membership.
        const flipped = await closeInvite(tx, row.id, 'accepted', deps.now());
        if (!flipped) throw notFound(GONE);
        const { apiKey } = await insertMembership(tx, row.organization_id, principal.userId, row.role_id, deps.now());
        return apiKey;
      });
      return {
        message: `You joined ${row.organization_name}.`,
        organization_id: row.organization_id,
        organization_name: row.organization_name,
        api_key: apiKey,
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/invites/{token}/decline',
    operationId: 'declineInvite',
    summary: 'Decline an invite (its link stops working)',
    tag: 'organizations',
    extension: true,
    params: TokenParams,
    response: MessageSchema,
    errors: [400, 403, 404],
    handler: async ({ params, principal, deps }) => {
      const row = await inviteForCaller(deps, principal, params.token);
      if (!(await closeInvite(deps.db, row.id, 'declined', deps.now()))) throw notFound(GONE);
      return { message: `You declined the invitation to ${row.organization_name}.` };
    },
  });
}
