import { sql, type CompiledQuery, type DatabaseConnection } from 'kysely';
import type { Conn } from './connection.ts';

// PostgreSQL plans a read from its statistics of a table, which autovacuum gathers again only about a
// minute after a large write (its launcher wakes once a minute). Right after an import of 100 000 logs it
// had none: it estimated ~1 000 rows in the context, and a newest-first page of a filter read all of them
// (a bitmap scan and a sort, ~110 ms) instead of walking the index backwards (2 ms). So once a thousand
// rows of context_rows have changed, the server gathers them itself, a moment after the last such commit
// (ANALYZE samples 30 000 rows: tens of milliseconds, off the request path, once per burst of writes).
// A client that keeps writing (one log per call, a few hundred a second) must not postpone it for ever:
// it runs at the latest MAX_WAIT_MS after the burst's first large change.

const CHANGES_ROWS = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?context_rows"?[\s(]/i;
/** Rows changed since the last ANALYZE that make another one worth it. */
const BULK_ROWS = 1000;
const DELAY_MS = 1000;
const MAX_WAIT_MS = 3000;

export class TableStatistics {
  private changed = 0;
  private timer: NodeJS.Timeout | null = null;
  /** When the pending ANALYZE was first asked for (Date.now()). */
  private burstStart = 0;
  private closed = false;
  /** How many times ANALYZE ran (for its test). */
  analyzed = 0;

  /** `db`: the database ANALYZE runs on (a function: the connections are watched before it exists). */
  constructor(private readonly db: () => Conn) {}

  /** Counts the rows each statement on `connection` changes in context_rows, as of their commit. */
  watch(connection: DatabaseConnection): void {
    const execute = connection.executeQuery.bind(connection);
    let inTransaction = false;
    let pending = 0;
    connection.executeQuery = async <R>(query: CompiledQuery) => {
      const result = await execute<R>(query);
      if (CHANGES_ROWS.test(query.sql)) {
        const rows = Number(result.numAffectedRows ?? 0n);
        if (inTransaction) pending += rows;
        else this.committed(rows);
      } else if (/^\s*begin\b/i.test(query.sql)) {
        inTransaction = true;
        pending = 0;
      } else if (/^\s*(commit|rollback)\b/i.test(query.sql)) {
        if (/^\s*commit\b/i.test(query.sql)) this.committed(pending);
        inTransaction = false;
        pending = 0;
      }
      return result;
    };
  }

  private committed(rows: number): void {
    this.changed += rows;
    if (this.changed < BULK_ROWS || this.closed) return;
    if (this.timer) {
      // Writes that keep coming move it on, up to MAX_WAIT_MS after the burst began.
      if (Date.now() - this.burstStart >= MAX_WAIT_MS) return;
      clearTimeout(this.timer);
    } else this.burstStart = Date.now();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.changed = 0;
      sql`analyze context_rows`
        .execute(this.db())
        .then(() => this.analyzed++)
        // Statistics are an optimisation: a failure (the database shutting down) leaves autovacuum to it.
        .catch(() => {});
    }, DELAY_MS);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
