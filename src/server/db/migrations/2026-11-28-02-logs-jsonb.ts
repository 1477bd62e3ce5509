import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

// Frozen. On PostgreSQL, a log's entries are kept as text (jsonb would reorder their keys, and reads answer
// entries in the order they were written) and every filter, sort and metric read them as
// `cast(entries as jsonb)`: parsed again for each field the query names, eight times a log for
// `score > 0.5 and 'x' in tag`. A generated jsonb copy is parsed once, when the log is written; the logs API
// reads it instead (logs/repository.ts rowEntries). SQLite's JSON functions read the text itself (with a
// parse cache), so it has no such column.
export function logsJsonbMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`alter table context_rows add column entries_jsonb jsonb generated always as (cast(entries as jsonb)) stored`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`alter table context_rows drop column entries_jsonb`.execute(db);
    },
  };
}
