import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Conn } from '../../db/connection.ts';
import type { Blocker, BusinessInfo, Classification, DeletionSummary } from '../../../shared/account.ts';
import { fromMicros } from '../credits/repository.ts';
import { scopeKey } from '../../db/scope.ts';

/**
 * Sets the user's monthly cap and, when it is a number, lowers every personal assistant whose cap is
 * higher, in one transaction. Returns how many assistants were capped.
 */
export async function setSpendingLimit(db: Conn, userId: string, capMicros: number | null): Promise<number> {
  return db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ monthly_spending_cap_micros: capMicros }).where('id', '=', userId).execute();
    if (capMicros === null) return 0;
    // One conditional update: the count is exactly the rows it changed.
    const result = await sql`
      update assistants set monthly_spending_cap_micros = ${capMicros}
      where user_id = ${userId} and organization_id is null
        and monthly_spending_cap_micros is not null and monthly_spending_cap_micros > ${capMicros}`.execute(tx);
    return Number(result.numAffectedRows ?? 0);
  });
}

export async function classificationOf(db: Conn, userId: string): Promise<Classification> {
  const row = await db.selectFrom('users').select(['account_type', 'business_info']).where('id', '=', userId).executeTakeFirstOrThrow();
  return { account_type: row.account_type as Classification['account_type'], business_info: row.business_info ? (JSON.parse(row.business_info) as BusinessInfo) : null };
}

export async function spendingLimitOf(db: Conn, userId: string) {
  const row = await db.selectFrom('users').select('monthly_spending_cap_micros').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.monthly_spending_cap_micros === null ? null : fromMicros(row.monthly_spending_cap_micros);
}

/** Everything that stands in the way of deleting the account; empty when it can go. */
export async function deletionBlockers(db: Conn, userId: string): Promise<Blocker[]> {
  const owned = await db.selectFrom('organizations').select(['id', 'name']).where('owner_id', '=', userId).orderBy('name').execute();
  const blockers: Blocker[] = [];
  if (owned.length > 0) {
    const names = owned.map((o) => o.name);
    blockers.push({
      reason: 'organization_owner',
      details: {
        message: `You own ${owned.length === 1 ? 'the organization' : `${owned.length} organizations:`} ${names.join(', ')}. Transfer ownership or delete ${owned.length === 1 ? 'it' : 'them'} first.`,
        organizations: names,
        organization_ids: owned.map((o) => o.id),
      },
    });
  }
  return blockers;
}

/** What deleting the account would remove: the personal things and the person's memberships and keys. */
export async function deletionSummary(db: Conn, userId: string): Promise<DeletionSummary> {
  const personalScope = scopeKey({ userId, organizationId: null });
  const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: unknown }> }) => Number((await query.executeTakeFirstOrThrow()).n ?? 0);
  const n = (eb: ExpressionBuilder<Database, keyof Database>) => eb.fn.countAll().as('n');
  const [projects, assistants, voices, custom_endpoints, organization_memberships, api_keys] = await Promise.all([
    count(db.selectFrom('projects').select(n).where('scope_key', '=', personalScope)),
    count(db.selectFrom('assistants').select(n).where('user_id', '=', userId).where('organization_id', 'is', null)),
    count(db.selectFrom('voices').select(n).where('user_id', '=', userId).where('organization_id', 'is', null)),
    count(db.selectFrom('custom_endpoints').select(n).where('scope_key', '=', personalScope)),
    count(db.selectFrom('memberships').select(n).where('user_id', '=', userId)),
    count(db.selectFrom('api_keys').select(n).where('user_id', '=', userId).where('revoked_at', 'is', null)),
  ]);
  return { projects, assistants, voices, custom_endpoints, organization_memberships, api_keys };
}
