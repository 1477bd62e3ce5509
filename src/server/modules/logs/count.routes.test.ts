import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { writesLogsTable } from '../../db/write-epoch.ts';
import { DATA_VERSION_EVERY_MS } from '../../db/connection.ts';
import { EPOCH_CACHE_TTL_MS } from '../../db/epoch-cache.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// GET /v0/logs answers `count`, the matches before paging. Counting is a scan of the context, so a count is kept
// while nothing writes a context's logs (repository.ts countLogs): these tests hold it to every kind of write.

async function setup(t: TestApp) {
  const u = await t.user();
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'p' })).statusCode).toBe(200);
  const write = async (entries: Record<string, unknown>[], context = 'runs') => {
    const res = await call('POST', '/v0/logs', { project_name: 'p', context, entries });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids as number[];
  };
  const read = async (params: Record<string, string>, context = 'runs') => {
    const res = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: 'p', context, ...params })}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { logs: { id: number }[]; count: number };
  };
  return { call, write, read };
}

const scores = (n: number) => Array.from({ length: n }, (_, i) => ({ score: i / n, i }));

describe('the count of GET /v0/logs', () => {
  it('sees every statement that writes a table logs are counted from', () => {
    for (const sql of [
      'insert into "context_rows" ("context_id", "entries") values (?, ?)',
      'update "context_rows" set "entries" = ? where "id" = ?',
      'delete from "contexts" where "id" = ?',
      'delete from "projects" where "id" = ?',
      'insert into context_log_members (context_id, row_id) values (?, ?)',
      'insert into "log_derived_fields" ("context_id", "key", "equation") values (?, ?, ?)',
    ])
      expect(writesLogsTable(sql), sql).toBe(true);
    for (const sql of ['select count(*) from context_rows as r', 'insert into "context_fields" ("name") values (?)', 'update "commits" set x = 1'])
      expect(writesLogsTable(sql), sql).toBe(false);
  });

  it('stays exact page after page while logs are added, changed and deleted', async () => {
    const t = await makeTestApp();
    const { call, write, read } = await setup(t);
    const ids = await write(scores(30));
    const page = { limit: '10' };
    const high = { limit: '5', filter: 'score >= 0.5' };
    expect((await read(page)).count).toBe(30);
    expect((await read({ ...page, offset: '10' })).count).toBe(30);
    expect((await read(high)).count).toBe(15);

    await write(scores(5));
    expect((await read(page)).count).toBe(35);
    expect((await read(high)).count).toBe(15 + 2);

    const update = await call('PUT', '/v0/logs', {
      logs: ids.slice(0, 3),
      context: 'runs',
      project_name: 'p',
      overwrite: true,
      entries: [{ score: 1 }, { score: 1 }, { score: 1 }],
    });
    expect(update.statusCode, update.body).toBe(200);
    expect((await read(high)).count).toBe(17 + 3);

    const del = await call('DELETE', '/v0/logs', { project_name: 'p', context: 'runs', ids_and_fields: [[ids.slice(20, 30), null]] });
    expect(del.statusCode, del.body).toBe(200);
    expect((await read(page)).count).toBe(25);
    expect((await read(high)).count).toBe(20 - 10);
  });

  it('knows the count from a page that is not full, and counts when the offset is past the matches', async () => {
    const t = await makeTestApp();
    const { write, read } = await setup(t);
    await write(scores(12));
    expect(await read({ limit: '20' })).toMatchObject({ count: 12 });
    expect((await read({ limit: '5', offset: '10' })).logs).toHaveLength(2);
    expect((await read({ limit: '5', offset: '10' })).count).toBe(12);
    const past = await read({ limit: '5', offset: '40' });
    expect(past).toEqual({ logs: [], count: 12 });
  });

  it('keeps the counts of two contexts and two filters apart', async () => {
    const t = await makeTestApp();
    const { write, read } = await setup(t);
    await write(scores(8), 'a');
    await write(scores(20), 'b');
    expect((await read({ limit: '2' }, 'a')).count).toBe(8);
    expect((await read({ limit: '2' }, 'b')).count).toBe(20);
    expect((await read({ limit: '2', filter: 'i < 3' }, 'b')).count).toBe(3);
    expect((await read({ limit: '2', filter: 'i < 4' }, 'b')).count).toBe(4);
  });

  it('sees logs another process deleted from the same SQLite file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-count-'));
    const file = path.join(dir, 'roster.db');
    const t = await makeTestApp({ databaseUrl: `sqlite:${file}` });
    const { write, read } = await setup(t);
    const ids = await write(scores(10));
    expect((await read({ limit: '3' })).count).toBe(10);
    expect((await read({ limit: '3' })).count).toBe(10);
    const other = new Database(file);
    other.prepare(`delete from context_rows where id in (${ids.slice(0, 4).join(', ')})`).run();
    other.close();
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_EVERY_MS + 1));
    expect((await read({ limit: '3' })).count).toBe(6);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(process.env.TEST_DATABASE_URL)('on PostgreSQL, a count one server keeps is dropped when another writes, at the commit’s notification', async () => {
    const a = await makeTestApp();
    const b = await makeTestApp({ databaseUrl: a.app.deps.config.databaseUrl });
    const u = await a.user();
    const call = (t: TestApp, method: 'GET' | 'POST', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    expect((await call(a, 'POST', '/v0/project', { name: 'p' })).statusCode).toBe(200);
    expect((await call(a, 'POST', '/v0/logs', { project_name: 'p', context: 'runs', entries: scores(10) })).statusCode).toBe(200);
    const countOnB = async () => (await call(b, 'GET', `/v0/logs?project_name=p&context=runs&limit=2`)).json().count as number;
    expect(await countOnB()).toBe(10);
    expect(await countOnB()).toBe(10); // kept on b
    expect((await call(a, 'POST', '/v0/logs', { project_name: 'p', context: 'runs', entries: scores(3) })).statusCode).toBe(200);
    const start = Date.now();
    while ((await countOnB()) === 10) {
      expect(Date.now() - start, 'b still answers the old count').toBeLessThan(EPOCH_CACHE_TTL_MS / 2);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await countOnB()).toBe(13);
  });
});
