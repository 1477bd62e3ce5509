import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATA_VERSION_EVERY_MS } from '../../db/connection.ts';
import { makeTestApp } from '../../testing/harness.ts';
import { untilNotified } from '../../testing/notified.ts';
import { classifyUser } from './repository.ts';

// GET /v0/user/basic-info keeps the person's row and balance while nothing they are read from has changed
// (users/repository.ts): every change must show on the very next request, wherever it was made.
describe('basic-info after a change to the person or their balance', () => {
  it('shows a deduction, a top-up and a profile change made in this process on the next request', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const me = async () => (await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).json();
    const before = (await me()).credits as number;
    expect((await me()).credits).toBe(before); // kept now

    const deducted = await t.request('POST', '/v0/credits/deduct', { key: u.apiKey, json: { amount: 1.5 } });
    expect(deducted.statusCode).toBe(200);
    expect((await me()).credits).toBe(before - 1.5);

    await t.db
      .updateTable('billing_accounts')
      .set((eb) => ({ credits_micros: eb('credits_micros', '+', 4_000_000) }))
      .where('user_id', '=', u.userId)
      .execute();
    expect((await me()).credits).toBe(before + 2.5);

    await classifyUser(t.db, u.userId, { accountType: 'individual', businessInfo: null, firstName: 'Renamed' }, new Date());
    const after = await me();
    expect(after.first).toBe('Renamed');
    expect(after.account_type).toBe('individual');
  });

  it('answers each key of a person with its own key part, and an organization key with its organization as it is now', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const org = await t.org(u);
    const me = async () => (await t.request('GET', '/v0/user/basic-info', { key: org.ownerKey })).json();
    const before = await me();
    expect(await me()).toEqual(before); // the same answer, kept
    await t.db.updateTable('organizations').set({ name: 'Renamed Org' }).where('id', '=', org.organizationId).execute();
    expect((await me()).key.organization_name).toBe('Renamed Org');
    await t.db
      .updateTable('billing_accounts')
      .set((eb) => ({ credits_micros: eb('credits_micros', '+', 2_000_000) }))
      .where('organization_id', '=', org.organizationId)
      .execute();
    expect((await me()).credits).toBe(before.credits + 2);
    // The person's personal key, on the same row, gets its own answer.
    expect((await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).json().key.kind).toBe('personal');
    expect((await me()).key.kind).toBe('organization');
  });

  it('shows a balance changed by another process on the same SQLite file within DATA_VERSION_EVERY_MS', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-basic-info-'));
    const file = path.join(dir, 'roster.db');
    const t = await makeTestApp({ databaseUrl: `sqlite:${file}` });
    const u = await t.user();
    const me = async () => (await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).json();
    const before = (await me()).credits as number;
    expect((await me()).credits).toBe(before);
    const other = new Database(file);
    other.prepare('update billing_accounts set credits_micros = credits_micros + 7000000 where user_id = ?').run(u.userId);
    other.prepare('update users set first_name = ? where id = ?').run('Elsewhere', u.userId);
    other.close();
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_EVERY_MS + 1));
    const after = await me();
    expect(after.credits).toBe(before + 7);
    expect(after.first).toBe('Elsewhere');
  });

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL, a balance changed through one server shows on another that kept it, at the commit’s notification', async () => {
    const a = await makeTestApp();
    const b = await makeTestApp({ databaseUrl: a.app.deps.config.databaseUrl });
    const u = await a.user();
    const credits = async () => (await b.request('GET', '/v0/user/basic-info', { key: u.apiKey })).json().credits as number;
    const before = await credits();
    expect(await credits()).toBe(before); // kept on b
    await a.db
      .updateTable('billing_accounts')
      .set((eb) => ({ credits_micros: eb('credits_micros', '+', 3_000_000) }))
      .where('user_id', '=', u.userId)
      .execute();
    await untilNotified(async () => (await credits()) !== before, 'b still shows the old balance');
    expect(await credits()).toBe(before + 3);
  });
});
