// Hand-written: @fastify/rate-limit counts in memory or Redis; this counts in the app's own database (PostgreSQL shared by instances).
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../deps.ts';
import type { MaybePromise } from '../db/epoch-cache.ts';
import { SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR, SIGN_IN_LINKS_PER_CLIENT_PER_HOUR } from '../../shared/sessions.ts';
import { tooManyRequests } from './errors.ts';

/** Counts hits in fixed windows; returns the count including this hit (at once when it is kept in memory). */
interface HitStore {
  hit(bucket: string, windowStart: number, windowMs: number): MaybePromise<number>;
}

/** One process (SQLite deployments): counters in memory per window length, old windows dropped as time moves on. */
class MemoryStore implements HitStore {
  private windows = new Map<number, { start: number; counts: Map<string, number> }>();
  hit(bucket: string, windowStart: number, windowMs: number): number {
    let window = this.windows.get(windowMs);
    if (!window || window.start !== windowStart) {
      window = { start: windowStart, counts: new Map() };
      this.windows.set(windowMs, window);
    }
    const count = (window.counts.get(bucket) ?? 0) + 1;
    window.counts.set(bucket, count);
    return count;
  }
}

/** A hit waiting for its place in the count. */
interface Waiter {
  resolve: (count: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Several processes on one PostgreSQL database: every hit is counted in the shared table (an atomic upsert)
 * before it is decided, so the instances share one budget exactly. The hits of a bucket that arrive while its
 * upsert is on the way are counted together by the next one, each at its own place in the count: under
 * concurrent use of one key (a client's workers), one statement for many requests instead of one each (with
 * 50 connections on one key, each request's upsert held cached reads at ~0.13 of the bare route).
 */
class SqlStore implements HitStore {
  private lastPrune = 0;
  /** Per window and bucket with an upsert on the way: the hits that arrived since. */
  private readonly waiting = new Map<string, Waiter[]>();
  constructor(private readonly deps: Deps) {}

  hit(bucket: string, windowStart: number, windowMs: number): Promise<number> {
    const key = `${windowStart}:${bucket}`;
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(key);
      if (waiting) return void waiting.push({ resolve, reject });
      this.waiting.set(key, []);
      void this.count(key, bucket, windowStart, windowMs, [{ resolve, reject }]);
    });
  }

  /** Counts `hits` in one upsert, then those that arrived meanwhile, until none is left. */
  private async count(key: string, bucket: string, windowStart: number, windowMs: number, hits: Waiter[]): Promise<void> {
    for (;;) {
      try {
        const total = await this.add(bucket, windowStart, windowMs, hits.length);
        hits.forEach((hit, i) => hit.resolve(total - hits.length + i + 1));
      } catch (error) {
        for (const hit of hits) hit.reject(error);
      }
      const next = this.waiting.get(key)!;
      if (next.length === 0) break;
      this.waiting.set(key, []);
      hits = next;
    }
    this.waiting.delete(key);
  }

  /** Adds `n` hits to the bucket's window; returns its count after them. */
  private async add(bucket: string, windowStart: number, windowMs: number, n: number): Promise<number> {
    const { db } = this.deps;
    const row = await db
      .insertInto('rate_limit_hits')
      .values({ bucket, window_start: windowStart, count: n })
      .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_limit_hits.count + excluded.count` }))
      .returning('count')
      .executeTakeFirstOrThrow();
    // Rows of every window length share the table: only what has aged out of the longest window goes.
    const now = this.deps.now().getTime();
    if (now - this.lastPrune >= windowMs) {
      this.lastPrune = now;
      await db
        .deleteFrom('rate_limit_hits')
        .where('window_start', '<', now - LONGEST_WINDOW_MS)
        .execute();
    }
    return Number(row.count);
  }
}

/**
 * What is counted: requests per API key, per session, and per client address without a valid key (each
 * limit from the configuration), and the sign-in links asked for, per recipient and per client address
 * (a mail each: fixed hourly quotas).
 */
export type RateLimitPolicy = 'key' | 'session' | 'ip' | 'sign-in-link-address' | 'sign-in-link-client';

interface PolicyRule {
  limit: number;
  windowSeconds: number;
  /** What the 429 says the limit is for. */
  what: string;
  /** Whether the answer carries the RateLimit headers (the request limits; not the mail quotas). */
  headers: boolean;
  /**
   * Whether `who` is kept as it is in the bucket name: a key's id or a session's hash reveal nothing, while
   * an address or an e-mail is hashed first (buckets never hold one, nor a raw key).
   */
  opaque: boolean;
}

const HOUR_SECONDS = 3600;
const LONGEST_WINDOW_MS = HOUR_SECONDS * 1000;

export interface RateLimiter {
  /** Counts one hit of `who` under a policy at `now`; sets the RateLimit headers, or throws 429 with Retry-After. */
  consume(policy: RateLimitPolicy, who: string, reply: FastifyReply, now?: Date): Promise<void>;
}

export function createRateLimiter(deps: Deps): RateLimiter {
  const { perKey, perIp, windowSeconds } = deps.config.rateLimit;
  const rules: Record<RateLimitPolicy, PolicyRule> = {
    key: { limit: perKey, windowSeconds, what: 'for this API key', headers: true, opaque: true },
    session: { limit: perKey, windowSeconds, what: 'for this session', headers: true, opaque: true },
    ip: { limit: perIp, windowSeconds, what: 'for requests without a valid API key from this address', headers: true, opaque: false },
    'sign-in-link-address': {
      limit: SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR,
      windowSeconds: HOUR_SECONDS,
      what: 'for sign-in links to this e-mail address',
      headers: false,
      opaque: false,
    },
    'sign-in-link-client': {
      limit: SIGN_IN_LINKS_PER_CLIENT_PER_HOUR,
      windowSeconds: HOUR_SECONDS,
      what: 'for sign-in links asked from this address',
      headers: false,
      opaque: false,
    },
  };
  // The same for every answer under a policy: built once.
  const policyHeaders = new Map(Object.entries(rules).map(([policy, rule]) => [policy, `"per-${policy}";q=${rule.limit};w=${rule.windowSeconds}`]));
  const store: HitStore = deps.dialect === 'postgres' ? new SqlStore(deps) : new MemoryStore();
  return {
    async consume(policy, who, reply, now = deps.now()) {
      const rule = rules[policy];
      if (rule.limit <= 0) return;
      const windowMs = rule.windowSeconds * 1000;
      const nowMs = now.getTime();
      const windowStart = Math.floor(nowMs / windowMs) * windowMs;
      const bucket = `${policy}:${rule.opaque ? who : createHash('sha256').update(who).digest('base64url').slice(0, 22)}`;
      const hit = store.hit(bucket, windowStart, windowMs);
      // In memory the count is there at once: no promise made and awaited for it.
      const count = typeof hit === 'number' ? hit : await hit;
      const reset = Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000));
      if (rule.headers) {
        reply.header('ratelimit-policy', policyHeaders.get(policy)!);
        reply.header('ratelimit', `"per-${policy}";r=${Math.max(0, rule.limit - count)};t=${reset}`);
      }
      if (count > rule.limit) {
        throw tooManyRequests(`Too many requests: the limit is ${rule.limit} per ${rule.windowSeconds} s ${rule.what}. Retry in ${reset} s.`, reset);
      }
    },
  };
}
