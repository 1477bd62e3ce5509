import type { Config } from './config.ts';
import type { Db, Dialect } from './db/connection.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { FileStorage } from './storage/storage.ts';
import type { VoiceProviders } from './voice/provider.ts';

/** What every route and service may use. Built once by buildApp; tests build it the same way. */
export interface Deps {
  config: Config;
  db: Db;
  dialect: Dialect;
  /** The clock; tests inject one to move time (invite expiry, rate windows). */
  now: () => Date;
  /** Per-key and per-address request limits (route.ts consumes them for every /v0 operation). */
  rateLimiter: RateLimiter;
  /** Uploaded files (photos, voice samples). */
  storage: FileStorage;
  /** The adapter behind each voice provider identifier. */
  voiceProviders: VoiceProviders;
}
