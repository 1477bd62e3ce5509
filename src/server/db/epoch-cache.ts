import type { Conn } from './connection.ts';
import type { WriteEpoch } from './write-epoch.ts';

/**
 * Entries older than this are read again even without a sign of change: the bound if a notification is lost
 * (PostgreSQL, where another server's commits are told by notification; db/change-listener.ts).
 */
export const EPOCH_CACHE_TTL_MS = 5_000;
/**
 * The bound where every change is seen directly (SQLite: each statement of this process through watchWrites,
 * another process's commits by data_version): there it only nets a write the watch would miss. Each time an
 * entry runs out its read is made again, and at 5 s the kept logs page's (tens of ms of SQLite that every
 * connection's next request waits for) was the p99 of the bench's logs row (38–44 ms; 13.7 with no bound).
 */
export const SEEN_CHANGES_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** A value there at once (a kept one: no promise made for it) or a read's promise; callers await either. */
export type MaybePromise<V> = V | Promise<V>;

interface Entry<V> {
  value: V;
  stamp: number;
  at: number;
}

/**
 * Values read again and again from a few tables (what authentication reads on every request: a key's row, a
 * person's role in an organization; how many logs a filter keeps), kept while the epoch of those tables has
 * not moved and for at most the epoch's `ttlMs`. A read that races a change is not kept: the stamp is taken
 * before the read and compared after it. Callers that miss while the same key is being read at the same
 * stamp wait for that read instead of starting their own (50 clients asking for a 20 ms page when it expires
 * would otherwise run it 50 times).
 */
export class EpochCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly reading = new Map<string, { stamp: number; value: Promise<V> }>();
  constructor(
    private readonly epoch: WriteEpoch,
    private readonly now: () => number = Date.now,
    /** The oldest entry goes to make room beyond this many. */
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  /**
   * The value kept under `key`, at once (no promise: what every authenticated request reads), or `read`'s
   * (kept unless `keep` says otherwise).
   */
  get(key: string, read: () => Promise<V>, keep?: (value: V) => boolean): MaybePromise<V> {
    const stamp = this.epoch.stamp();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp && this.now() - hit.at < this.epoch.ttlMs) return hit.value;
    const pending = this.reading.get(key);
    if (pending && pending.stamp === stamp) return pending.value;
    return this.readAndKeep(key, stamp, read, keep);
  }

  private async readAndKeep(key: string, stamp: number, read: () => Promise<V>, keep?: (value: V) => boolean): Promise<V> {
    const reading = read();
    this.reading.set(key, { stamp, value: reading });
    try {
      const value = await reading;
      if (this.epoch.stamp() === stamp && (!keep || keep(value))) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
        this.entries.set(key, { value, stamp, at: this.now() });
      }
      return value;
    } finally {
      if (this.reading.get(key)?.value === reading) this.reading.delete(key);
    }
  }
}

/** A cache per database for reads behind `epochOf(db)`, made on the database's first use: `cachePerDatabase(authEpochOf)(db).get(…)`. */
export function cachePerDatabase<V>(epochOf: (db: Conn) => WriteEpoch, maxEntries?: number): (db: Conn) => EpochCache<V> {
  const caches = new WeakMap<Conn, EpochCache<V>>();
  return (db) => {
    let cache = caches.get(db);
    if (!cache) caches.set(db, (cache = new EpochCache<V>(epochOf(db), Date.now, maxEntries)));
    return cache;
  };
}
