import type { CompiledQuery, DatabaseConnection } from 'kysely';

// What authentication may cache (a key's principal, a person's role in an organization) is read from these
// tables. Every write to them, by any code path, moves this database handle's epoch on; a cached entry is
// used only while the epoch it was read at is still current (auth/auth-cache.ts).
const AUTH_TABLES = ['api_keys', 'memberships', 'organizations', 'users'];
const WRITE_TO_AUTH_TABLE = new RegExp(`^\\s*(?:update|delete\\s+from|insert\\s+into)\\s+"?(?:${AUTH_TABLES.join('|')})"?[\\s(]`, 'i');

/** Whether a statement writes one of the tables authentication reads (exported for its test). */
export const writesAuthTable = (sql: string): boolean => WRITE_TO_AUTH_TABLE.test(sql);

/**
 * Changes to who may do what, as one number. In this process the statement that writes moves it (every
 * query goes through `watch`); another process is seen through `external`: SQLite's data_version (moves
 * when another connection commits to the file) or, on PostgreSQL, the notifications the auth tables'
 * triggers send at commit (see auth/auth-listener.ts), counted into `notified`.
 */
export class AuthEpoch {
  private local = 0;
  notified = 0;
  constructor(private readonly external: () => number = () => 0) {}

  /** The current stamp; equal stamps mean nothing authentication reads has changed in between. */
  stamp(): string {
    return `${this.local}:${this.notified}:${this.external()}`;
  }

  bump(): void {
    this.local++;
  }

  /**
   * Wraps a connection so that its writes to the auth tables bump the epoch once they have run, and again
   * when their transaction ends: a read on another connection between the write and the commit still saw
   * the old row, and what it cached must not outlive the commit.
   */
  watch(connection: DatabaseConnection): void {
    const execute = connection.executeQuery.bind(connection);
    let wroteInTransaction = false;
    connection.executeQuery = async <R>(query: CompiledQuery) => {
      const result = await execute<R>(query);
      if (writesAuthTable(query.sql)) {
        this.bump();
        wroteInTransaction = true;
      } else if (wroteInTransaction && /^\s*(commit|rollback)\b/i.test(query.sql)) {
        this.bump();
        wroteInTransaction = false;
      }
      return result;
    };
  }
}

export const AUTH_TABLE_NAMES: readonly string[] = AUTH_TABLES;
