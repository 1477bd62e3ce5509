import fs from 'node:fs';
import path from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, sql, SqliteDialect, type DatabaseConnection, type Transaction } from 'kysely';
import { EPOCH_CACHE_TTL_MS, SEEN_CHANGES_TTL_MS } from './epoch-cache.ts';
import { groupCommits } from './group-commit.ts';
import { TableStatistics } from './table-statistics.ts';
import { watchWrites, WriteEpoch, writesAccountTable, writesAuthTable, writesLogsTable, writesProjectTable, writesSessionTable } from './write-epoch.ts';
import type { Database } from './types.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or a transaction on it: repositories take this so callers decide the boundary. */
export type Conn = Kysely<Database>;

/** What the caches of a database watch (db/write-epoch.ts). */
export interface Epochs {
  /** Moves on every change to what authentication reads. */
  auth: WriteEpoch;
  /** Moves on every change to a session or a person's standing. */
  sessions: WriteEpoch;
  /** Moves on every change to a context's logs. */
  logs: WriteEpoch;
  /** Moves on every change to a person's row or a balance. */
  accounts: WriteEpoch;
  /** Moves on every change to a project. */
  projects: WriteEpoch;
}

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  epochs: Epochs;
  close(): Promise<void>;
}

const epochs = new WeakMap<Conn, Epochs>();
const statistics = new WeakMap<Conn, TableStatistics>();

/** Runs a read at once and answers its rows, or null when it must wait its turn through Kysely. */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | null;
const directReads = new WeakMap<Conn, DirectRead>();

/**
 * SQLite only: the hot path's fixed reads (db/prepared.ts) run on the connection directly instead of through
 * Kysely's executor, whose connection lock, plugins and promise hops cost more than the read itself. Safe
 * only outside a transaction: Kysely holds SQLite's one connection for a whole transaction (a group of them:
 * db/group-commit.ts), and a read run beside it would see that transaction's uncommitted rows, so then the
 * answer is null and the read queues as before. Between transactions, a synchronous read is simply ordered
 * before whatever waits for the lock.
 */
export function directReadOf(db: Conn): DirectRead | undefined {
  return directReads.get(db);
}

/** PostgreSQL: the ANALYZE the server runs after large writes to a context's logs (db/table-statistics.ts). */
export function tableStatisticsOf(db: Conn): TableStatistics | undefined {
  return statistics.get(db);
}

/** The auth epoch of a database opened by openDatabase (the test harness opens it the same way). */
export function authEpochOf(db: Conn): WriteEpoch {
  return epochsOf(db).auth;
}

/** The epoch of the sessions of a database opened by openDatabase. */
export function sessionsEpochOf(db: Conn): WriteEpoch {
  return epochsOf(db).sessions;
}

/** The epoch of people's rows and balances of a database opened by openDatabase. */
export function accountsEpochOf(db: Conn): WriteEpoch {
  return epochsOf(db).accounts;
}

/** The epoch of the projects of a database opened by openDatabase. */
export function projectsEpochOf(db: Conn): WriteEpoch {
  return epochsOf(db).projects;
}

function epochsOf(db: Conn): Epochs {
  const found = epochs.get(db);
  if (!found) throw new Error('This database was not opened by openDatabase');
  return found;
}

/** The epoch of a context's logs (null inside a transaction): what may cache a count of logs. */
export function logsEpochOf(db: Conn): WriteEpoch | null {
  return epochs.get(db)?.logs ?? null;
}

/**
 * The epochs of a new database handle, what they keep trusted for `ttlMs` (db/epoch-cache.ts); `external`
 * tells of other processes' commits (SQLite).
 */
function newEpochs(ttlMs: number, external?: () => number): Epochs {
  return {
    auth: new WriteEpoch(writesAuthTable, external, ttlMs),
    sessions: new WriteEpoch(writesSessionTable, external, ttlMs),
    logs: new WriteEpoch(writesLogsTable, external, ttlMs),
    accounts: new WriteEpoch(writesAccountTable, external, ttlMs),
    projects: new WriteEpoch(writesProjectTable, external, ttlMs),
  };
}

function opened(db: Db, dialect: Dialect, dbEpochs: Epochs, stats?: TableStatistics): DbHandle {
  epochs.set(db, dbEpochs);
  if (stats) statistics.set(db, stats);
  const close = () => {
    stats?.close();
    return db.destroy();
  };
  return { db, dialect, epochs: dbEpochs, close };
}

/** How stale another process's commit may be when a cache asks whether anything changed (SQLite). */
export const DATA_VERSION_EVERY_MS = 10;
/** SQLite's page cache per connection, in KiB (32 MiB). */
const SQLITE_CACHE_KIB = 32_768;
/** WAL pages between automatic checkpoints (SQLite's default is 1 000). */
const SQLITE_CHECKPOINT_PAGES = 10_000;

