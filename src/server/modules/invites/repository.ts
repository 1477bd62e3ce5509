import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Conn } from '../../db/connection.ts';
import { generateToken, hashApiKey } from '../../auth/keys.ts';
import { INVITES_PER_HOUR } from '../../../shared/invites.ts';
import type { Invite } from '../../../shared/invites.ts';
import { roleById } from '../../../shared/roles.ts';
import { conflict, tooManyRequests } from '../../http/errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { runPrepared } from '../../db/prepared.ts';

const HOUR = 3_600_000;

const inviteRows = (db: Conn) =>
  db
    .selectFrom('invites as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by_user_id')
    .select([
      'i.id',
      'i.organization_id',
      'o.name as organization_name',
      'i.email',
      'i.invited_by_user_id',
      'u.first_name',
      'u.last_name',
      'i.role_id',
      'i.status',
      'i.expires_at',
      'i.created_at',
      'i.updated_at',
    ]);

type InviteRow = Awaited<ReturnType<ReturnType<typeof inviteRows>['execute']>>[number];

export function toInvite(row: InviteRow, token: string | null = null): Invite {
  return {
    id: row.id,
    token,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    invitee_email: row.email,
    invited_by_user_id: row.invited_by_user_id,
    invited_by_name: [row.first_name, row.last_name].filter((s) => s && s.trim()).join(' ') || null,
    role_id: row.role_id,
    role_name: roleById(row.role_id)?.name ?? null,
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}

/** Pending, unexpired invites of an organization, newest first. */
const pendingInvitesQuery = (db: Conn) =>
  inviteRows(db)
    .where('i.organization_id', '=', 0)
    .where('i.status', '=', 'pending')
    .where('i.expires_at', '>', '')
    .orderBy('i.updated_at', 'desc')
    .orderBy('i.id', 'desc');

export async function listPendingInvites(db: Conn, organizationId: number, now: Date): Promise<Invite[]> {
  // Listed on every visit of the members page: built and compiled once (runPrepared), not per request.
  const rows = await runPrepared(db, 'pending-invites', pendingInvitesQuery, [organizationId, 'pending', now.toISOString()]);
  return rows.map((r) => toInvite(r));
}

/** Pending, unexpired invites addressed to `email`, newest first. */
export async function listInvitesFor(db: Conn, email: string, now: Date): Promise<Invite[]> {
  const rows = await inviteRows(db)
    .where('i.email', '=', email.toLowerCase())
    .where('i.status', '=', 'pending')
    .where('i.expires_at', '>', now.toISOString())
    .orderBy('i.updated_at', 'desc')
    .execute();
  return rows.map((r) => toInvite(r));
}

export async function findInviteByToken(db: Conn, token: string) {
  return inviteRows(db).select('i.token_hash').where('i.token_hash', '=', hashApiKey(token)).executeTakeFirst();
}

export async function findInviteById(db: Conn, organizationId: number, id: string) {
  return inviteRows(db).where('i.id', '=', id).where('i.organization_id', '=', organizationId).executeTakeFirst();
}

export interface InviteMail {
  publicUrl: string;
}

function inviteMail(publicUrl: string, invite: Invite, token: string) {
  const link = `${publicUrl}/invite?token=${encodeURIComponent(token)}`;
  const expires = new Date(invite.expires_at).toUTCString();
  const who = invite.invited_by_name ?? 'A member';
  const subject = `You've been invited to join ${invite.organization_name}`;
  const text = [
    `${who} invited you to join ${invite.organization_name} on Roster as ${invite.role_name ?? 'a member'}.`,
    '',
    `Accept the invitation: ${link}`,
    '',
    `This invitation expires on ${expires} (${invite.expires_at}).`,
    'If you did not expect it, ignore this e-mail.',
  ].join('\n');
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = `<p>${esc(who)} invited you to join <strong>${esc(invite.organization_name)}</strong> on Roster as ${esc(invite.role_name ?? 'a member')}.</p>
<p><a href="${esc(link)}">Accept the invitation</a></p>
<p>This invitation expires on ${esc(expires)}.</p>`;
  return { subject, text, html };
}

/**
 * Creates the invite, or refreshes the pending one for the same address (new token, role and expiry,
 * same id), and queues its e-mail in the same transaction. Enforces the per-organization hourly limit.
 */
export async function upsertInvite(
  db: Conn,
  input: { organizationId: number; email: string; roleId: number; days: number; invitedBy: string; publicUrl: string },
  now: Date,
  /** Runs last in the transaction with the result (the route stores its idempotent response there). */
  beforeCommit?: (tx: Conn, invite: Invite) => Promise<void>,
): Promise<Invite> {
  const attempt = () =>
    db.transaction().execute(async (tx) => {
      const since = new Date(now.getTime() - HOUR).toISOString();
      const sentRow = await tx
        .selectFrom('mail_outbox')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
        .where('organization_id', '=', input.organizationId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(sentRow.n) >= INVITES_PER_HOUR) {
        const oldest = sentRow.oldest ? new Date(String(sentRow.oldest)).getTime() : now.getTime();
        const retry = Math.max(1, Math.ceil((oldest + HOUR - now.getTime()) / 1000));
        throw tooManyRequests(`At most ${INVITES_PER_HOUR} invites per organization per hour. Try again later.`, retry);
      }
      const member = await tx
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('m.id')
        .where('m.organization_id', '=', input.organizationId)
        .where(sql<string>`lower(u.email)`, '=', input.email)
        .executeTakeFirst();
      if (member) throw conflict('User is already a member of this organization.');

      const at = now.toISOString();
      const expiresAt = new Date(now.getTime() + input.days * 24 * HOUR).toISOString();
      const token = generateToken();
      const pendingKey = `${input.organizationId}:${input.email}`;
      const existing = await tx.selectFrom('invites').select('id').where('pending_key', '=', pendingKey).executeTakeFirst();
      let id: string;
      if (existing) {
        id = existing.id;
        await tx
          .updateTable('invites')
          .set({ token_hash: token.hash, role_id: input.roleId, expires_at: expiresAt, invited_by_user_id: input.invitedBy, updated_at: at })
          .where('id', '=', id)
          .execute();
      } else {
        id = randomUUID();
        await tx
          .insertInto('invites')
          .values({
            id,
            organization_id: input.organizationId,
            email: input.email,
            role_id: input.roleId,
            token_hash: token.hash,
            invited_by_user_id: input.invitedBy,
            status: 'pending',
            pending_key: pendingKey,
            expires_at: expiresAt,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      const row = await inviteRows(tx).where('i.id', '=', id).executeTakeFirstOrThrow();
      const invite = toInvite(row, token.raw);
      const mail = inviteMail(input.publicUrl, invite, token.raw);
      await enqueueMail(tx, { to: input.email, ...mail, reference: id, organizationId: input.organizationId }, now);
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

/** Ends a pending invite (accepted, declined, cancelled): the token dies and the address may be invited again. */
export async function closeInvite(
  db: Conn,
  id: string,
  status: 'accepted' | 'declined' | 'cancelled',
  now: Date,
): Promise<boolean> {
  const res = await db
    .updateTable('invites')
    .set({ status, pending_key: null, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
