import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// GET /v0/logs/metric/{metric} (logs-api.md §4.5) over one context, on the real database.

describe('GET /v0/logs/metric', () => {
  let t: TestApp;
  let key: string;
  let ids: number[];

  beforeAll(async () => {
    t = await makeTestApp({}, { shared: true });
    key = (await t.user()).apiKey;
    await t.request('POST', '/v0/project', { key, json: { name: 'demo' } });
    const entries = [
      { score: 0.2, length: 10, category: 'A', model: 'X' },
      { score: 0.3, length: 20, category: 'A', model: 'Y' },
      { score: 0.8, length: 30, category: 'B', model: 'X' },
      { score: 0.9, length: 40, category: 'B', model: 'X' },
      { length: 5, category: 'B' },
    ];
    ids = (await t.request('POST', '/v0/logs', { key, json: { project_name: 'demo', context: 'm', entries } })).json().log_event_ids;
  });
  afterAll(() => t.close());

  const metric = async (name: string, params: Record<string, string>) => {
    const res = await t.request('GET', `/v0/logs/metric/${name}?${new URLSearchParams({ project_name: 'demo', context: 'm', ...params })}`, { key });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('reduces one key to a bare scalar, ignoring logs without it', async () => {
    expect(await metric('mean', { key: 'score' })).toBeCloseTo(0.55);
    expect(await metric('sum', { key: 'length' })).toBe(105);
    expect(await metric('count', { key: 'score' })).toBe(4);
    expect(await metric('min', { key: 'score' })).toBe(0.2);
    expect(await metric('max', { key: 'score' })).toBe(0.9);
    expect(await metric('median', { key: 'length' })).toBe(20);
    expect(await metric('median', { key: 'score' })).toBeCloseTo(0.55);
    expect(await metric('mode', { key: 'category' })).toBe('B');
    expect(await metric('var', { key: 'length' })).toBeCloseTo(164);
    expect(await metric('var', { key: 'score' })).toBeCloseTo(0.0925);
    expect(await metric('std', { key: 'length' })).toBeCloseTo(Math.sqrt(164));
    expect(await metric('mean', { key: 'nope' })).toBeNull();
  });

  it('filters (one expression, or one per key), selects ids, and answers a key list as an object', async () => {
    expect(await metric('mean', { key: 'score', filter: 'score > 0.25' })).toBeCloseTo(2 / 3);
    expect(await metric('mean', { key: 'score', filter_expr: "category == 'A'" })).toBeCloseTo(0.25);
    const both = await metric('mean', { key: '["score", "length"]', filter: JSON.stringify({ score: 'score > 0.3', length: 'length > 10' }) });
    expect(both.score).toBeCloseTo(0.85);
    expect(both.length).toBeCloseTo(30);
    expect(await metric('sum', { key: 'length', from_ids: `${ids[0]}&${ids[1]}` })).toBe(30);
    expect(await metric('sum', { key: 'length', exclude_ids: JSON.stringify({ length: `${ids[4]}` }) })).toBe(100);
  });

  it('groups: each leaf an object under the metric name, nested per group field', async () => {
    const byCategory = await metric('mean', { key: 'score', group_by: 'category' });
    expect(Object.keys(byCategory).sort()).toEqual(['A', 'B']);
    expect(byCategory.A.mean).toBeCloseTo(0.25);
    expect(byCategory.B.mean).toBeCloseTo(0.85);
    const nested = await metric('count', { key: 'length', group_by: '["category", "model"]' });
    expect(nested).toEqual({ A: { X: { count: 1 }, Y: { count: 1 } }, B: { X: { count: 2 }, null: { count: 1 } } });
    const perKey = await metric('max', { key: '["score", "length"]', group_by: 'category' });
    expect(perKey).toEqual({ score: { A: { max: 0.3 }, B: { max: 0.9 } }, length: { A: { max: 20 }, B: { max: 40 } } });
  });

  it('GET /v0/logs/groups: distinct values in first-seen order, filtered, ids repeated or joined', async () => {
    const groups = async (q: string) => {
      const res = await t.request('GET', `/v0/logs/groups?project_name=demo&context=m${q}`, { key });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await groups('&key=category')).toEqual({ 0: 'A', 1: 'B' });
    expect(await groups('&key=model')).toEqual({ 0: 'X', 1: 'Y' });
    expect(await groups(`&key=model&filter=${encodeURIComponent("category == 'B'")}`)).toEqual({ 0: 'X' });
    expect(await groups(`&key=length&from_ids=${ids[3]}&from_ids=${ids[4]}`)).toEqual({ 0: 40, 1: 5 });
    expect(await groups(`&key=length&exclude_ids=${ids[0]}%26${ids[1]}%26${ids[2]}`)).toEqual({ 0: 40, 1: 5 });
  });

  it('refuses a missing key, bad JSON and a bad filter', async () => {
    const get = (q: string) => t.request('GET', `/v0/logs/metric/mean?project_name=demo&context=m${q}`, { key });
    expect((await get('')).statusCode).toBe(422);
    expect((await get('&key=%5Bnope')).statusCode).toBe(400);
    expect((await get('&key=score&filter=score+%3E')).statusCode).toBe(422);
    expect((await t.request('GET', '/v0/logs/metric/average?project_name=demo&key=score', { key })).statusCode).toBe(422);
  });
});
