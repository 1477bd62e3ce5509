import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen. The answers of GET /v0/logs that a server keeps (logs/reads.ts) depend on a context's derived
// fields too (their values are answered under derived_entries), so a change to them notifies roster_logs
// like a change to the logs (2026-11-28-03-logs-notify, whose function this trigger calls).
export function derivedFieldsNotifyMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`create trigger log_derived_fields_logs_changed after insert or update or delete or truncate on log_derived_fields
        for each statement execute function roster_logs_changed()`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`drop trigger if exists log_derived_fields_logs_changed on log_derived_fields`.execute(db);
    },
  };
}
