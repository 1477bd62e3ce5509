import {
  INVITES_PER_ADDRESS_PER_HOUR,
  INVITES_PER_HOUR,
  INVITES_PER_INSTANCE_PER_HOUR,
  INVITES_PER_SENDER_PER_HOUR,
  type AcceptedInvite,
  type Invite,
  type InvitePreview,
  type JoinedByInvite,
} from '../../../shared/invites.ts';
import type { SessionRow } from '../../auth/session-repository.ts';
import { generateToken } from '../../auth/keys.ts';
import type { Conn } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequestError, conflictError, forbiddenError, notFoundError, rateLimited } from '../../domain-errors.ts';
import { enqueueMail, hasWaitingMail } from '../../mail/outbox.ts';
import { findMembership, findMembershipByEmail, insertMembership } from '../organizations/repository.ts';
import { resolveAssignableRole } from '../organizations/service.ts';
import { insertAccount } from '../account/service.ts';
import { toMicros } from '../credits/repository.ts';
import { startSession, toSession } from '../sessions/service.ts';
import { splitName } from '../users/person-name.ts';
import { findUser, findUserByEmail } from '../users/repository.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { inviteMail } from './invite-mail.ts';
import {
  closeInvite,
  findInviteById,
  findInviteByToken,
  findPendingInvite,
  insertInvite,
  listInvitesFor,
  mailQueuedSince,
  type MailScope,
  readInvite,
  refreshInvite,
  toInvite,
} from './repository.ts';

const HOUR = 3_600_000;
const GONE = 'Invite not found or no longer valid.';

export interface InviteRequest {
  organizationId: number;
  email: string;
  role_id?: number;
  role_name?: string;
  days: number;
  invitedBy: string;
  /** Who sends it, for the audit log (the inviter with the key they called with). */
  actor: AuditActor;
  /** Where the dashboard is, for the link in the e-mail. */
  publicUrl: string;
}

/** Refuses past one hourly quota, saying when the oldest mail of the hour ages out. */
async function checkQuota(tx: Conn, scope: MailScope, limit: number, what: string, now: Date): Promise<void> {
  const { count, oldest } = await mailQueuedSince(tx, scope, new Date(now.getTime() - HOUR));
  if (count < limit) return;
  const retryAfter = Math.max(1, Math.ceil(((oldest ?? now).getTime() + HOUR - now.getTime()) / 1000));
  throw rateLimited(`At most ${limit} invites ${what} per hour. Try again later.`, retryAfter);
}

/**
 * Invite mail is limited per organization, per sender and per recipient address (so throwaway
 * organizations cannot flood an inbox), and per instance.
 */
async function checkHourlyQuotas(tx: Conn, request: InviteRequest, now: Date): Promise<void> {
  await checkQuota(tx, { organizationId: request.organizationId }, INVITES_PER_HOUR, 'per organization', now);
  await checkQuota(tx, { senderId: request.invitedBy }, INVITES_PER_SENDER_PER_HOUR, 'from one person', now);
  await checkQuota(tx, { address: request.email }, INVITES_PER_ADDRESS_PER_HOUR, 'to one address', now);
  await checkQuota(tx, 'instance', INVITES_PER_INSTANCE_PER_HOUR, 'on this instance', now);
}

/**
 * Invites an address, or re-invites it while its invite is pending (same invite, new token, role and
 * expiry: the old link stops working), and queues the e-mail in the same transaction (outbox).
 * `beforeCommit` runs last in the transaction with the answer (the route stores its idempotent response there).
 */
