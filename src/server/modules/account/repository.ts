import { sql } from 'kysely';
import type { Conn } from '../../db/connection.ts';
import type { Blocker, DeletionSummary } from '../../../shared/account.ts';
import { fromMicros } from '../credits/repository.ts';

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
  const personal = `u:${userId}`;
  const count = (n: unknown) => Number(n ?? 0);
  const [projects, endpoints, assistants, voices, memberships, keys] = await Promise.all([
    db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('scope_key', '=', personal)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('custom_endpoints')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('scope_key', '=', personal)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('assistants')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('organization_id', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('voices')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('organization_id', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    projects: count(projects.n),
    assistants: count(assistants.n),
    voices: count(voices.n),
    custom_endpoints: count(endpoints.n),
    organization_memberships: count(memberships.n),
    api_keys: count(keys.n),
  };
}
