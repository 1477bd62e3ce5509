import type { Session } from '../../../shared/sessions.ts';
import { deleteEndedSessionsOf, deleteSession, idleExpiryOf, insertSession, type SessionRow } from '../../auth/session-repository.ts';
import { hashApiKey } from '../../auth/keys.ts';
import type { Conn } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequestError, forbiddenError } from '../../domain-errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { createAccount } from '../account/service.ts';
import { toMicros } from '../credits/repository.ts';
import { findUserByEmail } from '../users/repository.ts';
import { insertLoginToken, markEmailVerified, pruneLoginTokens, useLoginToken } from './repository.ts';
import { disabledAccountMail, noAccountMail, signInLink, signInMail } from './sign-in-mail.ts';
import { ACCOUNT_DISABLED } from '../../auth/principal.ts';

type SessionDeps = Pick<Deps, 'db' | 'config' | 'now'>;

/** A session as the API shows it. */
export function toSession(row: SessionRow, email: string | null): Session {
  return {
    user_id: row.user_id,
    email,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    idle_expires_at: idleExpiryOf(row).toISOString(),
    expires_at: row.expires_at,
  };
}

/**
 * Mails a sign-in link to the address: to its account, or, when sign-up is open, to create one. An
 * address without an account on an instance that does not take sign-ups gets a mail saying so instead:
 * either way the caller learns nothing about which addresses have accounts.
 */
export async function mailSignInLink(deps: SessionDeps, email: string, next?: string): Promise<void> {
  const { db, config } = deps;
  const now = deps.now();
  await pruneLoginTokens(db, now);
  await db.transaction().execute(async (tx) => {
    const user = await findUserByEmail(tx, email);
    if (!user && config.signup !== 'open') {
      await enqueueMail(tx, { to: email, ...noAccountMail(config.publicUrl, config.signup) }, now);
      return;
    }
    if (user?.disabled_at) {
      await enqueueMail(tx, { to: email, ...disabledAccountMail(config.publicUrl) }, now);
      return;
    }
    const { token, expiresAt } = await insertLoginToken(tx, email, now);
    await enqueueMail(tx, { to: email, ...signInMail(config.publicUrl, token, expiresAt, !user, next) }, now);
  });
}

/** A sign-in link for an existing account, printed for an operator (CLI `login-link`) instead of mailed. */
export async function operatorSignInLink(deps: SessionDeps, email: string): Promise<{ link: string; expiresAt: Date }> {
  if ((await findUserByEmail(deps.db, email))?.disabled_at) throw forbiddenError(ACCOUNT_DISABLED);
  const { token, expiresAt } = await insertLoginToken(deps.db, email, deps.now());
  return { link: signInLink(deps.config.publicUrl, token), expiresAt };
}

const REFUSALS = {
  unknown: 'This sign-in link is not valid. Ask for a new one.',
  used: 'This sign-in link was already used: each link signs in once. Ask for a new one.',
  expired: 'This sign-in link has expired: links work for 15 minutes. Ask for a new one.',
} as const;

const SIGNUP_REFUSED = {
  invite: 'There is no account for this address, and this instance creates accounts by invitation only: ask an administrator of your organization to invite you.',
  closed: 'There is no account for this address, and this instance does not accept new sign-ups: ask its operator for an account.',
} as const;

/** The account of the link's address, created when sign-up is open. */
async function accountFor(deps: SessionDeps, email: string): Promise<{ userId: string; created: boolean }> {
  const existing = await findUserByEmail(deps.db, email);
  // A link mailed before the account was disabled must not open it.
  if (existing?.disabled_at) throw forbiddenError(ACCOUNT_DISABLED);
  if (existing) return { userId: existing.id, created: false };
  const mode = deps.config.signup;
  if (mode !== 'open') throw forbiddenError(SIGNUP_REFUSED[mode]);
  try {
    const { userId } = await createAccount(deps.db, { email, creditsMicros: toMicros(deps.config.signupCredits) }, deps.now());
    return { userId, created: true };
  } catch (error) {
    // The same new address signed in twice at once: the unique index lets one create the account.
    const raced = isUniqueViolation(error) ? await findUserByEmail(deps.db, email) : undefined;
    if (raced) return { userId: raced.id, created: false };
    throw error;
  }
}

export interface SignedIn {
  rawId: string;
  row: SessionRow;
  email: string;
  accountCreated: boolean;
}

/**
 * Exchanges a sign-in token for a new session: the address is proven, and any session the browser
 * presented is ended (a sign-in never continues a session someone else may have planted: fixation).
 */
export async function signInWithToken(deps: SessionDeps, rawToken: string, presentedSessionId: string | null): Promise<SignedIn> {
  const { db } = deps;
  const now = deps.now();
  const used = await useLoginToken(db, rawToken, now);
  if ('refused' in used) throw badRequestError(REFUSALS[used.refused]);
  const { userId, created } = await accountFor(deps, used.email);
  const { rawId, row } = await db.transaction().execute((tx) => startSession(tx, userId, presentedSessionId, now));
  return { rawId, row, email: used.email, accountCreated: created };
}

/**
 * Starts a fresh session for a person who just proved their address (a sign-in link, an invite link), in
 * the caller's transaction: the address is marked verified, the session the browser presented is ended
 * (never continued: fixation), and the person's ended sessions are dropped. The route sets the cookie
 * (auth/session-cookie.ts setStartedSessionCookie).
 */
export async function startSession(tx: Conn, userId: string, presentedSessionId: string | null, now: Date): Promise<{ rawId: string; row: SessionRow }> {
  if (presentedSessionId) await deleteSession(tx, hashApiKey(presentedSessionId));
  await markEmailVerified(tx, userId, now);
  await deleteEndedSessionsOf(tx, userId, now);
  return insertSession(tx, userId, now);
}
