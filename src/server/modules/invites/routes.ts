import type { FastifyInstance } from 'fastify';
import { INVITE_DEFAULT_DAYS } from '../../../shared/invites.ts';
import {
  acceptInvite,
  cancelInvite,
  declineInvite,
  inviteUser,
  joinByInvite,
  listInvites,
  myPendingInvites,
  previewInvite,
  showInvite,
} from '../../../shared/operations/invites.ts';
import { checkSameOrigin, sessionCookieOf, setStartedSessionCookie } from '../../auth/session-cookie.ts';
import { route } from '../../http/route.ts';
import { listPendingInvites } from './repository.ts';
import * as service from './service.ts';

export function invitesRoutes(app: FastifyInstance): void {
  route(app, inviteUser, ({ organization, body, principal, deps, idempotency }) =>
    service.sendInvite(
      deps.db,
      {
        organizationId: organization!.id,
        email: body.email,
        role_id: body.role_id,
        role_name: body.role_name,
        days: body.expires_in_days ?? INVITE_DEFAULT_DAYS,
        invitedBy: principal.userId,
        actor: principal,
        publicUrl: deps.config.publicUrl,
      },
      deps.now(),
      (tx, invite) => idempotency.record(tx, invite),
    ),
  );

  route(app, listInvites, async ({ organization, deps }) => ({
    invites: await listPendingInvites(deps.db, organization!.id, deps.now()),
  }));

  route(app, cancelInvite, async ({ organization, params, principal, deps }) => {
    await service.cancelInvite(deps.db, organization!.id, params.invite_id, deps.now(), principal);
    return undefined;
  });

  route(app, myPendingInvites, async ({ principal, deps }) => ({ invites: await service.invitesFor(deps.db, principal.userId, deps.now()) }));

  route(app, showInvite, ({ params, principal, deps }) => service.showInvite(deps.db, principal.userId, params.token, deps.now()));

  route(app, acceptInvite, ({ params, principal, deps }) => service.acceptInvite(deps.db, principal.userId, params.token, deps.now(), principal));

  route(app, declineInvite, ({ params, principal, deps }) => service.declineInvite(deps.db, principal.userId, params.token, deps.now()));

  route(app, previewInvite, ({ params, deps }) => service.previewInvite(deps, params.token));

  route(app, joinByInvite, async ({ req, reply, params, body, deps }) => {
    // It sets a session cookie, as a sign-in does: a cross-site page must not sign a browser into an account.
    checkSameOrigin(req, deps.config, 'joining by invitation');
    const { joined, session } = await service.joinByInvite(deps, params.token, body.name, sessionCookieOf(req, deps.config));
    setStartedSessionCookie(req, reply, deps.config, session, deps.now());
    return joined;
  });
}
