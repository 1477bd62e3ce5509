import type { AdminOrganization, AdminUser, CreditGrant } from '../../../shared/admin.ts';
import type { Conn } from '../../db/connection.ts';
import { conflictError, notFoundError } from '../../domain-errors.ts';
import { accountOf, creditAccount, fromMicros, toMicros } from '../credits/repository.ts';
import { findUser } from '../users/repository.ts';
import { findAdminUser, insertGrant, setDisabled, type AdminUserRow, type CreditGrantRow, type listOrganizations } from './repository.ts';

const nameOf = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || null;

export function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    user_id: row.id,
    email: row.email,
    name: nameOf(row.first_name, row.last_name),
    is_admin: row.is_admin === 1,
    disabled_at: row.disabled_at,
    created_at: row.created_at,
    credits: fromMicros(row.credits_micros ?? 0),
    organization_count: Number(row.organization_count ?? 0),
  };
}

export function toAdminOrganization(row: Awaited<ReturnType<typeof listOrganizations>>['rows'][number]): AdminOrganization {
  return {
    id: row.id,
    name: row.name,
    owner_id: row.owner_id,
    owner_email: row.owner_email,
    owner_name: nameOf(row.first_name, row.last_name),
    member_count: Number(row.member_count ?? 0),
    credits: fromMicros(row.credits_micros ?? 0),
    created_at: row.created_at,
  };
}

export function toCreditGrant(row: CreditGrantRow): CreditGrant {
  return {
    id: row.id,
    granted_by: row.granted_by,
    user_id: row.user_id,
    organization_id: row.organization_id,
    recipient: row.recipient,
    amount: fromMicros(row.amount_micros),
    reason: row.reason,
    balance_after: fromMicros(row.balance_after_micros),
    created_at: row.created_at,
  };
}

async function existingUser(db: Conn, userId: string): Promise<AdminUserRow> {
  const row = await findAdminUser(db, userId);
  if (!row) throw notFoundError('User not found.');
  return row;
}

/**
 * Disables the account: from the next request on, its keys and sessions are refused and no sign-in link
 * is sent or accepted for it (auth/principal.ts). An administrator cannot lock themselves out.
 */
export async function disableAccount(db: Conn, adminId: string, userId: string, now: Date): Promise<AdminUser> {
  if (userId === adminId) throw conflictError('You cannot disable your own account: another instance administrator can.');
  const user = await existingUser(db, userId);
  if (user.disabled_at === null) await setDisabled(db, userId, now.toISOString(), now);
  return toAdminUser(await existingUser(db, userId));
}

export async function enableAccount(db: Conn, userId: string, now: Date): Promise<AdminUser> {
  const user = await existingUser(db, userId);
  if (user.disabled_at !== null) await setDisabled(db, userId, null, now);
  return toAdminUser(await existingUser(db, userId));
}

/** Who grants: an administrator (by their e-mail) or the server's command line (`cli`). */
export interface Grantor {
  label: string;
  userId: string | null;
}

export type GrantRecipient = { userId: string; organizationId?: undefined } | { organizationId: number; userId?: undefined };

/**
 * Adds credits to a person's personal balance or an organization's, through the credits ledger, and
 * records the grant with the balance it left, in one transaction: either both are there or neither.
 */
export async function grantCredits(db: Conn, grantor: Grantor, to: GrantRecipient, amount: number, reason: string, now: Date): Promise<CreditGrant> {
  const micros = toMicros(amount);
  return db.transaction().execute(async (tx) => {
    let recipient: string;
    if (to.userId !== undefined) {
      const user = await findUser(tx, to.userId);
      if (!user) throw notFoundError('User not found: check user_id.');
      recipient = user.email ?? user.id;
    } else {
      const organization = await tx.selectFrom('organizations').select(['id', 'name']).where('id', '=', to.organizationId).executeTakeFirst();
      if (!organization) throw notFoundError(`Organization ${to.organizationId} not found: check organization_id.`);
      recipient = organization.name;
    }
    const scope = to.userId !== undefined ? { userId: to.userId, organizationId: null } : { userId: '', organizationId: to.organizationId };
    const account = await accountOf(tx, scope);
    await creditAccount(tx, account.id, micros, 'grant', grantor.label, now);
    const after = await accountOf(tx, scope);
    const row = await insertGrant(
      tx,
      {
        grantedBy: grantor.label,
        grantedByUserId: grantor.userId,
        userId: to.userId ?? null,
        organizationId: to.organizationId ?? null,
        recipient,
        amountMicros: micros,
        reason,
        balanceAfterMicros: Number(after.credits_micros),
      },
      now,
    );
    return toCreditGrant(row);
  });
}
