import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen. On PostgreSQL, a write to a context's logs (or to what deletes cascade from) notifies every server
// at commit (channel roster_logs), so that a count of logs one server keeps is dropped by all of them
// (logs/repository.ts countLogs, db/change-listener.ts). SQLite sees other connections' commits through
// data_version.
const TABLES = ['context_rows', 'contexts', 'context_log_members', 'projects', 'users', 'organizations'];

export function logsNotifyMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`create or replace function roster_logs_changed() returns trigger language plpgsql as $$
        begin perform pg_notify('roster_logs', ''); return null; end $$`.execute(db);
      for (const table of TABLES) {
        await sql`create trigger ${sql.raw(`${table}_logs_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function roster_logs_changed()`.execute(db);
      }
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const table of TABLES) await sql`drop trigger if exists ${sql.raw(`${table}_logs_changed`)} on ${sql.table(table)}`.execute(db);
      await sql`drop function if exists roster_logs_changed()`.execute(db);
    },
  };
}
