import { Migrator, type Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { freshTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { openDatabase, type DbHandle } from '../connection.ts';
import { allMigrations } from './index.ts';

// 2026-11-27-04-credit-spend on a database that already has balances and hires: hires become charges
// (category, assistant, hirer), the balance check goes, and every row and foreign key survives the
// rebuild (SQLite) — on whichever database the tests run (TEST_DATABASE_URL for PostgreSQL).

const MINE = '2026-11-27-04-credit-spend';
let handle: DbHandle | null = null;
let database: TestDatabase | null = null;
afterEach(async () => {
  await handle?.close();
  await database?.drop();
  handle = null;
  database = null;
});

function migrator(h: DbHandle, without?: string) {
  return new Migrator({
    db: h.db,
    provider: {
      getMigrations: async () => Object.fromEntries(Object.entries(allMigrations(h.dialect)).filter(([name]) => name !== without)),
    },
    allowUnorderedMigrations: true,
  });
}

it('turns earlier hires into charges and lets a balance go below zero, keeping rows and cascades', async () => {
  database = await freshTestDatabase();
  handle = await openDatabase(database.url);
  const before = await migrator(handle, MINE).migrateToLatest();
  expect(before.error).toBeUndefined();
  const db = handle.db as unknown as Kysely<any>;
  const at = '2026-11-20T10:00:00.000Z';
  await db
    .insertInto('users')
    .values([
      { id: 'u1', email: 'u1@example.com', created_at: at, updated_at: at },
      { id: 'u2', email: 'u2@example.com', created_at: at, updated_at: at },
    ])
    .execute();
  const { id: orgId } = await db.insertInto('organizations').values({ name: 'O', owner_id: 'u1', created_at: at }).returning('id').executeTakeFirstOrThrow();
  const { id: personal } = await db.insertInto('billing_accounts').values({ user_id: 'u1', credits_micros: 40_000_000 }).returning('id').executeTakeFirstOrThrow();
  const { id: orgAccount } = await db.insertInto('billing_accounts').values({ organization_id: orgId, credits_micros: 0 }).returning('id').executeTakeFirstOrThrow();
  const { id: second } = await db.insertInto('billing_accounts').values({ user_id: 'u2', credits_micros: 5_000_000 }).returning('id').executeTakeFirstOrThrow();
  const assistant = { create_infra: 0, created_at: at, updated_at: at };
  const { id: mine } = await db
    .insertInto('assistants')
    .values({ ...assistant, user_id: 'u1' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: byU2 } = await db
    .insertInto('assistants')
    .values({ ...assistant, user_id: 'u2', organization_id: orgId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('credit_ledger')
    .values([
      { account_id: personal, delta_micros: 50_000_000, reason: 'signup', reference: null, created_at: at },
      { account_id: second, delta_micros: 5_000_000, reason: 'signup', reference: null, created_at: at },
      { account_id: personal, delta_micros: -10_000_000, reason: 'assistant_create', reference: `assistant:${mine}`, created_at: at },
      { account_id: orgAccount, delta_micros: -10_000_000, reason: 'assistant_create', reference: `assistant:${byU2}`, created_at: at },
      // An organization's hire whose assistant is gone: its hirer is unknown.
      { account_id: orgAccount, delta_micros: -10_000_000, reason: 'assistant_create', reference: 'assistant:999', created_at: at },
      { account_id: personal, delta_micros: -5_000_000, reason: 'transfer_out', reference: `organization:${orgId}`, created_at: at },
    ])
    .execute();

  const after = await migrator(handle).migrateToLatest();
  expect(after.error).toBeUndefined();
  expect(after.results?.map((r) => [r.migrationName, r.status])).toEqual([[MINE, 'Success']]);

  const rows = await db.selectFrom('credit_ledger').select(['reason', 'category', 'assistant_id', 'user_id', 'delta_micros']).orderBy('id').execute();
  expect(rows).toEqual([
    { reason: 'signup', category: null, assistant_id: null, user_id: null, delta_micros: 50_000_000 },
    { reason: 'signup', category: null, assistant_id: null, user_id: null, delta_micros: 5_000_000 },
    { reason: 'assistant_create', category: 'assistant_hire', assistant_id: mine, user_id: 'u1', delta_micros: -10_000_000 },
    { reason: 'assistant_create', category: 'assistant_hire', assistant_id: byU2, user_id: 'u2', delta_micros: -10_000_000 },
    { reason: 'assistant_create', category: 'assistant_hire', assistant_id: 999, user_id: null, delta_micros: -10_000_000 },
    { reason: 'transfer_out', category: null, assistant_id: null, user_id: null, delta_micros: -5_000_000 },
  ]);

  // The balances are as they were, and may now go below zero.
  const balances = await db.selectFrom('billing_accounts').select(['id', 'credits_micros']).orderBy('id').execute();
  expect(balances.map((b) => Number(b.credits_micros))).toEqual([40_000_000, 0, 5_000_000]);
  await db.updateTable('billing_accounts').set({ credits_micros: -1 }).where('id', '=', orgAccount).execute();
  // Still one account per person, and deleting a person still takes their account and its ledger.
  await expect(db.insertInto('billing_accounts').values({ user_id: 'u1', credits_micros: 0 }).execute()).rejects.toThrow();
  await db.deleteFrom('assistants').where('user_id', '=', 'u2').execute();
  await db.deleteFrom('users').where('id', '=', 'u2').execute();
  expect(await db.selectFrom('billing_accounts').select('id').where('id', '=', second).execute()).toEqual([]);
  const left = await db.selectFrom('credit_ledger').select('account_id').execute();
  expect(left).toHaveLength(5);
  expect(left.every((r) => r.account_id !== second)).toBe(true);
  // A ledger row still needs its account.
  await expect(db.insertInto('credit_ledger').values({ account_id: 123456, delta_micros: 1, reason: 'x', created_at: at }).execute()).rejects.toThrow();
});
