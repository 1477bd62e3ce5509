// Hand-written: @fastify/rate-limit counts in memory or Redis; this counts in the app's own database (PostgreSQL shared by instances).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../deps.ts';
import { tooManyRequests } from './errors.ts';

/** Counts hits in fixed windows; returns the count including this hit. */
interface HitStore {
  hit(bucket: string, windowStart: number): Promise<number>;
}

/** One process (SQLite deployments): counters in memory, old windows dropped as time moves on. */
class MemoryStore implements HitStore {
  private windowStart = 0;
  private counts = new Map<string, number>();
  async hit(bucket: string, windowStart: number): Promise<number> {
    if (windowStart !== this.windowStart) {
      this.windowStart = windowStart;
      this.counts.clear();
    }
    const count = (this.counts.get(bucket) ?? 0) + 1;
    this.counts.set(bucket, count);
    return count;
  }
}

/** Several processes on one PostgreSQL database: one atomic upsert per hit, shared by all of them. */
class SqlStore implements HitStore {
  private lastPrune = 0;
  constructor(private readonly deps: Deps) {}
  async hit(bucket: string, windowStart: number): Promise<number> {
    const { db } = this.deps;
    const row = await db
      .insertInto('rate_limit_hits')
      .values({ bucket, window_start: windowStart, count: 1 })
      .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_limit_hits.count + 1` }))
      .returning('count')
      .executeTakeFirstOrThrow();
    if (windowStart !== this.lastPrune) {
      this.lastPrune = windowStart;
      await db.deleteFrom('rate_limit_hits').where('window_start', '<', windowStart).execute();
    }
    return Number(row.count);
  }
}

export interface RateLimiter {
  /** Counts one request of `who`; sets the RateLimit headers, or throws 429 with Retry-After. */
  consume(kind: 'key' | 'ip', who: string, reply: FastifyReply): Promise<void>;
}

export function createRateLimiter(deps: Deps): RateLimiter {
  const { perKey, perIp, windowSeconds } = deps.config.rateLimit;
  const store: HitStore = deps.dialect === 'postgres' ? new SqlStore(deps) : new MemoryStore();
  const windowMs = windowSeconds * 1000;
  return {
    async consume(kind, who, reply) {
      const limit = kind === 'key' ? perKey : perIp;
      if (limit <= 0) return;
      const now = deps.now().getTime();
      const windowStart = Math.floor(now / windowMs) * windowMs;
      // Buckets never hold a raw key or address.
      const bucket = `${kind}:${createHash('sha256').update(who).digest('base64url').slice(0, 22)}`;
      const count = await store.hit(bucket, windowStart);
      const reset = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      const policy = kind === 'key' ? 'per-key' : 'per-ip';
      reply.header('RateLimit-Policy', `"${policy}";q=${limit};w=${windowSeconds}`);
      reply.header('RateLimit', `"${policy}";r=${Math.max(0, limit - count)};t=${reset}`);
      if (count > limit) {
        throw tooManyRequests(
          `Too many requests: the limit is ${limit} per ${windowSeconds} s ${kind === 'key' ? 'for this API key' : 'for requests without a valid API key from this address'}. Retry in ${reset} s.`,
          reset,
        );
      }
    },
  };
}
