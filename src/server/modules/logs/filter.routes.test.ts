import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// The filter language's meaning, as compiled to SQL, against the real database (SQLite here, PostgreSQL
// under `npm run test:pg`): one context of five logs, one case per filter.

const LOGS = [
  { score: 0.2, name: 'alpha', tags: ['a', 'b'], meta: { user: 'ann', n: 1 }, flag: true, prompt: 'Will it rain today?' },
  { score: 0.8, name: 'beta', tags: ['b'], meta: { user: 'bob' }, flag: false, prompt: 'forecast please', x: 2 },
  { score: 0.5, name: "It's", tags: [], x: 5, 'Business time': 4 },
  { score: 'high', name: null, x: 3 },
  { other: 1, d: { '0': 'zero' } },
];

const CASES: [string, number[]][] = [
  ['score > 0.4', [1, 2]],
  ['score > 0.4 and score < 0.9', [1, 2]],
  ['score < 0.4 or score > 0.7', [0, 1]],
  ['score == 0.5', [2]],
  ['score != 0.5', [0, 1, 3, 4]],
  ['score >= "a"', [3]],
  ['name == "It\'s"', [2]],
  ["name == 'alpha' or name == 'beta'", [0, 1]],
  ['name == None', [3, 4]],
  ['name != None', [0, 1, 2]],
  ['name is not None', [0, 1, 2]],
  ['name is None', [3, 4]],
  ["'rain' in prompt", [0]],
  ["'Rain' in prompt", []],
  ["'b' in tags", [0, 1]],
  ["'b' not in tags", [2, 3, 4]],
  ['len(tags) > 1', [0]],
  ['len(tags) == 0', [2]],
  ['len(name) == 5', [0]],
  ['len(name) == 4', [1, 2]],
  ['x in [1, 2, 3]', [1, 3]],
  ['x not in [1, 2, 3]', [0, 2, 4]],
  ["meta['user'] == 'ann'", [0]],
  ["meta.user == 'bob'", [1]],
  ["'user' in meta", [0, 1]],
  ["meta.get('n', 7) == 1", [0]],
  ["tags[0] == 'a'", [0]],
  ["tags[-1] == 'b'", [0, 1]],
  ["d['0'] == 'zero'", [4]],
  // An index is not a key: d[0] of a dict is None, as in Python (KeyError) and on both databases.
  ["d[0] == 'zero'", []],
  ['`Business time` >= 3', [2]],
  ['flag', [0]],
  ['not flag', [1, 2, 3, 4]],
  ['flag == True', [0]],
  ['flag == False', [1]],
  ['missing > 1', []],
  ['missing == 1', []],
  ['missing != 1', [0, 1, 2, 3, 4]],
  ['0 < x < 4', [1, 3]],
  ['x * 2 == 10', [2]],
  ['x % 2 == 1', [2, 3]],
  ['x / 2 == 2.5', [2]],
  ['-x < -4', [2]],
  ['exists(other)', [4]],
  ["name.startswith('al')", [0]],
  ["name.endswith('ta')", [1]],
  ["name[0:2] == 'al'", [0]],
  ["isinstance(score, 'float')", [0, 1, 2]],
  ["type(score) == 'str'", [3]],
  ["tags == ['a', 'b']", [0]],
  ["(score > 0.4) and ('forecast' in prompt)", [1]],
  ["(temperature > 0.7 and (len(system_msg) < 80 or 'no' in reply))", []],
  ['', [0, 1, 2, 3, 4]],
];

