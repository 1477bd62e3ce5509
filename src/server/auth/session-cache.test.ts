import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATA_VERSION_EVERY_MS } from '../db/connection.ts';
import { makeTestApp } from '../testing/harness.ts';
import { untilNotified } from '../testing/notified.ts';
import { SESSION_TOUCH_MS } from './session-repository.ts';

// A session behind a cookie is kept while no session and no person's row has changed
// (auth/session-repository.ts): every change must be honoured on the very next request, wherever it was made.
describe('a session kept between requests', () => {
  it('is refused on the next request after a sign-out, a sign-out everywhere, or the account disabled, in this process', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const me = (session: string) => t.request('GET', '/v0/user/basic-info', { session });

    const one = await t.session(u);
    expect((await me(one)).statusCode).toBe(200);
    expect((await me(one)).statusCode).toBe(200); // kept now
    expect((await t.request('DELETE', '/v0/sessions/current', { session: one })).statusCode).toBe(204);
    expect((await me(one)).statusCode).toBe(401);

    const two = await t.session(u);
    expect((await me(two)).statusCode).toBe(200);
    await t.db.deleteFrom('sessions').where('user_id', '=', u.userId).execute(); // as "sign out everywhere" does
    expect((await me(two)).statusCode).toBe(401);

    const three = await t.session(u);
    expect((await me(three)).statusCode).toBe(200);
    await t.db.updateTable('users').set({ disabled_at: new Date().toISOString() }).where('id', '=', u.userId).execute();
    expect((await me(three)).statusCode).toBe(401);
  });

  it('still ends when idle, and its renewal is seen by the next request', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const cookie = await t.session(u);
    const me = () => t.request('GET', '/v0/user/basic-info', { session: cookie });
    expect((await me()).statusCode).toBe(200);
    t.clock.advance(SESSION_TOUCH_MS + 1);
    expect((await me()).headers['set-cookie']).toBeDefined(); // renewed: written, so the kept row is dropped
    expect((await me()).headers['set-cookie']).toBeUndefined(); // and not renewed again at once
    t.clock.advance(8 * 24 * 3_600_000); // past the idle expiry (7 days)
    expect((await me()).statusCode).toBe(401);
  });

  it('is refused within DATA_VERSION_EVERY_MS after another process on the same SQLite file ends it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-session-cache-'));
    const file = path.join(dir, 'roster.db');
    const t = await makeTestApp({ databaseUrl: `sqlite:${file}` });
    const u = await t.user();
    const cookie = await t.session(u);
    const me = () => t.request('GET', '/v0/user/basic-info', { session: cookie });
    expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
    const other = new Database(file);
    other.prepare('delete from sessions where user_id = ?').run(u.userId);
    other.close();
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_EVERY_MS + 1));
    expect((await me()).statusCode).toBe(401);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'on PostgreSQL, a sign-out through one server is refused by another that kept the session, at the commit’s notification',
    async () => {
      const a = await makeTestApp();
      const b = await makeTestApp({ databaseUrl: a.app.deps.config.databaseUrl });
      const u = await a.user();
      const cookie = await a.session(u);
      const onB = async () => (await b.request('GET', '/v0/user/basic-info', { session: cookie })).statusCode;
      expect(await onB()).toBe(200);
      expect(await onB()).toBe(200); // kept on b
      expect((await a.request('DELETE', '/v0/sessions/current', { session: cookie })).statusCode).toBe(204);
      await untilNotified(async () => (await onB()) !== 200, 'b still accepts the ended session');
      expect(await onB()).toBe(401);
    },
  );
});
