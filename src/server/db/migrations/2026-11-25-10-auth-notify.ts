import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';
import { AUTH_TABLE_NAMES } from '../write-epoch.ts';

// Frozen. On PostgreSQL, a change to what authentication reads notifies every server at commit
// (channel roster_auth), so that a key revoked or a member removed on one instance is refused on the
// others at once (db/change-listener.ts). SQLite sees other connections' commits through data_version.
export function authNotifyMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`create or replace function roster_auth_changed() returns trigger language plpgsql as $$
        begin perform pg_notify('roster_auth', ''); return null; end $$`.execute(db);
      for (const table of AUTH_TABLE_NAMES) {
        await sql`create trigger ${sql.raw(`${table}_auth_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function roster_auth_changed()`.execute(db);
      }
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const table of AUTH_TABLE_NAMES) await sql`drop trigger if exists ${sql.raw(`${table}_auth_changed`)} on ${sql.table(table)}`.execute(db);
      await sql`drop function if exists roster_auth_changed()`.execute(db);
    },
  };
}
