import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { WriteEpoch, writesAuthTable } from '../db/write-epoch.ts';
import { ROLE_IDS } from '../../shared/roles.ts';
import { makeTestApp } from '../testing/harness.ts';
import { untilNotified } from '../testing/notified.ts';
import { DATA_VERSION_EVERY_MS, openDatabase } from '../db/connection.ts';
import { EPOCH_CACHE_TTL_MS, EpochCache, SEEN_CHANGES_TTL_MS } from '../db/epoch-cache.ts';

describe('what authentication caches', () => {
  it('sees every statement that writes an auth table, as Kysely and hand-written SQL spell it', () => {
    for (const sql of [
      'update "api_keys" set "revoked_at" = ? where "id" = ?',
      'delete from "memberships" where "organization_id" = $1',
      'insert into "users" ("id") values (?)',
      'UPDATE api_keys SET revoked_at = now()',
      'delete from organizations where id = ?',
    ])
      expect(writesAuthTable(sql), sql).toBe(true);
    for (const sql of ['select * from "api_keys" where "key_hash" = ?', 'update "api_keys_archive" set x = 1', 'insert into "projects" ("name") values (?)', 'commit'])
      expect(writesAuthTable(sql), sql).toBe(false);
  });

  it('keeps a value while the epoch stands, and not past the time bound', async () => {
    const epoch = new WriteEpoch(writesAuthTable);
    let now = 0;
    const cache = new EpochCache<number>(epoch, () => now);
    let reads = 0;
    const read = async () => ++reads;
    expect(await cache.get('k', read)).toBe(1);
    expect(await cache.get('k', read)).toBe(1);
    epoch.bump();
    expect(await cache.get('k', read)).toBe(2);
    now += EPOCH_CACHE_TTL_MS;
    expect(await cache.get('k', read)).toBe(3);
    epoch.bump();
    expect(await cache.get('k', read)).toBe(4);
  });

  it("keeps a value up to its epoch's own bound: 60 s where every change is seen (SQLite), 5 s where notified", async () => {
    let now = 0;
    const seen = new EpochCache<number>(new WriteEpoch(writesAuthTable, () => 0, SEEN_CHANGES_TTL_MS), () => now);
    let reads = 0;
    const read = async () => ++reads;
    expect(await seen.get('k', read)).toBe(1);
    now += EPOCH_CACHE_TTL_MS;
    expect(await seen.get('k', read)).toBe(1);
    now += SEEN_CHANGES_TTL_MS - EPOCH_CACHE_TTL_MS;
    expect(await seen.get('k', read)).toBe(2);
    // What openDatabase gives each dialect.
    const sqlite = await openDatabase('sqlite::memory:');
    try {
      expect(Object.values(sqlite.epochs).map((e) => e.ttlMs)).toEqual(Array(5).fill(SEEN_CHANGES_TTL_MS));
    } finally {
      await sqlite.close();
    }
    if (process.env.TEST_DATABASE_URL) {
      const postgres = await openDatabase(process.env.TEST_DATABASE_URL);
      try {
        expect(Object.values(postgres.epochs).map((e) => e.ttlMs)).toEqual(Array(5).fill(EPOCH_CACHE_TTL_MS));
      } finally {
        await postgres.close();
      }
    }
  });

  it('does not keep a read that raced a change', async () => {
    const epoch = new WriteEpoch(writesAuthTable);
    const cache = new EpochCache<string>(epoch);
    expect(
      await cache.get('k', async () => {
        epoch.bump(); // a revocation lands while the old row is being read
        return 'old';
      }),
    ).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('keeps only what `keep` accepts, and at most its number of entries (the oldest goes first)', async () => {
    const cache = new EpochCache<string>(new WriteEpoch(writesAuthTable), Date.now, 2);
    let reads = 0;
    const read = (value: string) => async () => (reads++, value);
    const small = (value: string) => value.length <= 3;
    expect(await cache.get('big', read('large'), small)).toBe('large');
    expect(await cache.get('big', read('large'), small)).toBe('large');
    expect(reads).toBe(2); // not kept
    await cache.get('a', read('a'), small);
    await cache.get('b', read('b'), small);
    await cache.get('a', read('a'), small);
    expect(reads).toBe(4);
    await cache.get('c', read('c'), small); // a goes
    await cache.get('b', read('b'), small);
    expect(reads).toBe(5);
    await cache.get('a', read('a'), small);
    expect(reads).toBe(6);
  });

  it('lets callers that miss at once share one read, but not across a change', async () => {
    const epoch = new WriteEpoch(writesAuthTable);
    const cache = new EpochCache<number>(epoch);
    let reads = 0;
    let release = () => {};
    const read = () => new Promise<number>((resolve) => (release = () => resolve(++reads)));
    const first = cache.get('k', read);
    const second = cache.get('k', read);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(reads).toBe(1);
    epoch.bump();
    const before = cache.get('k', read);
    const releaseBefore = release;
    epoch.bump(); // a write lands while that read runs: a caller from now on reads again
    const after = cache.get('k', read);
    releaseBefore();
    release();
    expect(await before).toBe(2);
    expect(await after).toBe(3);
    // A failed read fails its waiters too, and is not remembered.
    epoch.bump();
    const failing = cache.get('k', () => Promise.reject(new Error('down')));
    await expect(Promise.all([failing, cache.get('k', read)])).rejects.toThrow('down');
    const next = cache.get('k', read);
    release();
    expect(await next).toBe(4);
  });

  it('a role change and a removal through the API are honoured on the very next request, though the key was cached', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const org = await t.org(u);
    const member = await t.user();
    const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Admin);
    const asMember = () => t.request('GET', `/v0/organizations/${org.organizationId}/invites`, { key: memberKey });
    expect((await asMember()).statusCode).toBe(200);
    expect((await asMember()).statusCode).toBe(200); // cached now
    const asOwner = (method: 'PATCH' | 'DELETE', json?: unknown) =>
      t.request(method, `/v0/organizations/${org.organizationId}/members/${member.userId}`, { key: org.ownerKey, json });
    expect((await asOwner('PATCH', { role_id: ROLE_IDS.Viewer })).statusCode).toBe(200);
    expect((await t.request('POST', `/v0/organizations/${org.organizationId}/invites`, { key: memberKey, json: { email: 'x@example.com' } })).statusCode).toBe(403);
    expect((await asOwner('DELETE')).statusCode).toBe(204);
    expect((await asMember()).statusCode).toBe(401);
  });

  it('a change committed by another process (the CLI on the same SQLite file) is seen within DATA_VERSION_EVERY_MS', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-auth-cache-'));
    const file = path.join(dir, 'roster.db');
    const t = await makeTestApp({ databaseUrl: `sqlite:${file}` });
    const u = await t.user();
    const me = () => t.request('GET', '/v0/user/basic-info', { key: u.apiKey });
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    const other = new Database(file);
    other.prepare('update api_keys set revoked_at = ? where user_id = ?').run(new Date().toISOString(), u.userId);
    other.close();
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_EVERY_MS + 1));
    expect((await me()).statusCode).toBe(401);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "on PostgreSQL, a key revoked through one server is refused by another that cached it, at the commit's notification",
    async () => {
      const a = await makeTestApp();
      const b = await makeTestApp({ databaseUrl: a.app.deps.config.databaseUrl });
      const u = await a.user();
      const me = async () => (await b.request('GET', '/v0/user/basic-info', { key: u.apiKey })).statusCode;
      expect(await me()).toBe(200);
      expect(await me()).toBe(200); // cached on b
      await a.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', u.userId).execute();
      await untilNotified(async () => (await me()) !== 200, 'b still accepts the revoked key');
      expect(await me()).toBe(401);
    },
  );
});
