import type { FastifyInstance } from 'fastify';
import { getCurrentSession, requestSignInLink, signIn, signOut, signOutEverywhere } from '../../../shared/operations/sessions.ts';
import { SIGN_IN_LINK_MINUTES } from '../../../shared/sessions.ts';
import { checkSameOrigin, clearedSessionCookie, sessionCookieOf, setStartedSessionCookie } from '../../auth/session-cookie.ts';
import { deleteSession, deleteSessionsOf } from '../../auth/session-repository.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { findUser } from '../users/repository.ts';
import { recordAudit } from '../audit/service.ts';
import { mailSignInLink, signInWithToken, toSession } from './service.ts';

export function sessionsRoutes(app: FastifyInstance): void {
  route(app, requestSignInLink, async ({ req, reply, body, deps }) => {
    // Each request sends a mail: limited per client and per recipient, before anything is written.
    await deps.rateLimiter.consume('sign-in-link-client', req.ip, reply);
    await deps.rateLimiter.consume('sign-in-link-address', body.email, reply);
    await mailSignInLink(deps, body.email, body.next);
    return { message: `If ${body.email} can sign in here, a sign-in link is on its way to it. It works once, for ${SIGN_IN_LINK_MINUTES} minutes.` };
  });

  route(app, signIn, async ({ req, reply, body, deps }) => {
    // Signing in sets a cookie: a cross-site page must not sign a browser into someone else's account.
    checkSameOrigin(req, deps.config, 'a sign-in');
    const signedIn = await signInWithToken(deps, body.token, sessionCookieOf(req, deps.config));
    setStartedSessionCookie(req, reply, deps.config, signedIn, deps.now());
    return { ...toSession(signedIn.row, signedIn.email), account_created: signedIn.accountCreated };
  });

  route(app, getCurrentSession, async ({ principal, deps }) => {
    if (!principal.session) throw notFound('This request is signed in with an API key, not a session.');
    return toSession(principal.session, (await findUser(deps.db, principal.userId))?.email ?? null);
  });

  route(app, signOut, async ({ req, reply, principal, deps }) => {
    if (!principal.session) throw badRequest('This request is signed in with an API key, not a session: there is nothing to sign out of. Revoke the key instead.');
    await deleteSession(deps.db, principal.session.id_hash);
    reply.header('Set-Cookie', clearedSessionCookie(req, deps.config));
    return undefined;
  });

  route(app, signOutEverywhere, async ({ req, reply, principal, deps }) => {
    const now = deps.now();
    const ended = await deps.db.transaction().execute(async (tx) => {
      const n = await deleteSessionsOf(tx, principal.userId, now);
      await recordAudit(tx, {
        workspace: { userId: principal.userId },
        actor: principal,
        action: 'sessions.signed_out_everywhere',
        detail: { sessions_ended: n },
        at: now,
      });
      return n;
    });
    if (principal.session) reply.header('Set-Cookie', clearedSessionCookie(req, deps.config));
    return { message: `Signed out of ${ended} session${ended === 1 ? '' : 's'}. API keys keep working: revoke them separately.`, sessions_ended: ended };
  });
}
