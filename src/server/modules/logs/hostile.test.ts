import { describe, expect, it } from 'vitest';
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH } from '../../../shared/logs-filter/index.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { makeTestApp } from '../../testing/harness.ts';

// The logs routes against careless and hostile callers: other tenants, read-only members, filters built
// to exhaust the parser or the database, names that are JavaScript's own. Never a 5xx, never someone
// else's data.

describe('logs API, hostile callers', () => {
  it('another tenant reaches nothing of a project, by name or by log id', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const stranger = await t.user();
    const as = (key: string) => (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, json?: unknown) => t.request(method, url, { key, json });
    const mine = as(owner.apiKey);
    const theirs = as(stranger.apiKey);
    await mine('POST', '/v0/project', { name: 'demo' });
    const [id] = (await mine('POST', '/v0/logs', { project_name: 'demo', context: 'c', entries: { secret: 's' } })).json().log_event_ids;
    // The stranger has a project of the same name: still not the owner's.
    await theirs('POST', '/v0/project', { name: 'demo' });
    expect((await theirs('GET', '/v0/logs?project_name=demo&context=c')).statusCode).toBe(404);
    expect((await theirs('GET', '/v0/logs/fields?project_name=demo&context=c')).statusCode).toBe(404);
    expect((await theirs('GET', '/v0/logs/metric/count?project_name=demo&context=c&key=secret')).statusCode).toBe(404);
    expect((await theirs('PUT', '/v0/logs', { logs: [id], entries: { secret: 'x' }, overwrite: true })).statusCode).toBe(404);
    expect((await theirs('DELETE', '/v0/logs', { project_name: 'demo', context: 'c', ids_and_fields: [[[id], null]] })).statusCode).toBe(404);
    expect((await theirs('DELETE', '/v0/logs/fields', { project_name: 'demo', context: 'c', fields: ['secret'] })).statusCode).toBe(404);
    expect((await theirs('PATCH', '/v0/logs/rename_field', { project_name: 'demo', context: 'c', old_field_name: 'secret', new_field_name: 'x' })).statusCode).toBe(404);
    // Writing to their own "demo" never lands in the owner's.
    await theirs('POST', '/v0/logs', { project_name: 'demo', context: 'c', entries: { mine: 1 } });
    expect((await mine('GET', '/v0/logs?project_name=demo&context=c')).json().logs.map((l: { entries: unknown }) => l.entries)).toEqual([{ secret: 's' }]);
  });

  it('a Viewer of the organization reads logs but cannot write them', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    const viewerKey = await t.member(org.organizationId, await t.user(), ROLE_IDS.Viewer);
    await t.request('POST', '/v0/project', { key: org.ownerKey, json: { name: 'shared' } });
    await t.request('POST', '/v0/logs', { key: org.ownerKey, json: { project_name: 'shared', context: 'c', entries: { a: 1 } } });
    expect((await t.request('GET', '/v0/logs?project_name=shared&context=c', { key: viewerKey })).json().count).toBe(1);
    const write = await t.request('POST', '/v0/logs', { key: viewerKey, json: { project_name: 'shared', context: 'c', entries: { a: 2 } } });
    expect(write.statusCode).toBe(403);
    expect((await t.request('DELETE', '/v0/logs/fields', { key: viewerKey, json: { project_name: 'shared', context: 'c', fields: ['a'] } })).statusCode).toBe(403);
  });

  it('filters built to exhaust the parser or the database are refused or answered, never a 5xx', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'p' } });
    await t.request('POST', '/v0/logs', {
      key: u.apiKey,
      json: {
        project_name: 'p',
        context: 'c',
        entries: [
          { x: 1, s: 'a' },
          { x: 2, s: 'b' },
        ],
      },
    });
    const read = (filter: string) =>
      t.request('GET', `/v0/logs?${new URLSearchParams({ project_name: 'p', context: 'c', filter, return_ids_only: 'True' })}`, { key: u.apiKey });
    const hostile = [
      '('.repeat(MAX_FILTER_DEPTH * 4),
      `${'('.repeat(MAX_FILTER_DEPTH + 2)}x${')'.repeat(MAX_FILTER_DEPTH + 2)}`,
      'not '.repeat(5000) + 'x',
      'x' + ' or x'.repeat(Math.floor(MAX_FILTER_LENGTH / 5)),
      'x == 1 ' + 'and x == 1 '.repeat(700),
      `x in [${Array.from({ length: 1500 }, (_, i) => i).join(', ')}]`,
      's * 100000000',
      "s + s + s + s == 'aaaa'",
      '1 / 0 == 1',
      'x // 0 == 1',
      'x ** -1 > 0',
      "len(len) > len('x')",
      '__proto__ == 1',
      "constructor.prototype == 'x'",
      "{'__proto__': 1} == x",
      '`\\`` == 1',
      "'\\ud800' in s",
      '1e309 > x',
      '[] in x',
      "x.get('a', 'b', 'c')",
      'x[0:1:2]',
    ];
    for (const filter of hostile) {
      const res = await read(filter);
      expect(res.statusCode < 500, `${filter.slice(0, 60)} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(true);
      if (res.statusCode !== 200) expect(res.json().detail, filter.slice(0, 60)).toBeDefined();
    }
  });

  it('a field called __proto__ is a field like any other', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const call = (method: 'GET' | 'POST', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    await call('POST', '/v0/project', { name: 'p' });
    const body = '{"project_name":"p","context":"c","entries":{"__proto__":{"polluted":true},"constructor":1}}';
    const created = await t.request('POST', '/v0/logs', { key: u.apiKey, payload: body, headers: { 'content-type': 'application/json' } });
    expect(created.statusCode, created.body).toBe(200);
    const logs = (await call('GET', '/v0/logs?project_name=p&context=c')).json().logs;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(logs).toHaveLength(1);
    // Stored and answered as sent (an object literal would set the prototype instead: compare with JSON's).
    expect(logs[0].entries).toEqual(JSON.parse('{"__proto__":{"polluted":true},"constructor":1}'));
    expect(Object.keys(logs[0].entries)).toEqual(['__proto__', 'constructor']);
    const fields = await call('GET', '/v0/logs/fields?project_name=p&context=c');
    expect(fields.statusCode).toBe(200);
    expect(Object.keys(fields.json())).toEqual(expect.arrayContaining(['__proto__', 'constructor']));
    // An update sets it like any other field; a row written by the row routes keeps it too.
    const update = '{"logs":' + logs[0].id + ',"entries":{"__proto__":{"y":2}},"overwrite":true}';
    const updated = await t.request('PUT', '/v0/logs', { key: u.apiKey, payload: update, headers: { 'content-type': 'application/json' } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call('GET', '/v0/logs?project_name=p&context=c')).json().logs[0].entries).toEqual(JSON.parse('{"__proto__":{"y":2},"constructor":1}'));
    await call('POST', '/v0/project/p/contexts', { name: 'rows' });
    const row = '{"entries":[{"__proto__":{"x":1},"b":2}]}';
    expect(
      (await t.request('POST', '/v0/project/p/contexts/rows/logs', { key: u.apiKey, payload: row, headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(200);
    expect((await call('GET', '/v0/project/p/contexts/rows/logs')).json().logs[0].entries).toEqual(JSON.parse('{"__proto__":{"x":1},"b":2}'));
    expect(Object.keys((await call('GET', '/v0/logs/fields?project_name=p&context=rows')).json())).toEqual(['__proto__', 'b']);
    expect((await call('GET', '/v0/logs/metric/count?project_name=p&context=c&key=constructor&group_by=constructor')).statusCode).toBe(200);
    // Sorted by it: the read's sorting text, and a join's sorting as text or as the object.
    for (const entries of ['{"__proto__":"a","n":1}', '{"__proto__":"b","n":2}']) {
      const res = await t.request('POST', '/v0/logs', {
        key: u.apiKey,
        payload: `{"project_name":"p","context":"s","entries":${entries}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const sorting = '{"__proto__":"descending"}';
    const read = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: 'p', context: 's', sorting })}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().logs.map((l: { entries: { n: number } }) => l.entries.n)).toEqual([2, 1]);
    const pair = '"pair_of_args":[{"context":"s"},{"context":"s"}],"join_expr":"A.n == B.n","columns":["A.n","A.__proto__"]';
    // JSON text: in an object literal, __proto__ would set the prototype instead of naming a key.
    for (const given of [JSON.stringify(sorting), sorting]) {
      const joined = await t.request('POST', '/v0/logs/join_query', {
        key: u.apiKey,
        payload: `{"project_name":"p",${pair},"sorting":${given}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(joined.statusCode, `${given} → ${joined.body}`).toBe(200);
      expect(joined.json().logs.map((l: { entries: { n: number } }) => l.entries.n)).toEqual([2, 1]);
    }
  });

  it('a map keyed by field names refuses __proto__ with a 422 that names it, rather than dropping it', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const send = (method: 'POST' | 'PUT', url: string, body: string) =>
      t.request(method, url, { key: u.apiKey, payload: body, headers: { 'content-type': 'application/json' } });
    expect((await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'p' } })).statusCode).toBe(200);
    expect((await send('POST', '/v0/logs', '{"project_name":"p","context":"c","entries":{"a":1}}')).statusCode).toBe(200);
    const fieldsOf = async () => (await t.request('GET', '/v0/logs/fields?project_name=p&context=c', { key: u.apiKey })).json();
    const fieldsBefore = await fieldsOf();
    const pair = '"pair_of_args":[{"context":"c"},{"context":"c"}],"join_expr":"A.a == B.a"';
    // JSON text: in an object literal, __proto__ would set the prototype instead of naming a key.
    const cases: [string, string, string[]][] = [
      ['/v0/logs', '{"project_name":"p","context":{"name":"new","unique_keys":{"__proto__":"int"}},"entries":{"a":1}}', ['context', 'unique_keys']],
      ['/v0/logs', '{"project_name":"p","context":{"name":"new","auto_counting":{"__proto__":null}},"entries":{"a":1}}', ['context', 'auto_counting']],
      ['/v0/logs/fields', '{"project_name":"p","context":"c","fields":{"b":{"type":"int"},"__proto__":{"type":"str"}}}', ['fields']],
      ['/v0/logs/claim', '{"project":"p","context":"c","expect":{"__proto__":1},"updates":{"a":2}}', ['expect']],
      ['/v0/logs/claim', '{"project":"p","context":"c","expect":{"a":1},"updates":{"__proto__":2}}', ['updates']],
      ['/v0/logs/derived', '{"project_name":"p","context":"c","key":"k","equation":"1","referenced_logs":{"__proto__":[1]}}', ['referenced_logs']],
      ['/v0/logs/join_query', `{"project_name":"p",${pair},"columns":{"__proto__":"x"}}`, ['columns']],
      ['/v0/project/p/contexts', '{"name":"rows","unique_keys":{"__proto__":"int"}}', ['unique_keys']],
      ['/v0/project/p/contexts', '{"name":"rows","auto_counting":{"__proto__":null}}', ['auto_counting']],
    ];
    for (const [url, body, path] of cases) {
      const res = await send('POST', url, body);
      expect(res.statusCode, `${url} ${body} → ${res.body}`).toBe(422);
      expect(res.json().detail, body).toContainEqual(
        expect.objectContaining({ loc: ['body', ...path, '__proto__'], msg: 'The name __proto__ is not accepted here; rename the field.' }),
      );
    }
    // Nothing was written by the refused calls.
    const logs = (await t.request('GET', '/v0/logs?project_name=p&context=c', { key: u.apiKey })).json();
    expect(logs.logs.map((l: { entries: unknown }) => l.entries)).toEqual([{ a: 1 }]);
    expect(await fieldsOf()).toEqual(fieldsBefore);
    const unmade = await t.request('GET', '/v0/logs?project_name=p&context=new', { key: u.apiKey });
    expect(unmade.statusCode, unmade.body).toBe(404);
    expect((await t.request('GET', '/v0/project/p/contexts', { key: u.apiKey })).json().map((c: { name: string }) => c.name)).not.toContain('rows');
  });
});
