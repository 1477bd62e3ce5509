import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// POST /v0/logs/join_query and /v0/logs/join (logs-api.md §4.10) on the real database: users (A) and
// their orders (B), joined on user_id.

describe('joins of logs', () => {
  let t: TestApp;
  let key: string;
  let other: string;

  beforeAll(async () => {
    t = await makeTestApp({}, { shared: true });
    key = (await t.user()).apiKey;
    other = (await t.user()).apiKey;
    await t.request('POST', '/v0/project', { key, json: { name: 'shop' } });
    await t.request('POST', '/v0/project', { key: other, json: { name: 'theirs' } });
    const write = async (k: string, project: string, context: string, entries: unknown[]) => {
      const res = await t.request('POST', '/v0/logs', { key: k, json: { project_name: project, context, entries } });
      expect(res.statusCode, res.body).toBe(200);
    };
    await write(key, 'shop', 'users', [
      { user_id: 1, name: 'ann' },
      { user_id: 2, name: 'bob' },
      { user_id: 3, name: 'cy' },
    ]);
    await write(key, 'shop', 'orders', [
      { user_id: 1, amount: 10 },
      { user_id: 1, amount: 20 },
      { user_id: 2, amount: 30 },
      { user_id: 4, amount: 5 },
    ]);
    await write(other, 'theirs', 'secret', [{ user_id: 1, amount: 1000 }]);
  });
  afterAll(() => t.close());

  const pair = [{ context: 'users' }, { context: 'orders' }];
  const base = { project_name: 'shop', pair_of_args: pair, join_expr: 'A.user_id == B.user_id', mode: 'inner', offset: 0 };
  const query = async (body: Record<string, unknown>, status = 200, k = key) => {
    const res = await t.request('POST', '/v0/logs/join_query', { key: k, json: { ...base, ...body } });
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };
  const pairsOf = (logs: { entries: Record<string, unknown> }[]) => logs.map((l) => [l.entries.name ?? null, l.entries.amount ?? null]);

  it('reduces the joined rows: the sum of joined amounts is 60, per group as objects', async () => {
    expect(await query({ metric: 'sum', key: 'amount', columns: ['A.user_id', 'A.name', 'B.amount'] })).toBe(60);
    expect(await query({ metric: 'sum', key: 'amount' })).toBe(60);
    expect(await query({ metric: 'count', key: 'amount', mode: 'outer' })).toBe(4);
    expect(await query({ metric: 'mean', key: 'amount', group_by: 'name' })).toEqual({ ann: { mean: 15 }, bob: { mean: 30 } });
    expect(await query({ metric: 'sum', key: 'amount', filter: 'amount > 15' })).toBe(50);
  });

  it('answers rows with a count, in each mode', async () => {
    const columns = ['A.user_id', 'A.name', 'B.amount'];
    const inner = await query({ columns });
    expect(inner.count).toBe(3);
    expect(pairsOf(inner.logs)).toEqual([
      ['ann', 10],
      ['ann', 20],
      ['bob', 30],
    ]);
    expect(Object.keys(inner.logs[0].entries)).toEqual(['user_id', 'name', 'amount']);
    expect(inner.logs[0].join_ids.A).toBeTypeOf('number');
    const left = await query({ columns, mode: 'left' });
    expect(left.count).toBe(4);
    expect(pairsOf(left.logs)).toContainEqual(['cy', null]);
    const right = await query({ columns, mode: 'right' });
    expect(right.count).toBe(4);
    expect(pairsOf(right.logs)).toContainEqual([null, 5]);
    expect(right.logs.find((l: { entries: { amount: number } }) => l.entries.amount === 5).entries).toEqual({ amount: 5 });
    const outer = await query({ columns, mode: 'outer' });
    expect(outer.count).toBe(5);
    expect(pairsOf(outer.logs)).toEqual(
      expect.arrayContaining([
        ['cy', null],
        [null, 5],
        ['ann', 10],
      ]),
    );
    // Every column of both, a shared name taken from A (or B where A has no row).
    const all = await query({ mode: 'outer', sorting: '{"amount": "ascending"}' });
    expect(all.logs.map((l: { entries: Record<string, unknown> }) => l.entries)).toEqual([
      { user_id: 4, amount: 5 },
      { user_id: 1, name: 'ann', amount: 10 },
      { user_id: 1, name: 'ann', amount: 20 },
      { user_id: 2, name: 'bob', amount: 30 },
      { user_id: 3, name: 'cy' },
    ]);
  });

  it('filters, maps, sorts and pages the output columns', async () => {
    const res = await query({ columns: { 'A.name': 'who', 'B.amount': 'paid' }, filter: 'paid > 15', sorting: '{"paid": "descending"}' });
    expect(res.count).toBe(2);
    expect(res.logs.map((l: { entries: unknown }) => l.entries)).toEqual([
      { who: 'bob', paid: 30 },
      { who: 'ann', paid: 20 },
    ]);
    const page = await query({ columns: ['A.name', 'B.amount'], sorting: '{"amount": "ascending"}', limit: 1, offset: 1 });
    expect(page.count).toBe(3);
    expect(pairsOf(page.logs)).toEqual([['ann', 20]]);
    // 2026-04 name, selections with their own filters and ids.
    const narrowed = await query({ pair_of_args: [{ context: 'users', filter_expr: "name != 'bob'" }, { context: 'orders' }], filter_expr: 'amount < 15' });
    expect(pairsOf(narrowed.logs)).toEqual([['ann', 10]]);
    // A join condition over computed values, compiled by the same filter language.
    const computed = await query({ join_expr: 'A.user_id * 10 == B.amount', columns: ['A.name', 'B.amount'] });
    expect(pairsOf(computed.logs)).toEqual([
      ['ann', 10],
      ['bob', 20],
      ['cy', 30],
    ]);
  });

  it('refuses the combinations of §4.10 with 400', async () => {
    for (const body of [
      { key: 'amount' },
      { metric: 'sum' },
      { group_by: 'name' },
      { group_by: ['name'], key: 'amount' },
      { metric: 'sum', key: 'amount', sorting: '{"amount": "ascending"}' },
      { metric: 'sum', key: 'amount', limit: 10 },
      { metric: 'sum', key: 'amount', offset: 5 },
    ]) {
      const res = await t.request('POST', '/v0/logs/join_query', { key, json: { ...base, ...body } });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toMatch(/metric|key|group_by/);
    }
    // offset 0 is what the SDK always sends: fine with a metric.
    expect(await query({ metric: 'max', key: 'amount', offset: 0 })).toBe(30);
  });

  it('answers filter syntax errors with 422 as the GET does, and names bare fields in join_expr', async () => {
    const bad = await query({ filter: 'amount >' }, 422);
    expect(bad.detail[0].loc).toEqual(['body', 'filter']);
    expect(bad.detail[0].msg).toMatch(/Invalid filter expression/);
    const bare = await query({ join_expr: 'user_id == B.user_id' }, 422);
    expect(bare.detail[0].loc).toEqual(['body', 'join_expr']);
    expect(bare.detail[0].msg).toMatch(/A\.user_id/);
    const side = await query({ pair_of_args: [{ context: 'users', filter: '((' }, { context: 'orders' }] }, 422);
    expect(side.detail[0].loc).toEqual(['body', 'pair_of_args', '0', 'filter']);
    expect((await query({ limit: 1001 }, 422)).detail[0].loc).toEqual(['body', 'limit']);
    expect((await query({ columns: ['A.user_id', 'B.user_id'] }, 400)).detail).toMatch(/both called "user_id"/);
  });

  it('keeps hostile names and values data: output names, fields and literals are bound, never SQL', async () => {
    const evil = "x'); drop table context_rows; --";
    const res = await query({ columns: { 'A.name': evil, 'B.amount': 'amount' }, filter: `amount > 15 or amount == ${JSON.stringify(evil)}` });
    expect(res.logs.map((l: { entries: Record<string, unknown> }) => Object.keys(l.entries))).toEqual([
      [evil, 'amount'],
      [evil, 'amount'],
    ]);
    const quoted = await query({ join_expr: "A['a\"b'] == B.user_id" }, 422);
    expect(quoted.detail[0].msg).toMatch(/double quote/);
    expect(await query({ metric: 'sum', key: 'amount' })).toBe(60);
  });

  it("keeps tenants apart: another tenant's project and contexts do not exist for you", async () => {
    await query({ project_name: 'theirs', pair_of_args: [{ context: 'secret' }, { context: 'secret' }] }, 404);
    const res = await query({ pair_of_args: [{ context: 'users' }, { context: 'secret' }] }, 404);
    expect(res.detail).toMatch(/Context 'secret' not found/);
    // And their rows never join into yours.
    expect(await query({ metric: 'sum', key: 'amount' }, 200, key)).toBe(60);
  });

  it('POST /v0/logs/join writes the joined rows into a new context; the metric there equals the reduction', async () => {
    const res = await t.request('POST', '/v0/logs/join', {
      key,
      json: {
        project_name: 'shop',
        pair_of_args: pair,
        join_expr: 'A.user_id == B.user_id',
        mode: 'inner',
        new_context: 'joined',
        columns: ['A.user_id', 'A.name', 'B.amount'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count).toBe(3);
    const metric = await t.request('GET', '/v0/logs/metric/sum?project_name=shop&context=joined&key=amount', { key });
    expect(metric.json()).toBe(60);
    const read = await t.request('GET', '/v0/logs?project_name=shop&context=joined&sorting=%7B%22amount%22%3A%22ascending%22%7D', { key });
    expect(read.json().logs.map((l: { entries: unknown }) => l.entries)).toEqual([
      { user_id: 1, name: 'ann', amount: 10 },
      { user_id: 1, name: 'ann', amount: 20 },
      { user_id: 2, name: 'bob', amount: 30 },
    ]);
    const fields = await t.request('GET', '/v0/logs/fields?project_name=shop&context=joined', { key });
    expect(fields.json().amount.data_type).toBe('int');
    // The context exists now: a second join into it is refused and writes nothing.
    const again = await t.request('POST', '/v0/logs/join', {
      key,
      json: { project_name: 'shop', pair_of_args: pair, join_expr: 'A.user_id == B.user_id', mode: 'outer', new_context: 'joined' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toMatch(/already exists/);
    expect((await t.request('GET', '/v0/logs/metric/count?project_name=shop&context=joined&key=amount', { key })).json()).toBe(3);
    // Another tenant cannot materialise your contexts.
    const theirs = await t.request('POST', '/v0/logs/join', { key: other, json: { ...base, new_context: 'stolen' } });
    expect(theirs.statusCode).toBe(404);
  });
});
