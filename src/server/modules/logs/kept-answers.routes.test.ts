import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DATA_VERSION_EVERY_MS } from '../../db/connection.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// A plain GET /v0/logs answer is kept while nothing writes the logs' tables (reads.ts readLogs): every
// read here comes after the same read was answered, so a kept answer that outlived a change would show.

type Log = { id: number; entries: Record<string, unknown>; derived_entries: Record<string, unknown> };

async function setup(t: TestApp) {
  const u = await t.user();
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'p' })).statusCode).toBe(200);
  const write = async (entries: Record<string, unknown>[], context = 'runs') => {
    const res = await call('POST', '/v0/logs', { project_name: 'p', context, entries });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids as number[];
  };
  const query = new URLSearchParams({ project_name: 'p', filter: 'score >= 0', sorting: '{"score": "descending"}', limit: '20' });
  /** The same page twice: the second is the kept answer (or, after a change, the new one). */
  const read = async (context = 'runs') => {
    const url = `/v0/logs?${query}&context=${encodeURIComponent(context)}`;
    const first = await call('GET', url);
    const again = await call('GET', url);
    expect(again.body).toBe(first.body);
    if (first.statusCode !== 200) return { status: first.statusCode, logs: [] as Log[], count: 0 };
    return { status: 200, ...(first.json() as { logs: Log[]; count: number }) };
  };
  return { u, call, write, read };
}

const scoresOf = (logs: Log[]) => logs.map((l) => l.entries.score);

describe('kept answers of GET /v0/logs', () => {
  it('follow every write that changes what they show', async () => {
    const t = await makeTestApp();
    const { call, write, read } = await setup(t);
    const ids = await write([{ score: 1 }, { score: 2 }, { score: 3 }]);
    expect(scoresOf((await read()).logs)).toEqual([3, 2, 1]);

    await write([{ score: 4 }]);
    expect(scoresOf((await read()).logs)).toEqual([4, 3, 2, 1]);

    const update = await call('PUT', '/v0/logs', { logs: [ids[0]], context: 'runs', project_name: 'p', overwrite: true, entries: [{ score: 10 }] });
    expect(update.statusCode, update.body).toBe(200);
    expect(scoresOf((await read()).logs)).toEqual([10, 4, 3, 2]);

    const del = await call('DELETE', '/v0/logs', { project_name: 'p', context: 'runs', ids_and_fields: [[[ids[1]], null]] });
    expect(del.statusCode, del.body).toBe(200);
    expect(await read()).toMatchObject({ count: 3 });

    const derived = await call('POST', '/v0/logs/derived', {
      project_name: 'p',
      context: 'runs',
      key: 'double',
      equation: '{log:score} * 2',
      referenced_logs: { log: [ids[0]] },
      derived: true,
    });
    expect(derived.statusCode, derived.body).toBe(200);
    expect((await read()).logs.find((l) => l.id === ids[0])?.derived_entries).toEqual({ double: 20 });

    const renamed = await call('PATCH', '/v0/project/p/contexts/runs/rename', { name: 'renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await read()).status).toBe(404);
    expect(scoresOf((await read('renamed')).logs)).toEqual([10, 4, 3]);

    const gone = await call('DELETE', '/v0/project/p/contexts/renamed');
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await read('renamed')).status).toBe(404);
  });

  it('are never shared between callers, even with the same project and context names', async () => {
    const t = await makeTestApp();
    const a = await setup(t);
    const b = await setup(t);
    await a.write([{ score: 1, who: 'a' }]);
    await b.write([{ score: 2, who: 'b' }]);
    for (let i = 0; i < 2; i++) {
      expect((await a.read()).logs.map((l) => l.entries.who)).toEqual(['a']);
      expect((await b.read()).logs.map((l) => l.entries.who)).toEqual(['b']);
    }
    // An organization's workspace is another scope too.
    const org = await t.org(a.u);
    const inOrg = await t.request('GET', '/v0/logs?project_name=p&context=runs', { key: org.ownerKey });
    expect(inOrg.statusCode, inOrg.body).toBe(404);
  });

  it('see logs another process wrote to the same SQLite file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-kept-'));
    const file = path.join(dir, 'roster.db');
    const t = await makeTestApp({ databaseUrl: `sqlite:${file}` });
    const { write, read } = await setup(t);
    const [id] = await write([{ score: 1 }, { score: 2 }]);
    expect(scoresOf((await read()).logs)).toEqual([2, 1]);
    const other = new Database(file);
    other.prepare(`update context_rows set entries = '{"score":5}' where id = ?`).run(id);
    other.close();
    await new Promise((resolve) => setTimeout(resolve, DATA_VERSION_EVERY_MS + 1));
    expect(scoresOf((await read()).logs)).toEqual([5, 2]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
