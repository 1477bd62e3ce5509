import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen. On PostgreSQL, a change to a balance (channel roster_accounts) or to a session (roster_sessions)
// notifies every server at commit, so that what one server keeps of them (a person's row and balance for
// GET /v0/user/basic-info, a session behind a cookie) is dropped by all of them (db/change-listener.ts).
// users and organizations already notify roster_auth, which the same caches listen to. SQLite sees other
// connections' commits through data_version.
const CHANNELS = [
  { table: 'billing_accounts', channel: 'roster_accounts' },
  { table: 'sessions', channel: 'roster_sessions' },
];

export function cacheNotifyMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const { table, channel } of CHANNELS) {
        await sql`create or replace function ${sql.raw(`${channel}_changed`)}() returns trigger language plpgsql as ${sql.lit(
          `begin perform pg_notify('${channel}', ''); return null; end`,
        )}`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function ${sql.raw(`${channel}_changed`)}()`.execute(db);
      }
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      for (const { table, channel } of CHANNELS) {
        await sql`drop trigger if exists ${sql.raw(`${table}_changed`)} on ${sql.table(table)}`.execute(db);
        await sql`drop function if exists ${sql.raw(`${channel}_changed`)}()`.execute(db);
      }
    },
  };
}
