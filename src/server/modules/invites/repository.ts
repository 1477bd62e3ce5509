import { randomUUID } from 'node:crypto';
import type { Invite } from '../../../shared/invites.ts';
import { roleById } from '../../../shared/roles.ts';
import { hashApiKey } from '../../auth/keys.ts';
import type { Conn } from '../../db/connection.ts';
import { runPrepared } from '../../db/prepared.ts';
import { personName } from '../users/person-name.ts';

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
    invited_by_name: personName(row.first_name, row.last_name),
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

/** The invite as the API shows it; `token` only right after it was (re)issued. */
export async function readInvite(db: Conn, id: string, token: string | null = null): Promise<Invite> {
  return toInvite(await inviteRows(db).where('i.id', '=', id).executeTakeFirstOrThrow(), token);
}

/** Mail an organization queued since `since`: how much, and when the oldest of it was queued. */
/** Who a count of queued invite mails is about: one organization, one sender, one address, or all. */
export type MailScope = { organizationId: number } | { senderId: string } | { address: string } | 'instance';

/** Invite mails queued since `since` in the scope, and when the oldest of them was queued. */
export async function mailQueuedSince(db: Conn, scope: MailScope, since: Date): Promise<{ count: number; oldest: Date | null }> {
  let query = db
    .selectFrom('mail_outbox as m')
    .innerJoin('invites as i', 'i.id', 'm.reference')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('m.created_at').as('oldest')])
    .where('m.created_at', '>', since.toISOString());
  if (scope !== 'instance') {
    if ('organizationId' in scope) query = query.where('m.organization_id', '=', scope.organizationId);
    else if ('senderId' in scope) query = query.where('i.invited_by_user_id', '=', scope.senderId);
    else query = query.where('m.to_address', '=', scope.address);
  }
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest ? new Date(String(row.oldest)) : null };
}

/** One pending invite per organization and address: the unique `pending_key` holds it while pending. */
const pendingKeyOf = (organizationId: number, email: string) => `${organizationId}:${email}`;

export function findPendingInvite(db: Conn, organizationId: number, email: string) {
  return db.selectFrom('invites').select('id').where('pending_key', '=', pendingKeyOf(organizationId, email)).executeTakeFirst();
}

export interface InviteTerms {
  roleId: number;
  tokenHash: string;
  invitedBy: string;
  expiresAt: string;
}

/** Gives a pending invite a new token, role, expiry and sender (the old token stops working). */
export async function refreshInvite(db: Conn, id: string, terms: InviteTerms, now: Date): Promise<void> {
  await db
    .updateTable('invites')
    .set({ token_hash: terms.tokenHash, role_id: terms.roleId, expires_at: terms.expiresAt, invited_by_user_id: terms.invitedBy, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Inserts a pending invite; a concurrent first invite of the same address fails on `pending_key`. */
export async function insertInvite(db: Conn, organizationId: number, email: string, terms: InviteTerms, now: Date): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  await db
    .insertInto('invites')
    .values({
      id,
      organization_id: organizationId,
      email,
      role_id: terms.roleId,
      token_hash: terms.tokenHash,
      invited_by_user_id: terms.invitedBy,
      status: 'pending',
      pending_key: pendingKeyOf(organizationId, email),
      expires_at: terms.expiresAt,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** Ends a pending invite (accepted, declined, cancelled): the token dies and the address may be invited again. */
export async function closeInvite(db: Conn, id: string, status: 'accepted' | 'declined' | 'cancelled', now: Date): Promise<boolean> {
  const res = await db
    .updateTable('invites')
    .set({ status, pending_key: null, updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
