import { logsEpochOf, type Conn } from '../../db/connection.ts';
import { cachePerDatabase, type MaybePromise } from '../../db/epoch-cache.ts';

/**
 * Reads of the logs kept while nothing writes the tables they are read from (db/write-epoch.ts, LOGS_TABLES):
 * this process's writes drop them at once, another process's commit within DATA_VERSION_EVERY_MS on SQLite or
 * at its notification on PostgreSQL (channel roster_logs), and nothing is kept past the epoch's bound
 * (db/epoch-cache.ts). Inside a transaction nothing is kept. Keyed by `key` as given: a caller whose
 * keys can be long (a query's SQL and parameters) passes their SHA-256.
 */
export function keptWhileLogsUnchanged<V>(options: { maxEntries?: number; keep?: (value: V) => boolean } = {}) {
  const cacheOf = cachePerDatabase<V>((db) => logsEpochOf(db)!, options.maxEntries);
  return (db: Conn, key: string, read: () => Promise<V>): MaybePromise<V> => (logsEpochOf(db) ? cacheOf(db).get(key, read, options.keep) : read());
}
