import type { CompiledQuery, DatabaseConnection } from 'kysely';
import { EPOCH_CACHE_TTL_MS } from './epoch-cache.ts';

// What a cache keeps (db/epoch-cache.ts) is read from a few tables. Every write to them, by any code path,
// moves a database handle's epoch for those tables on; a cached entry is used only while the epoch it was
// read at is still current. Five sets of tables are watched: what authentication reads (a key's principal,
// a person's role in an organization), a session behind a cookie (kept apart: every session's renewal, once
// a minute, would drop every cached key), a context's logs (their counts and kept answers: logs/kept-reads.ts),
// a person's row with their balance (GET /v0/user/basic-info, which the dashboard asks on every page) and the
// projects (GET /v0/projects, the clients' most frequent call).
const AUTH_TABLES = ['api_keys', 'memberships', 'organizations', 'users'];
const SESSION_TABLES = ['sessions', 'users'];
// organizations: its deletes cascade to billing accounts.
const ACCOUNT_TABLES = ['users', 'billing_accounts', 'organizations'];
// A workspace's projects also go when it is deleted (by cascade), but its id is never given again and its
// keys and memberships go with it: nothing can ask for the list it had.
const PROJECT_TABLES = ['projects'];
// With the tables whose deletes cascade to a context's rows (a project, its owner), so that a context id
// reused after such a delete never finds an old count; and its derived fields, which shape a kept answer.
const LOGS_TABLES = ['context_rows', 'contexts', 'context_log_members', 'log_derived_fields', 'projects', 'users', 'organizations'];

const writeTo = (tables: readonly string[]) => new RegExp(`^\\s*(?:update|delete\\s+from|insert\\s+into)\\s+"?(?:${tables.join('|')})"?[\\s(]`, 'i');
const WRITE_TO_AUTH_TABLE = writeTo(AUTH_TABLES);
const WRITE_TO_LOGS_TABLE = writeTo(LOGS_TABLES);
const WRITE_TO_SESSION_TABLE = writeTo(SESSION_TABLES);
const WRITE_TO_ACCOUNT_TABLE = writeTo(ACCOUNT_TABLES);
const WRITE_TO_PROJECT_TABLE = writeTo(PROJECT_TABLES);

/** Whether a statement writes one of the tables authentication reads (exported for its test). */
export const writesAuthTable = (sql: string): boolean => WRITE_TO_AUTH_TABLE.test(sql);
/** Whether a statement writes one of the tables a context's logs are counted from. */
export const writesLogsTable = (sql: string): boolean => WRITE_TO_LOGS_TABLE.test(sql);
/** Whether a statement writes a session or a person's row (their standing). */
export const writesSessionTable = (sql: string): boolean => WRITE_TO_SESSION_TABLE.test(sql);
/** Whether a statement writes a person's row or a balance. */
export const writesAccountTable = (sql: string): boolean => WRITE_TO_ACCOUNT_TABLE.test(sql);
/** Whether a statement writes a project. */
export const writesProjectTable = (sql: string): boolean => WRITE_TO_PROJECT_TABLE.test(sql);

/**
 * Changes to a set of tables, as one number. In this process the statement that writes moves it (every
 * query goes through `watchWrites`). Another process is seen through `external`, SQLite's data_version (it
 * moves when another connection commits to the file), or on PostgreSQL through the notifications the
 * watched tables' triggers send at commit (db/change-listener.ts bumps the epoch for each).
 */
export class WriteEpoch {
  private version = 0;
  private lastExternal = 0;
  constructor(
    /** Whether a statement writes one of the watched tables. */
    readonly writes: (sql: string) => boolean,
    private readonly external: () => number = () => 0,
    /** How long what is kept under this epoch may go without being read again (db/epoch-cache.ts). */
    readonly ttlMs: number = EPOCH_CACHE_TTL_MS,
  ) {}

  /** The current stamp; equal stamps mean none of the watched tables has changed in between. */
  stamp(): number {
    const external = this.external();
    if (external !== this.lastExternal) {
      this.lastExternal = external;
      this.version++;
    }
    return this.version;
  }

  /**
   * The watched tables changed, or may have: a statement of this process wrote to them (or its transaction
   * ended), another server notified a commit, or its notifications were lost.
   */
  bump(): void {
    this.version++;
  }
}

/**
 * Wraps a connection so that its writes to each epoch's tables bump that epoch once they have run, and again
 * when their transaction ends: a read on another connection between the write and the commit still saw the
 * old row, and what it cached must not outlive the commit. One wrapper for all of them (one promise hop per
 * statement, not one per epoch).
 */
export function watchWrites(connection: DatabaseConnection, epochs: readonly WriteEpoch[]): void {
  const execute = connection.executeQuery.bind(connection);
  const wroteInTransaction = epochs.map(() => false);
  connection.executeQuery = async <R>(query: CompiledQuery) => {
    const result = await execute<R>(query);
    const ends = /^\s*(commit|rollback)\b/i.test(query.sql);
    epochs.forEach((epoch, i) => {
      if (epoch.writes(query.sql)) {
        epoch.bump();
        wroteInTransaction[i] = true;
      } else if (ends && wroteInTransaction[i]) {
        epoch.bump();
        wroteInTransaction[i] = false;
      }
    });
    return result;
  };
}

export const AUTH_TABLE_NAMES: readonly string[] = AUTH_TABLES;