export async function sendInvite(db: Conn, request: InviteRequest, now: Date, beforeCommit?: (tx: Conn, invite: Invite) => Promise<void>): Promise<Invite> {
  const { organizationId, email } = request;
  const roleId = resolveAssignableRole(request.role_id, request.role_name);
  const attempt = () =>
    db.transaction().execute(async (tx) => {
      if (await findMembershipByEmail(tx, organizationId, email)) throw conflictError('User is already a member of this organization.');
      const pending = await findPendingInvite(tx, organizationId, email);
      // A re-invite whose mail has not gone yet replaces that mail (enqueueMail): it sends nothing more.
      if (!pending || !(await hasWaitingMail(tx, pending.id))) await checkHourlyQuotas(tx, request, now);
      const token = generateToken();
      const terms = {
        roleId,
        tokenHash: token.hash,
        invitedBy: request.invitedBy,
        expiresAt: new Date(now.getTime() + request.days * 24 * HOUR).toISOString(),
      };
      let id: string;
      if (pending) {
        id = pending.id;
        await refreshInvite(tx, id, terms, now);
      } else {
        id = await insertInvite(tx, organizationId, email, terms, now);
      }
      const invite = await readInvite(tx, id, token.raw);
      await enqueueMail(tx, { to: email, ...inviteMail(request.publicUrl, invite, token.raw), reference: id, organizationId }, now);
      await recordAudit(tx, {
        workspace: { organizationId },
        actor: request.actor,
        action: 'invite.sent',
        target: { type: 'invite', id, label: email },
        detail: { role_id: roleId },
        at: now,
      });
      await beforeCommit?.(tx, invite);
      return invite;
    });
  try {
    return await attempt();
  } catch (error) {
    // Two concurrent first invites for one address: the loser refreshes the winner's invite instead.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}

/** Cancels a pending invite of the organization; anything else is not found. */
export async function cancelInvite(db: Conn, organizationId: number, inviteId: string, now: Date, actor: AuditActor): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const row = await findInviteById(tx, organizationId, inviteId);
    if (!row || row.status !== 'pending' || !(await closeInvite(tx, row.id, 'cancelled', now))) {
      throw notFoundError('Invite not found.');
    }
    await recordAudit(tx, { workspace: { organizationId }, actor, action: 'invite.cancelled', target: { type: 'invite', id: row.id, label: row.email }, at: now });
  });
}

async function emailOf(db: Conn, userId: string): Promise<string | null> {
  return (await findUser(db, userId))?.email?.toLowerCase() ?? null;
}

/**
 * Pending invites addressed to the user's e-mail, once the person has proven that address (opened a
 * sign-in link sent to it): an account merely registered under someone's address sees none of their
 * invites (security review, medium 4). Accepting always takes the invite's token, which only the mailbox got.
 */
export async function invitesFor(db: Conn, userId: string, now: Date): Promise<Invite[]> {
  const user = await findUser(db, userId);
  return user?.email && user.email_verified_at !== null ? listInvitesFor(db, user.email, now) : [];
}

/** The pending invite behind a token, for whoever holds it: unknown or used → not found, expired → bad request. */
async function pendingInvite(db: Conn, token: string, now: Date) {
  const row = await findInviteByToken(db, token);
  if (!row || row.status !== 'pending') throw notFoundError(GONE);
  if (row.expires_at <= now.toISOString()) throw badRequestError('Invite has expired');
  return row;
}

/** The pending invite behind a token, for its addressee only: as pendingInvite, and another address → forbidden. */
async function pendingInviteFor(db: Conn, userId: string, token: string, now: Date) {
  const row = await pendingInvite(db, token, now);
  if ((await emailOf(db, userId)) !== row.email) {
    throw forbiddenError('This invite was sent to a different e-mail address. Sign in with the invited account.');
  }
  return row;
}

export async function showInvite(db: Conn, userId: string, token: string, now: Date): Promise<Invite> {
  return toInvite(await pendingInviteFor(db, userId, token, now));
}

/** Joins the organization with the invite's role and issues the organization key (shown once). */
export async function acceptInvite(db: Conn, userId: string, token: string, now: Date, actor: AuditActor = { userId, keyId: null }): Promise<AcceptedInvite> {
  const row = await pendingInviteFor(db, userId, token, now);
  if (await findMembership(db, row.organization_id, userId)) {
    await closeInvite(db, row.id, 'accepted', now);
    throw conflictError('You are already a member of this organization.');
  }
  const apiKey = await db.transaction().execute(async (tx) => {
    // Single use: only the request that flips the invite from pending gets a membership.
    if (!(await closeInvite(tx, row.id, 'accepted', now))) throw notFoundError(GONE);
    const membership = await insertMembership(tx, row.organization_id, userId, row.role_id, now);
    await recordAudit(tx, {
      workspace: { organizationId: row.organization_id },
      actor,
      action: 'invite.accepted',
      target: { type: 'invite', id: row.id, label: row.email },
      detail: { role_id: row.role_id },
      at: now,
    });
    return membership.apiKey;
  });
  return {
    message: `You joined ${row.organization_name}.`,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    api_key: apiKey,
  };
}

