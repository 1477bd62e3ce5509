import type { Conn } from '../../db/connection.ts';
import type { Scope } from '../../auth/principal.ts';
import { paymentRequired } from '../../http/errors.ts';

/** Credits are stored as integer micro-units: exact, and summable without float drift. */
export const MICROS = 1_000_000;
export const toMicros = (credits: number) => Math.round(credits * MICROS);
export const fromMicros = (micros: number) => Number(micros) / MICROS;

type Owner = { userId: string; organizationId?: undefined } | { organizationId: number; userId?: undefined };

export async function openAccount(db: Conn, owner: Owner, initialMicros: number, now: Date): Promise<number> {
  const { id } = await db
    .insertInto('billing_accounts')
    .values({ user_id: owner.userId ?? null, organization_id: owner.organizationId ?? null, credits_micros: initialMicros })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (initialMicros !== 0) {
    await db
      .insertInto('credit_ledger')
      .values({ account_id: id, delta_micros: initialMicros, reason: 'signup', reference: null, created_at: now.toISOString() })
      .execute();
  }
  return id;
}

/** The account a scope spends from: the organization's for an org scope, else the user's. */
export async function accountOf(db: Conn, scope: Scope) {
  const q = db.selectFrom('billing_accounts').select(['id', 'credits_micros', 'user_id', 'organization_id']);
  const row = await (scope.organizationId === null ? q.where('user_id', '=', scope.userId) : q.where('organization_id', '=', scope.organizationId)).executeTakeFirst();
  if (!row) throw new Error('Billing account missing for scope');
  return row;
}

export async function addCredits(db: Conn, accountId: number, deltaMicros: number, reason: string, reference: string | null, now: Date): Promise<void> {
  await db.transaction().execute((tx) => creditAccount(tx, accountId, deltaMicros, reason, reference, now));
}

/** Adds credits with their ledger row, inside the caller's transaction. */
export async function creditAccount(tx: Conn, accountId: number, deltaMicros: number, reason: string, reference: string | null, now: Date): Promise<void> {
  await tx
    .updateTable('billing_accounts')
    .set((eb) => ({ credits_micros: eb('credits_micros', '+', deltaMicros) }))
    .where('id', '=', accountId)
    .execute();
  await tx.insertInto('credit_ledger').values({ account_id: accountId, delta_micros: deltaMicros, reason, reference, created_at: now.toISOString() }).execute();
}

/**
 * What a charge was for, on its ledger row: charges (rows with a category) are what spend counts.
 * Movements that are not spending (a transfer between one's own balances) leave it out.
 */
export interface ChargeFacts {
  category: string;
  /** Who made the charge. */
  userId: string;
  assistantId?: number | null;
  description?: string | null;
  detail?: Record<string, unknown> | null;
}

const chargeColumns = (charge: ChargeFacts | undefined) =>
  charge
    ? {
        category: charge.category,
        user_id: charge.userId,
        assistant_id: charge.assistantId ?? null,
        description: charge.description ?? null,
        detail: charge.detail ? JSON.stringify(charge.detail) : null,
      }
    : {};

/**
 * Deducts credits with one conditional update, inside the caller's transaction: either the balance
 * covers the amount and it is taken (with its ledger row), or nothing changes and the caller gets a 402.
 */
export async function chargeCredits(
  tx: Conn,
  accountId: number,
  amountMicros: number,
  reason: string,
  reference: string | null,
  now: Date,
  insufficientMessage: string,
  charge?: ChargeFacts,
): Promise<void> {
  const result = await tx
    .updateTable('billing_accounts')
    .set((eb) => ({ credits_micros: eb('credits_micros', '-', amountMicros) }))
    .where('id', '=', accountId)
    .where('credits_micros', '>=', amountMicros)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw paymentRequired(insufficientMessage);
  await tx
    .insertInto('credit_ledger')
    .values({ account_id: accountId, delta_micros: -amountMicros, reason, reference, created_at: now.toISOString(), ...chargeColumns(charge) })
    .execute();
}

/**
 * Deducts whatever the balance is (it may go below zero), inside the caller's transaction, with its
 * ledger row. One UPDATE … RETURNING reads the balance it left, so concurrent deductions each see their
 * own before and after and all of them count. Returns the balance after, in micros.
 */
export async function deductFromAccount(tx: Conn, accountId: number, amountMicros: number, now: Date, charge: ChargeFacts): Promise<number> {
  const { credits_micros } = await tx
    .updateTable('billing_accounts')
    .set((eb) => ({ credits_micros: eb('credits_micros', '-', amountMicros) }))
    .where('id', '=', accountId)
    .returning('credits_micros')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('credit_ledger')
    .values({ account_id: accountId, delta_micros: -amountMicros, reason: 'deduct', reference: null, created_at: now.toISOString(), ...chargeColumns(charge) })
    .execute();
  return Number(credits_micros);
}

/** Which charges of an account a spend reads: all of them, one assistant's, or one person's. */
export interface SpendFilter {
  accountId: number;
  assistantId?: number;
  userId?: string;
  /** [from, to): ISO timestamps. */
  from: string;
  to: string;
}

/** The charges in the range, summed per category (micros) and counted, by the database. */
export async function spendByCategory(db: Conn, filter: SpendFilter): Promise<{ category: string; micros: number; charges: number }[]> {
  let q = db
    .selectFrom('credit_ledger')
    .select((eb) => ['category', eb.fn.sum<number | string>('delta_micros').as('micros'), eb.fn.countAll<number | string>().as('charges')])
    .where('account_id', '=', filter.accountId)
    .where('category', 'is not', null)
    .where('created_at', '>=', filter.from)
    .where('created_at', '<', filter.to);
  if (filter.assistantId !== undefined) q = q.where('assistant_id', '=', filter.assistantId);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  const rows = await q.groupBy('category').orderBy('category').execute();
  // A charge is a negative movement: spend is its opposite. PostgreSQL sums bigint as numeric (text).
  return rows.map((r) => ({ category: r.category!, micros: -Number(r.micros), charges: Number(r.charges) }));
}