describe('GET /v0/logs filter', () => {
  let t: TestApp;
  let key: string;
  let ids: number[];

  beforeAll(async () => {
    t = await makeTestApp({}, { shared: true });
    key = (await t.user()).apiKey;
    await t.request('POST', '/v0/project', { key, json: { name: 'demo' } });
    const created = await t.request('POST', '/v0/logs', {
      key,
      json: { project_name: 'demo', context: { name: 'runs' }, entries: LOGS.map((e, i) => (i === 0 ? { ...e, explicit_types: { score: { type: 'Any' } } } : e)) },
    });
    expect(created.statusCode, created.body).toBe(200);
    ids = created.json().log_event_ids;
    expect(ids).toHaveLength(LOGS.length);
  });
  afterAll(() => t.close());

  const read = (params: Record<string, string>) => t.request('GET', `/v0/logs?${new URLSearchParams({ project_name: 'demo', context: 'runs', ...params })}`, { key });

  it.each(CASES)('%s', async (filter, expected) => {
    const res = await read({ filter, return_ids_only: 'True' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(expected.map((i) => ids[i]).sort((a, b) => b - a));
  });

  it('accepts filter_expr (2026-04) and prefers filter when both are given', async () => {
    expect((await read({ filter_expr: 'score == 0.5', return_ids_only: 'True' })).json()).toEqual([ids[2]]);
    expect((await read({ filter_expr: 'score == 0.5', filter: 'score == 0.2', return_ids_only: 'True' })).json()).toEqual([ids[0]]);
  });

  it('a syntax error is a 422 with its position and what was expected', async () => {
    const res = await read({ filter: 'score >' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({
      type: 'filter_syntax',
      loc: ['query', 'filter'],
      msg: expect.stringMatching(/^Invalid filter expression: expected a value .* at position 7/),
      ctx: { position: 7 },
    });
    const legacy = await read({ filter_expr: "x == 'open" });
    expect(legacy.json().detail[0]).toMatchObject({ loc: ['query', 'filter_expr'], ctx: { position: 5 } });
    const unknown = await read({ filter: 'x > 1 and nope(x)' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail[0]).toMatchObject({ msg: expect.stringContaining('nope() is not supported'), ctx: { position: 10 } });
  });

  it('values are parameters: quotes and SQL in literals and field names match nothing and break nothing', async () => {
    const hostile = ['name == "x\' or 1=1 --"', '`a"b` == 1', "`x'); drop table context_rows; --` == 1", "name == '\\u0000'", "tags == ['\\x00']", 'x ** 100000 < 0'];
    for (const filter of hostile) {
      const res = await read({ filter, return_ids_only: 'True' });
      expect([200, 400, 422], res.body).toContain(res.statusCode);
      if (res.statusCode === 200) expect(res.json()).toEqual([]);
    }
    expect((await read({ return_ids_only: 'True' })).json()).toHaveLength(5);
  });

  it('compares numbers only with numbers, whatever else a field or the path to it holds', async () => {
    // On PostgreSQL a field against a number literal is a jsonpath predicate (filter-sql.ts): a list of numbers,
    // a boolean, a numeric string, a missing or non-object step must compare as false there too.
    const odd = [
      { v: [1, 0.7], m: { n: 2, deep: [0.1, 0.9] }, "a\\b c'": 1, explicit_types: { v: { type: 'Any' }, m: { type: 'Any' } } },
      { v: true, m: [2], "a\\b c'": 0 },
      { v: '0.7', m: 'n' },
      { v: 0.7, m: { n: 5.0, deep: [3] } },
      { v: 1e20, m: { n: -1 } },
    ];
    const created = await t.request('POST', '/v0/logs', { key, json: { project_name: 'demo', context: 'odd', entries: odd } });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().failed ?? [], created.body).toEqual([]);
    const oddIds: number[] = created.json().log_event_ids;
    const cases: [string, number[]][] = [
      ['v > 0.5', [3, 4]],
      ['0.5 < v', [3, 4]],
      ['v >= 0.7', [3, 4]],
      ['v <= 0.7', [3]],
      ['v == 0.7', [3]],
      ['v != 0.7', [0, 1, 2, 4]],
      ['v >= 1e20', [4]],
      ['v > 1e20', []],
      ['m.n >= 2', [0, 3]],
      ['5 == m.n', [3]],
      ["m['n'] < 0", [4]],
      ['m.deep[1] > 0.5', [0]],
      ['m.deep[0] > 0.5', [3]],
      ['m.deep[-1] > 0.5', [0, 3]],
      ['m[0] == 2', [1]],
      ["`a\\\\b c'` > 0", [0]],
      ['not (v > 0.5)', [0, 1, 2]],
    ];
    for (const [filter, expected] of cases) {
      const res = await t.request('GET', `/v0/logs?${new URLSearchParams({ project_name: 'demo', context: 'odd', filter, return_ids_only: 'True' })}`, { key });
      expect(res.statusCode, `${filter}: ${res.body}`).toBe(200);
      expect(res.json(), filter).toEqual(expected.map((i) => oddIds[i]).sort((a, b) => b - a));
    }
  });

  it('sorts by fields and expressions, then newest first', async () => {
    const sorted = async (sorting: unknown) => (await read({ sorting: JSON.stringify(sorting), return_ids_only: 'True' })).json();
    // Numbers first in order, then strings, then logs without the value.
    expect(await sorted({ score: 'ascending' })).toEqual([ids[0], ids[2], ids[1], ids[3], ids[4]]);
    expect(await sorted({ score: 'descending' })).toEqual([ids[1], ids[2], ids[0], ids[3], ids[4]]);
    expect(await sorted({ 'len(tags)': 'ascending', score: 'descending' })).toEqual([ids[2], ids[1], ids[0], ids[3], ids[4]]);
    const bad = await read({ sorting: '{nope' });
    expect(bad.statusCode).toBe(400);
    expect((await read({ sorting: '{"score": "up"}' })).statusCode).toBe(400);
    expect((await read({ sorting: '{"score >": "ascending"}' })).statusCode).toBe(422);
  });
});
