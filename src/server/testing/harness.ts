import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig, type Config } from '../config.ts';
import { toMicros } from '../modules/credits/repository.ts';
import { insertMembership } from '../modules/organizations/repository.ts';
import { createOrganization } from '../modules/organizations/service.ts';
import { createAccount } from '../modules/account/service.ts';
import { markEmailVerified } from '../modules/sessions/repository.ts';
import { operatorSignInLink } from '../modules/sessions/service.ts';
import { freshTestDatabase } from './test-database.ts';

/** A clock tests can move: starts at the real time. */
export class TestClock {
  current = new Date();
  now = () => new Date(this.current);
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestUser {
  userId: string;
  email: string;
  apiKey: string;
}

const open: { app: FastifyInstance; drop: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(
    open.splice(0).map(async ({ app, drop }) => {
      await app.close();
      await drop();
    }),
  );
});

let counter = 0;

/**
 * A fresh app on a fresh in-memory database and a temp data directory, closed after each test.
 * Helpers create data through the same repository functions the CLI uses.
 */
export async function makeTestApp(overrides: Partial<Config> = {}, options: { shared?: boolean } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-test-'));
  const clock = new TestClock();
  const database = await freshTestDatabase();
  const app = await buildApp(testConfig({ dataDir, databaseUrl: database.url, ...overrides }), { now: clock.now });
  const close = async () => {
    await app.close();
    await database.drop();
  };
  // A shared app (one per describe, for suites of many small read-only cases) is closed by its owner.
  if (!options.shared) open.push({ app, drop: database.drop });

  /** A user made by the CLI's path; `verified`: the address was proven by a sign-in link. */
  async function user(opts: { credits?: number; email?: string; first?: string; last?: string; admin?: boolean; verified?: boolean } = {}): Promise<TestUser> {
    counter += 1;
    const email = opts.email ?? `user${counter}-${Date.now()}@example.com`;
    const { userId, apiKey } = await createAccount(
      app.deps.db,
      { email, firstName: opts.first ?? `First${counter}`, lastName: opts.last ?? 'Tester', creditsMicros: toMicros(opts.credits ?? 50), admin: opts.admin },
      clock.now(),
    );
    if (opts.verified) await markEmailVerified(app.deps.db, userId, clock.now());
    return { userId, email, apiKey };
  }

  /** A one-time sign-in token for the address, as the mailed link carries it. */
  async function signInToken(email: string): Promise<string> {
    const { link } = await operatorSignInLink(app.deps, email);
    return new URL(link).hash.replace(/^#token=/, '');
  }

  /**
   * Signs in with a token as the dashboard's sign-in page does (same origin, CSRF header); returns the
   * session cookie as a `Cookie` header value. `presented` is a cookie the browser already had.
   */
  async function signIn(token: string, presented?: string) {
    const headers = { origin: app.deps.config.publicUrl, 'x-roster-csrf': '1', ...(presented ? { cookie: presented } : {}) };
    const res = await request('POST', '/v0/sessions', { headers, json: { token } });
    const setCookie = [res.headers['set-cookie'] ?? []].flat()[0];
    return { res, cookie: setCookie ? setCookie.split(';')[0] : null };
  }

  /** A session for the user (signed in by link); returns its cookie. */
  async function session(u: { email: string }): Promise<string> {
    const { res, cookie } = await signIn(await signInToken(u.email));
    if (res.statusCode !== 201 || !cookie) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    return cookie;
  }

  async function org(owner: TestUser, name = `Org ${++counter}`) {
    const { organizationId, apiKey } = await createOrganization(app.deps.db, owner.userId, name, clock.now());
    return { organizationId, name, ownerKey: apiKey };
  }

  /** Adds `member` to the organization with a role; returns their org key. */
  async function member(organizationId: number, member: TestUser, roleId: number): Promise<string> {
    const { apiKey } = await app.deps.db.transaction().execute((tx) => insertMembership(tx, organizationId, member.userId, roleId, clock.now()));
    return apiKey;
  }

  /**
   * app.inject with a bearer key, or a session cookie sent the way the dashboard sends it (same origin,
   * CSRF header; `headers` may override them), and a JSON body.
   */
  function request(
    method: InjectOptions['method'],
    url: string,
    opts: { key?: string; session?: string; json?: unknown; headers?: Record<string, string>; payload?: InjectOptions['payload'] } = {},
  ) {
    const dashboard: Record<string, string> = opts.session !== undefined ? { cookie: opts.session, origin: app.deps.config.publicUrl, 'x-roster-csrf': '1' } : {};
    const headers: Record<string, string> = { ...dashboard, ...(opts.headers ?? {}) };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    return app.inject({
      method,
      url,
      headers,
      ...(opts.json !== undefined ? { payload: opts.json as object } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
  }

  return { app, db: app.deps.db, clock, dataDir, user, org, member, request, signInToken, signIn, session, close };
}
export type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
