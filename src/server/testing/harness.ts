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

  async function user(opts: { credits?: number; email?: string; first?: string; last?: string; admin?: boolean } = {}): Promise<TestUser> {
    counter += 1;
    const email = opts.email ?? `user${counter}-${Date.now()}@example.com`;
    const { userId, apiKey } = await createAccount(
      app.deps.db,
      { email, firstName: opts.first ?? `First${counter}`, lastName: opts.last ?? 'Tester', creditsMicros: toMicros(opts.credits ?? 50), admin: opts.admin },
      clock.now(),
    );
    return { userId, email, apiKey };
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

  /** app.inject with a bearer key and a JSON body. */
  function request(
    method: InjectOptions['method'],
    url: string,
    opts: { key?: string; json?: unknown; headers?: Record<string, string>; payload?: InjectOptions['payload'] } = {},
  ) {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    return app.inject({
      method,
      url,
      headers,
      ...(opts.json !== undefined ? { payload: opts.json as object } : {}),
      ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
    });
  }

  return { app, db: app.deps.db, clock, dataDir, user, org, member, request, close };
}
export type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