export async function openDatabase(url: string): Promise<DbHandle> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pg = (await import('pg')).default;
    // int8 (counts, credits in micro-units) as JS numbers: every value we store fits in 2^53.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    // No JIT: PostgreSQL compiles a query whose estimated cost passes jit_above_cost, which a filter over a
    // context's logs does before autovacuum has analyzed a fresh import (rows unknown): ~10 ms of compilation
    // on every read, 80 ms with inlining, for scans that take 3–60 ms. The server's queries are short.
    const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c jit=off' });
    // An idle connection dropped by the server (restart, failover) must not take the process down;
    // the pool replaces it on the next query.
    pool.on('error', () => {});
    // Other servers' writes arrive as notifications (db/change-listener.ts): the short bound covers a lost one.
    const dbEpochs = newEpochs(EPOCH_CACHE_TTL_MS);
    const stats = new TableStatistics(() => db);
    const onCreateConnection = async (c: DatabaseConnection) => {
      watchWrites(c, Object.values(dbEpochs));
      stats.watch(c);
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, onCreateConnection }) });
    return opened(db, 'postgres', dbEpochs, stats);
  }
  if (!url.startsWith('sqlite:')) {
    throw new Error('DATABASE_URL must start with sqlite: or postgres://');
  }
  const file = url.slice('sqlite:'.length);
  const { default: SQLite } = await import('better-sqlite3');
  const created = file !== ':memory:' && !fs.existsSync(path.resolve(file));
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const sqlite = new SQLite(file === ':memory:' ? ':memory:' : path.resolve(file));
  // A new database (and its WAL files, which SQLite creates with the database's mode) is the server's only.
  if (created) fs.chmodSync(path.resolve(file), 0o600);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // The page cache holds a context of 100 000 logs (~24 MB with their jsonb copies): with the 16 MB default a
  // filtered scan read most pages from the OS again, ~15 of the ~50 ms it took. Pages are allocated as used.
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  // A checkpoint copies the WAL's pages into the database and syncs it. Every 1 000 pages (the default), a
  // stream of small writes (POST /v0/project changes ~8 pages) paid ~100–170 µs of checkpoint per
  // transaction, writing the same hot pages and syncing again and again; every 10 000 pages (a WAL of up to
  // ~40 MB) it is ~25 µs. Readers find recent pages through the WAL index either way.
  sqlite.pragma(`wal_autocheckpoint = ${SQLITE_CHECKPOINT_PAGES}`);
  cachePreparedStatements(sqlite);
  // data_version moves when another connection (a CLI command, another process) commits to the file. It is
  // one statement prepared once (better-sqlite3's pragma() prepares anew each call, which profiled at ~30 µs
  // of the ~220 µs a cached GET /v0/user/basic-info took), but reading it is a read transaction: two fcntl
  // locks on the -shm file, 6 µs alone on this machine's VM, more under load. Under load every request asked
  // for it; it is read at most once every 10 ms, so another process's commit is seen within 10 ms (this
  // process's own writes move the epochs at once, as before). Once a millisecond it was still 0.43 fcntl calls
  // a request under the bench's load (strace -c), ~2 µs of a cached GET /v0/user/basic-info in a profile.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let version = 0;
  let versionReadAt = Number.NEGATIVE_INFINITY;
  const external = () => {
    const now = performance.now();
    if (now - versionReadAt >= DATA_VERSION_EVERY_MS) {
      version = dataVersion.get() as number;
      versionReadAt = now;
    }
    return version;
  };
  // Every change is seen directly (this process's statements, data_version): the bound only nets a missed write.
  const dbEpochs = newEpochs(SEEN_CHANGES_TTL_MS, external);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: sqlite,
      onCreateConnection: async (c) => {
        beginImmediate(c);
        watchWrites(c, Object.values(dbEpochs));
      },
    }),
  });
  groupCommits(db);
  directReads.set(db, (text, parameters) => {
    if (sqlite.inTransaction) return null;
    const statement = sqlite.prepare(text);
    // A write (touch-key) goes through Kysely, where the write epochs see it.
    return statement.reader ? (statement.all(parameters) as unknown[]) : null;
  });
  return opened(db, 'sqlite', dbEpochs);
}

/**
 * Every transaction takes SQLite's write lock when it begins (`BEGIN IMMEDIATE`), waiting up to
 * busy_timeout for it. Kysely begins deferred: a transaction that reads and then writes (does this
 * address have an account? then insert one) fails at once with "database is locked" when another
 * process (the CLI, a second server on the file) committed in between, because a reader's snapshot
 * cannot become a writer's; the busy timeout never applies to that case. Seen in e2e: the CLI's
 * `user create` failing while the server wrote.
 */
function beginImmediate(connection: DatabaseConnection): void {
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = <R>(query: CompiledQuery) => execute<R>(/^\s*begin\s*$/i.test(query.sql) ? CompiledQuery.raw('begin immediate') : query);
}

/**
 * Kysely prepares every query anew; on SQLite that compile step was the largest cost of a request
 * (profiled: ~40% of CPU on GET /v0/user/basic-info). Statements are reused by SQL text instead.
 * Safe because better-sqlite3 runs each statement to completion synchronously.
 */
function cachePreparedStatements(sqlite: import('better-sqlite3').Database, limit = 1000): void {
  const cache = new Map<string, import('better-sqlite3').Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement) {
      // Move to the back: the map's first key is the least recently used.
      cache.delete(source);
    } else {
      statement = prepare(source);
      if (cache.size >= limit) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, statement);
    return statement;
  }) as typeof sqlite.prepare;
}

/** A round trip to the database (the health check); throws when it cannot answer. */
export async function pingDatabase(db: Conn): Promise<void> {
  await sql`select 1`.execute(db);
}