export async function declineInvite(db: Conn, userId: string, token: string, now: Date): Promise<{ message: string }> {
  const row = await pendingInviteFor(db, userId, token, now);
  if (!(await closeInvite(db, row.id, 'declined', now))) throw notFoundError(GONE);
  return { message: `You declined the invitation to ${row.organization_name}.` };
}

type JoinDeps = Pick<Deps, 'db' | 'config' | 'now'>;

const closedSignup = (email: string) =>
  `This instance does not create accounts, not even by invitation: ask its operator to create an account for ${email}, then sign in and accept the invitation.`;
const accountExists = (email: string) => `${email} already has an account: sign in with it, then accept the invitation.`;

/**
 * What the link offers, to whoever holds it (the invited mailbox: only it got the token), signed in or
 * not; whether the address has an account tells the page to offer joining or signing in.
 */
export async function previewInvite(deps: JoinDeps, token: string): Promise<InvitePreview> {
  const row = await pendingInvite(deps.db, token, deps.now());
  const invite = toInvite(row);
  return {
    organization_id: invite.organization_id,
    organization_name: invite.organization_name,
    invitee_email: invite.invitee_email,
    invited_by_name: invite.invited_by_name,
    role_id: invite.role_id,
    role_name: invite.role_name,
    expires_at: invite.expires_at,
    account_exists: (await findUserByEmail(deps.db, row.email)) !== undefined,
    can_join: deps.config.signup !== 'closed',
  };
}

export interface Joined {
  joined: JoinedByInvite;
  session: { rawId: string; row: SessionRow };
}

/**
 * Joining by invitation without an account (issue 19): the token proves the invited address, so its
 * account is created (verified, with the sign-up credits), joins with the invite's role, and a session
 * starts, in one transaction that first uses the invite up: a second use, or any failure, writes nothing.
 * ROSTER_SIGNUP `open` and `invite` allow it (an invitation is what `invite` admits); `closed` does not.
 * An address that has an account is sent to sign in and accept instead: never a second account.
 */
export async function joinByInvite(deps: JoinDeps, token: string, name: string | undefined, presentedSessionId: string | null): Promise<Joined> {
  const { db, config } = deps;
  const now = deps.now();
  const row = await pendingInvite(db, token, now);
  if (await findUserByEmail(db, row.email)) throw conflictError(accountExists(row.email));
  if (config.signup === 'closed') throw forbiddenError(closedSignup(row.email));
  try {
    return await db.transaction().execute(async (tx) => {
      // Single use: only the request that flips the invite from pending goes on.
      if (!(await closeInvite(tx, row.id, 'accepted', now))) throw notFoundError(GONE);
      const { userId } = await insertAccount(tx, { email: row.email, ...splitName(name), creditsMicros: toMicros(config.signupCredits) }, now);
      await insertMembership(tx, row.organization_id, userId, row.role_id, now);
      await recordAudit(tx, {
        workspace: { organizationId: row.organization_id },
        actor: { userId, keyId: null },
        action: 'invite.accepted',
        target: { type: 'invite', id: row.id, label: row.email },
        detail: { role_id: row.role_id, account_created: true },
        at: now,
      });
      const session = await startSession(tx, userId, presentedSessionId, now);
      const invite = toInvite(row);
      return {
        session,
        joined: {
          ...toSession(session.row, row.email),
          message: `Welcome to ${row.organization_name}: you joined as ${invite.role_name ?? 'a member'}.`,
          organization_id: row.organization_id,
          organization_name: row.organization_name,
          role_name: invite.role_name,
          account_created: true,
        },
      };
    });
  } catch (error) {
    // The address got an account meanwhile (a sign-up link opened at the same moment): the unique index
    // let that one through; this transaction, invite included, is rolled back.
    if (isUniqueViolation(error)) throw conflictError(accountExists(row.email));
    throw error;
  }
}
