import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen. Spend (logs-api.md §9): the credit ledger says what each charge was for, so a month's spend of
// an account, an assistant or a member is read from it. A charge is a ledger row with a `category`
// (POST /v0/credits/deduct, and hiring an assistant: 'assistant_hire'); other movements (sign-up, grants,
// transfers) have none. `assistant_id` and `user_id` keep no foreign key: the history outlives them.
// `detail` is JSON text. Deductions may take a balance below zero (the contract's `current_credits` may
// be negative), so billing_accounts loses its `credits_micros >= 0` check; the hire and the transfer keep
// refusing what the balance does not cover (credits/repository.ts chargeCredits).
const CHECK = / check \(credits_micros >= 0\)/i;

export function creditSpendMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('credit_ledger').addColumn('category', 'text').execute();
      await db.schema.alterTable('credit_ledger').addColumn('description', 'text').execute();
      await db.schema.alterTable('credit_ledger').addColumn('detail', 'text').execute();
      await db.schema.alterTable('credit_ledger').addColumn('assistant_id', 'integer').execute();
      await db.schema.alterTable('credit_ledger').addColumn('user_id', 'text').execute();
      // A month of one account is a range of created_at (ISO text sorts as time).
      await db.schema.createIndex('credit_ledger_account_time').on('credit_ledger').columns(['account_id', 'created_at']).execute();
      await db.schema.createIndex('credit_ledger_assistant').on('credit_ledger').columns(['assistant_id', 'created_at']).execute();
      // Hires made before: their reference is `assistant:<id>`; the hirer is the assistant's creator
      // while it exists, else the personal account's owner (an organization's deleted hire stays unattributed).
      await sql`update credit_ledger set category = 'assistant_hire', assistant_id = cast(substr(reference, 11) as integer)
        where reason = 'assistant_create' and reference like 'assistant:%'`.execute(db);
      await sql`update credit_ledger set user_id = coalesce(
          (select a.user_id from assistants a where a.id = credit_ledger.assistant_id),
          (select b.user_id from billing_accounts b where b.id = credit_ledger.account_id))
        where category = 'assistant_hire'`.execute(db);

      if (dialect === 'postgres') {
        // Named by PostgreSQL (billing_accounts_credits_micros_check): found by what it checks, not by that name.
        const { rows } = await sql<{ conname: string }>`
          select conname from pg_constraint
          where conrelid = 'billing_accounts'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%credits_micros >= 0%'`.execute(db);
        if (rows.length === 0) throw new Error('billing_accounts: no balance check found, not migrated');
        for (const { conname } of rows) await sql`alter table billing_accounts drop constraint ${sql.ref(conname)}`.execute(db);
        return;
      }
      // SQLite cannot drop a constraint: rebuild the table from its own definition without it, as in
      // 2026-11-24-01-creators-set-null (foreign keys off meanwhile so dropping the old table cascades nothing).
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.transaction().execute(async (tx) => {
          const { rows } = await sql<{ type: string; sql: string | null }>`
            select type, sql from sqlite_master where tbl_name = 'billing_accounts' order by type desc`.execute(tx);
          const create = rows.find((r) => r.type === 'table')?.sql;
          if (!create || !CHECK.test(create)) throw new Error('billing_accounts: unexpected definition, not migrated');
          const rebuilt = create.replace(CHECK, '').replace(/^create table "?[a-z_]+"?/i, 'create table "billing_accounts_rebuilt"');
          await sql.raw(rebuilt).execute(tx);
          await sql.raw('insert into "billing_accounts_rebuilt" select * from "billing_accounts"').execute(tx);
          await sql.raw('drop table "billing_accounts"').execute(tx);
          await sql.raw('alter table "billing_accounts_rebuilt" rename to "billing_accounts"').execute(tx);
          for (const other of rows.filter((r) => r.type !== 'table' && r.sql)) await sql.raw(other.sql!).execute(tx);
          const { rows: broken } = await sql`pragma foreign_key_check`.execute(tx);
          if (broken.length > 0) throw new Error(`foreign key check failed after the rebuild: ${JSON.stringify(broken[0])}`);
        });
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
    async down() {
      throw new Error('2026-11-27-04-credit-spend cannot be undone: balances may already be negative.');
    },
  };
}
