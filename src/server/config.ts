import path from 'node:path';
import type { S3Settings } from './storage/s3.ts';

/** Every setting of the server, read from the environment once. README lists each with its default. */
export interface Config {
  port: number;
  host: string;
  /** `sqlite:<file>`, `sqlite::memory:` or `postgres://…` */
  databaseUrl: string;
  dataDir: string;
  publicUrl: string;
  /** Built SPA to serve; null serves the API alone. */
  webDir: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  /** Run the outbox mail worker in this process (on for the server, off in tests). */
  mailWorker: boolean;
  s3: S3Settings | null;
  signupCredits: number;
  /**
   * Who may get an account by opening a sign-in link: anyone (`open`, the embedded demo's default), or
   * only people who already have one (`invite`: accounts come from invitations and operators; `closed`:
   * from operators only).
   */
  signup: SignupMode;
  assistantCost: number;
  assistantMailDomain: string;
  logLevel: string;
  corsOrigins: string[];
  seedDemo: boolean;
  trustProxy: boolean;
  /** Requests per window per API key, and per client IP for requests without a valid key; 0 = off. */
  rateLimit: { perKey: number; perIp: number; windowSeconds: number };
  /** Check every response against its schema (tests): a contract break becomes a loud 500. */
  validateResponses: boolean;
}

type Env = Record<string, string | undefined>;

export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

function signupMode(env: Env): SignupMode {
  const raw = env.ROSTER_SIGNUP || 'open';
  const mode = SIGNUP_MODES.find((m) => m === raw);
  if (!mode) throw new Error(`ROSTER_SIGNUP must be one of ${SIGNUP_MODES.join(', ')}, got "${raw}".`);
  return mode;
}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number ≥ ${min}, got "${raw}".`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}".`);
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env, 'PORT', 8080);
  const dataDir = path.resolve(env.ROSTER_DATA_DIR || 'data');
  const s3Endpoint = env.ROSTER_S3_ENDPOINT;
  const config: Config = {
    port,
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || `sqlite:${path.join(dataDir, 'roster.db')}`,
    dataDir,
    publicUrl: (env.ROSTER_PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    webDir: env.ROSTER_WEB_DIR === 'none' ? null : path.resolve(env.ROSTER_WEB_DIR || 'dist'),
    smtpUrl: env.ROSTER_SMTP_URL || null,
    mailFrom: env.ROSTER_MAIL_FROM || 'Roster <no-reply@roster.local>',
    mailWorker: bool(env, 'ROSTER_MAIL_WORKER', true),
    s3: s3Endpoint
      ? {
          endpoint: s3Endpoint,
          bucket: env.ROSTER_S3_BUCKET || 'roster',
          region: env.ROSTER_S3_REGION || 'us-east-1',
          accessKeyId: env.ROSTER_S3_ACCESS_KEY_ID || '',
          secretAccessKey: env.ROSTER_S3_SECRET_ACCESS_KEY || '',
          sessionToken: env.ROSTER_S3_SESSION_TOKEN || undefined,
          forcePathStyle: bool(env, 'ROSTER_S3_FORCE_PATH_STYLE', true),
        }
      : null,
    signupCredits: int(env, 'ROSTER_SIGNUP_CREDITS', 50),
    signup: signupMode(env),
    assistantCost: int(env, 'ROSTER_ASSISTANT_COST', 10),
    assistantMailDomain: env.ROSTER_ASSISTANT_MAIL_DOMAIN || 'assistants.roster.local',
    logLevel: env.ROSTER_LOG_LEVEL || 'info',
    corsOrigins: (env.ROSTER_CORS_ORIGINS || '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    seedDemo: bool(env, 'ROSTER_SEED_DEMO', true),
    trustProxy: bool(env, 'ROSTER_TRUST_PROXY', false),
    rateLimit: {
      perKey: int(env, 'ROSTER_RATE_LIMIT', 1200),
      perIp: int(env, 'ROSTER_RATE_LIMIT_ANON', 120),
      windowSeconds: int(env, 'ROSTER_RATE_LIMIT_WINDOW', 60, 1),
    },
    validateResponses: bool(env, 'ROSTER_VALIDATE_RESPONSES', false),
  };
  return { ...config, ...overrides };
}

/** A config for tests: in-memory database, no SPA, quiet logs. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    { ROSTER_DATA_DIR: overrides.dataDir ?? path.join(process.cwd(), 'data', 'test'), ROSTER_WEB_DIR: 'none' },
    {
      databaseUrl: 'sqlite::memory:',
      logLevel: 'silent',
      seedDemo: false,
      mailWorker: false,
      validateResponses: true,
      // Off unless a test is about rate limits.
      rateLimit: { perKey: 0, perIp: 0, windowSeconds: 60 },
      ...overrides,
    },
  );
}
