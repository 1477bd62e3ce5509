import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../shared/logs-filter/index.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { FilterCompiler } from './filter-sql.ts';
import { newerLogsSortFirst, rowEntries } from './repository.ts';

// A sorted page is the same whichever way the context's logs are walked: in the table's order, or newest
// first when the first sort key follows the logs (queryLogs, PostgreSQL), with ties, mixed kinds and pages.

type Log = { step?: unknown; tag: string };

async function setup(t: TestApp) {
  const u = await t.user();
  const call = (method: 'GET' | 'POST', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
  const write = async (context: string, logs: Log[]) => {
    const res = await call('POST', '/v0/logs', { project_name: 'demo', context, entries: logs });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().failed, res.body).toBeUndefined();
    return res.json().log_event_ids as number[];
  };
  const page = async (context: string, params: Record<string, string>) => {
    const res = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: 'demo', context, return_ids_only: 'True', ...params })}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as number[];
  };
  return { call, write, page };
}

/** Ids in the order the sort means: numbers, then strings, then booleans, then the rest; ties newest first. */
function expected(logs: Log[], ids: number[], descending: boolean): number[] {
  const kind = (v: unknown) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : 3);
  const order = logs.map((log, i) => ({ v: log.step, id: ids[i]! }));
  return order
    .sort((a, b) => {
      const ka = kind(a.v);
      const kb = kind(b.v);
      if (ka !== kb) return ka - kb;
      if (ka < 3 && a.v !== b.v) {
        const less = (a.v as number | string) < (b.v as number | string);
        return (less ? -1 : 1) * (descending ? -1 : 1);
      }
      return b.id - a.id;
    })
    .map((o) => o.id);
}

// Steps that grow with the logs, with ties and a log without the field (a context's field has one kind).
const growing: Log[] = [...Array.from({ length: 24 }, (_, i) => ({ step: Math.floor(i / 2), tag: i % 3 ? 'xa' : 'b' })), { tag: 'x' }, { step: 30, tag: 'x' }];

describe('GET /v0/logs sorted pages, whichever way the logs are walked', () => {
  it('a key that grows with the logs, descending and ascending, paged and filtered', async () => {
    const t = await makeTestApp();
    const { write, page } = await setup(t);
    const ids = await write('runs', growing);
    for (const descending of [true, false]) {
      const sorting = JSON.stringify({ step: descending ? 'descending' : 'ascending' });
      const all = expected(growing, ids, descending);
      expect(await page('runs', { sorting })).toEqual(all);
      expect(await page('runs', { sorting, limit: '5', offset: '3' })).toEqual(all.slice(3, 8));
      const tagged = growing.map((l, i) => (l.tag.includes('x') ? ids[i] : null)).filter((id): id is number => id !== null);
      expect(await page('runs', { sorting, filter: "'x' in tag", limit: '4', offset: '2' })).toEqual(all.filter((id) => tagged.includes(id)).slice(2, 6));
    }
  });

  it('ISO times that grow with the logs, descending', async () => {
    const t = await makeTestApp();
    const { write, page } = await setup(t);
    const times: Log[] = Array.from({ length: 12 }, (_, i) => ({ step: `2026-11-26T${String(8 + Math.floor(i / 3)).padStart(2, '0')}:00:00Z`, tag: 'x' }));
    const ids = await write('times', times);
    expect(await page('times', { sorting: '{"step": "descending"}', limit: '5', offset: '2' })).toEqual(expected(times, ids, true).slice(2, 7));
  });

  it('a key that runs against the logs, and a context with member logs', async () => {
    const t = await makeTestApp();
    const { call, write, page } = await setup(t);
    const shrinking = growing.map((l) => (typeof l.step === 'number' ? { ...l, step: 100 - l.step } : l));
    const ids = await write('down', shrinking);
    for (const descending of [true, false]) {
      const sorting = JSON.stringify({ step: descending ? 'descending' : 'ascending' });
      expect(await page('down', { sorting, limit: '6', offset: '1' })).toEqual(expected(shrinking, ids, descending).slice(1, 7));
    }
    // Members: the logs of `down` join `runs`, whose own logs grow.
    const own = await write('runs', growing);
    expect((await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'runs', log_ids: ids })).statusCode).toBe(200);
    const logs = [...shrinking, ...growing];
    const sorting = JSON.stringify({ step: 'descending' });
    expect(await page('runs', { sorting, limit: '7', offset: '2' })).toEqual(expected(logs, [...ids, ...own], true).slice(2, 9));
  });

  it('the probe: newest first only when the newest log sorts before the oldest (PostgreSQL)', async (ctx) => {
    const t = await makeTestApp();
    if (t.app.deps.dialect !== 'postgres') return ctx.skip();
    const { write } = await setup(t);
    await write('up', growing.slice(0, 24));
    await write('down', [{ step: 5, tag: 'x' }, { tag: 'x' }, { step: 1, tag: 'x' }]);
    const context = async (name: string) => (await t.db.selectFrom('contexts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const probe = async (name: string, descending: boolean) => {
      const compiler = new FilterCompiler('postgres', rowEntries());
      const from: ReturnType<typeof sql>[] = [];
      const { num, str } = compiler.orderByOnce(parseFilter('step')!, descending, from);
      return newerLogsSortFirst(t.db, sql`r.context_id = ${await context(name)}`, sql.join(from, sql` `), { num, str, descending });
    };
    expect(await probe('up', true)).toBe(true);
    expect(await probe('up', false)).toBe(false);
    expect(await probe('down', true)).toBe(false);
    expect(await probe('down', false)).toBe(true);
    // Strings compare as the sort does (byte order): ISO times that grow with the logs.
    await write('times', [
      { step: '2026-11-26T09:00:00Z', tag: 'x' },
      { step: '2026-11-26T10:00:00Z', tag: 'x' },
    ]);
    expect(await probe('times', true)).toBe(true);
    expect(await probe('times', false)).toBe(false);
  });
});
