import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATA_VERSION_EVERY_MS } from '../../db/connection.ts';
import { makeTestApp } from '../../testing/harness.ts';
import { untilNotified } from '../../testing/notified.ts';

// GET /v0/projects keeps a workspace's list of names while no project has changed (projects/repository.ts):
// every change must show on the very next request, wherever it was made.
describe('the list of projects after a change', () => {
  it('shows a project created, reordered, renamed or deleted in this process on the next request', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const list = async () => (await t.request('GET', '/v0/projects', { key: u.apiKey })).json() as string[];
    const before = await list();
    expect(await list()).toEqual(before); // kept now

    expect((await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'first', order: 1 } })).statusCode).toBe(200);
    expect((await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'second', order: 2 } })).statusCode).toBe(200);
    expect((await list()).filter((n) => !before.includes(n))).toEqual(['first', 'second']);

    await t.db.updateTable('projects').set({ sort_order: 3 }).where('name', '=', 'first').execute();
    expect((await list()).filter((n) => !before.includes(n))).toEqual(['second', 'first']);

    await t.db.updateTable('projects').set({ name: 'renamed' }).where('name', '=', 'second').execute();
    expect((await list()).filter((n) => !before.includes(n))).toEqual(['renamed', 'first']);

    expect((await t.request('DELETE', '/v0/project/first', { key: u.apiKey })).statusCode).toBe(200);
    expect((await list()).filter((n) => !before.includes(n))).toEqual(['renamed']);
  });

  it('shows a project renamed by another process on the same SQLite file within DATA_VERSION_EVERY_MS', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-projects-'));
    const file = path.join(dir, 'roster.db');
    const t = await makeTestApp({ databaseUrl: `sqlite:${file}` });
    const u = await t.user();
    expect((await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'here' } })).statusCode).toBe(200);
    const list = async () => (await t.request('GET', '/v0/projects', { key: u.apiKey })).json() as string[];
    expect(await list()).toContain('here');
    expect(await list()).toContain('here');
    const other = new Database(file);
    other.prepare('update projects set name = ? where name = ?').run('there', 'here');
    other.close();
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_EVERY_MS + 1));
    const after = await list();
    expect(after).toContain('there');
    expect(after).not.toContain('here');
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'on PostgreSQL, a project created through one server shows on another that kept the list, at the commit’s notification',
    async () => {
      const a = await makeTestApp();
      const b = await makeTestApp({ databaseUrl: a.app.deps.config.databaseUrl });
      const u = await a.user();
      const list = async () => (await b.request('GET', '/v0/projects', { key: u.apiKey })).json() as string[];
      const before = await list();
      expect(await list()).toEqual(before); // kept on b
      expect((await a.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'elsewhere' } })).statusCode).toBe(200);
      await untilNotified(async () => (await list()).includes('elsewhere'), 'b still shows the old list');
    },
  );
});
