import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen. SQLite's JSON functions parse a log's text entries again in every query that reads a field (a
// parse per log per query; with the parse cache, once per log): ~45 of the ~75 ms a filtered read of 100 000
// logs took. SQLite's binary JSON (jsonb, 3.45+) is read without parsing, so filters, sorts and metrics read
// a jsonb copy, as on PostgreSQL (2026-11-28-02; logs/repository.ts rowEntries). SQLite cannot add a stored
// generated column to an existing table, so triggers keep the copy: every write of `entries`, whichever code
// path makes it. The text stays the source (it is what reads answer, in the order the keys were written).
export function logsJsonbSqliteMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await sql`alter table context_rows add column entries_jsonb blob`.execute(db);
      await sql`update context_rows set entries_jsonb = jsonb(entries)`.execute(db);
      await sql`create trigger context_rows_jsonb_insert after insert on context_rows
        begin update context_rows set entries_jsonb = jsonb(new.entries) where id = new.id; end`.execute(db);
      await sql`create trigger context_rows_jsonb_update after update of entries on context_rows
        begin update context_rows set entries_jsonb = jsonb(new.entries) where id = new.id; end`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await sql`drop trigger if exists context_rows_jsonb_insert`.execute(db);
      await sql`drop trigger if exists context_rows_jsonb_update`.execute(db);
      await sql`alter table context_rows drop column entries_jsonb`.execute(db);
    },
  };
}
