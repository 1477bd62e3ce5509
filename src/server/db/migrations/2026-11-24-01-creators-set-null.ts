import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen. Resources in an organization belong to it: deleting the member who created a project or a
// custom endpoint keeps it (creator → NULL, shown as "deleted user"). Personal ones (organization_id
// NULL) are deleted by the account deletion itself, explicitly, in its transaction.
const TABLES = ['projects', 'custom_endpoints'] as const;

const CASCADE = /"user_id" text not null references "users" \("id"\) on delete cascade/i;

export function creatorsSetNullMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        for (const table of TABLES) {
          await sql`alter table ${sql.table(table)} alter column user_id drop not null`.execute(db);
          await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(`${table}_user_id_fkey`)}`.execute(db);
          await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_user_id_fkey`)}
            foreign key (user_id) references users (id) on delete set null`.execute(db);
        }
        return;
      }
      // SQLite cannot alter a constraint: rebuild each table from its own definition with the one clause
      // changed (sqlite.org/lang_altertable.html, "making other kinds of table schema changes"). Foreign
      // keys are off meanwhile so dropping the old table cascades nothing; SQLite migrations do not run
      // in a transaction, and the pragma is a no-op inside one.
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.transaction().execute(async (tx) => {
          for (const table of TABLES) {
            const { rows } = await sql<{ type: string; sql: string | null }>`
              select type, sql from sqlite_master where tbl_name = ${table} order by type desc`.execute(tx);
            const create = rows.find((r) => r.type === 'table')?.sql;
            if (!create || !CASCADE.test(create)) throw new Error(`${table}: unexpected definition, not migrated`);
            const rebuilt = create
              .replace(CASCADE, '"user_id" text references "users" ("id") on delete set null')
              .replace(/^create table "?[a-z_]+"?/i, `create table "${table}_rebuilt"`);
            await sql.raw(rebuilt).execute(tx);
            await sql.raw(`insert into "${table}_rebuilt" select * from "${table}"`).execute(tx);
            await sql.raw(`drop table "${table}"`).execute(tx);
            await sql.raw(`alter table "${table}_rebuilt" rename to "${table}"`).execute(tx);
            for (const index of rows.filter((r) => r.type === 'index' && r.sql)) await sql.raw(index.sql!).execute(tx);
          }
          const { rows: broken } = await sql`pragma foreign_key_check`.execute(tx);
          if (broken.length > 0) throw new Error(`foreign key check failed after the rebuild: ${JSON.stringify(broken[0])}`);
        });
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
    async down() {
      throw new Error('2026-11-24-01-creators-set-null cannot be undone: creators may already be NULL.');
    },
  };
}
