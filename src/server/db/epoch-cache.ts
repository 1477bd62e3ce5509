import type { Conn } from './connection.ts';
import type { WriteEpoch } from './write-epoch.ts';

/** Entries older than this are read again even without a sign of change: the bound if a notification is lost. */
export const EPOCH_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry<V> {
  value: V;
  stamp: number;
  at: number;
}

/**
 * Values read again and again from a few tables (what authentication reads on every request: a key's row, a
 * person's role in an organization; how many logs a filter keeps), kept while the epoch of those tables has
 * not moved and for at most EPOCH_CACHE_TTL_MS. A read that races a change is not kept: the stamp is taken
 * before the read and compared after it.
 */
export class EpochCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  constructor(
    private readonly epoch: WriteEpoch,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string, read: () => Promise<V>): Promise<V> {
    const stamp = this.epoch.stamp();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp && this.now() - hit.at < EPOCH_CACHE_TTL_MS) return hit.value;
    const value = await read();
    if (this.epoch.stamp() === stamp) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, stamp, at: this.now() });
    }
    return value;
  }
}

/** A cache per database for reads behind `epochOf(db)`, made on the database's first use: `cachePerDatabase(authEpochOf)(db).get(…)`. */
export function cachePerDatabase<V>(epochOf: (db: Conn) => WriteEpoch): (db: Conn) => EpochCache<V> {
  const caches = new WeakMap<Conn, EpochCache<V>>();
  return (db) => {
    let cache = caches.get(db);
    if (!cache) caches.set(db, (cache = new EpochCache<V>(epochOf(db))));
    return cache;
  };
}
