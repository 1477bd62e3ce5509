import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// The logs API as the platform's Python SDK drives it (logs-api.md §4, §12, §14), on the real database.

async function setup(t: TestApp, project = 'demo') {
  const u = await t.user();
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: project })).statusCode).toBe(200);
  const read = async (params: Record<string, string>) => {
    const res = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: project, ...params })}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  return { u, call, read };
}

/** What `log(**entries)` sends: every field with explicit_types {mutable: true} (§4.1). */
const sdkEntry = (entries: Record<string, unknown>) => ({
  ...entries,
  explicit_types: Object.fromEntries(Object.keys(entries).map((k) => [k, { mutable: true }])),
});

describe('POST /v0/logs', () => {
  it('creates one log and a batch in a context created on first write; explicit_types is never stored', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    const one = await call('POST', '/v0/logs', { project_name: 'demo', context: { name: 'runs/r1' }, entries: sdkEntry({ question: '2+2?', answer: '4', score: 1.0 }) });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({ info: 'Logs created successfully!', log_event_ids: [expect.any(Number)], row_ids: null, auto_counting: {} });
    const batch = await call('POST', '/v0/logs', { project_name: 'demo', context: { name: 'runs/r1' }, entries: [sdkEntry({ score: 0.2 }), sdkEntry({ score: 0.8 })] });
    const [a, b] = batch.json().log_event_ids;
    const [first] = one.json().log_event_ids;
    expect(a).toBeGreaterThan(first);
    const all = await read({ context: 'runs/r1' });
    expect(all.count).toBe(3);
    expect(all.logs.map((l: { id: number }) => l.id)).toEqual([b, a, first]);
    expect(all.logs[2]).toEqual({ id: first, ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), entries: { question: '2+2?', answer: '4', score: 1 }, derived_entries: {} });
    expect(Object.keys(all.logs[2].entries)).toEqual(['question', 'answer', 'score']);
    // Only the named context was created, not its parent; the default context is never listed.
    const contexts = (await call('GET', '/v0/project/demo/contexts')).json().map((c: { name: string }) => c.name);
    expect(contexts).toEqual(['runs/r1']);
    // The async logger sends the context as a plain string; the default context is "".
    const plain = await call('POST', '/v0/logs', { project_name: 'demo', context: '', entries: { x: 1 } });
    expect(plain.statusCode).toBe(200);
    expect((await read({ context: '' })).logs.map((l: { entries: unknown }) => l.entries)).toEqual([{ x: 1 }]);
    expect((await call('GET', '/v0/project/demo/contexts')).json()).toHaveLength(1);
    // create_logs(entries=None) sends an empty batch.
    expect((await call('POST', '/v0/logs', { project_name: 'demo', context: { name: 'runs/r1' }, entries: [] })).json().log_event_ids).toEqual([]);
    // An empty log is accepted and never returned.
    expect((await call('POST', '/v0/logs', { project_name: 'demo', context: { name: 'runs/r1' }, entries: { explicit_types: {} } })).statusCode).toBe(200);
    expect((await read({ context: 'runs/r1' })).count).toBe(3);
  });

  it('reports entries that do not fit their field type and stores the rest; all failing is a 400', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    await call('POST', '/v0/logs', { project_name: 'demo', context: 'typed', entries: { n: 1 } });
    const res = await call('POST', '/v0/logs', { project_name: 'demo', context: 'typed', entries: [{ n: 2 }, { n: 'abc' }, { n: 3 }, { n: true }, { n: null }] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.log_event_ids).toHaveLength(3);
    expect(body.failed).toEqual([
      { index: 1, error: `Field 'n' has type int; the value "abc" does not fit it.` },
      { index: 3, error: `Field 'n' has type int; the value true does not fit it.` },
    ]);
    const logs = (await read({ context: 'typed', return_ids_only: 'False' })).logs;
    expect(logs.map((l: { id: number; entries: unknown }) => [l.id, l.entries])).toEqual([
      [body.log_event_ids[2], { n: null }],
      [body.log_event_ids[1], { n: 3 }],
      [body.log_event_ids[0], { n: 2 }],
      [expect.any(Number), { n: 1 }],
    ]);
    const none = await call('POST', '/v0/logs', { project_name: 'demo', context: 'typed', entries: [{ n: 'x' }] });
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toContain("Field 'n' has type int");
    // An explicit type overrides inference, and a later write is checked against it.
    await call('POST', '/v0/logs', { project_name: 'demo', context: 'typed', entries: { img: 'iVBORw0KGgo=', explicit_types: { img: { type: 'str' } } } });
    expect((await call('POST', '/v0/logs', { project_name: 'demo', context: 'typed', entries: { img: 5 } })).statusCode).toBe(400);
    expect((await call('POST', '/v0/logs', { project_name: 'demo', context: 'typed', entries: { bad: 1, explicit_types: { bad: { type: 'nope' } } } })).statusCode).toBe(
      400,
    );
  });

  it('answers row_ids and auto_counting for a context with unique keys and counters, echoing given values', async () => {
    const t = await makeTestApp();
    const { call } = await setup(t);
    const context = { name: 'steps', unique_keys: { run_id: 'int', step_id: 'int' }, auto_counting: { run_id: null, step_id: 'run_id', ticket_id: null } };
    const first = await call('POST', '/v0/logs', { project_name: 'demo', context, entries: [{}] });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ row_ids: { names: ['run_id', 'step_id'], ids: [[0, 0]] }, auto_counting: { run_id: [0], step_id: [0], ticket_id: [0] } });
    const more = await call('POST', '/v0/logs', { project_name: 'demo', context, entries: [{ run_id: 0 }, { run_id: 0, ticket_id: 999 }] });
    expect(more.json()).toMatchObject({
      row_ids: {
        ids: [
          [0, 1],
          [0, 2],
        ],
      },
      auto_counting: { step_id: [1, 2], ticket_id: [1, 999] },
    });
    // A clash rejects the whole request (400) unless on_duplicate is "skip", where the first one wins.
    const clash = await call('POST', '/v0/logs', {
      project_name: 'demo',
      context: 'steps',
      entries: [
        { run_id: 5, step_id: 0 },
        { run_id: 0, step_id: 1 },
      ],
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().detail).toContain('same unique key');
    const skip = await call('POST', '/v0/logs', {
      project_name: 'demo',
      context: 'steps',
      on_duplicate: 'skip',
      entries: [
        { run_id: 5, step_id: 0 },
        { run_id: 0, step_id: 1 },
      ],
    });
    expect(skip.statusCode, skip.body).toBe(200);
    expect(skip.json().log_event_ids).toHaveLength(1);
    expect(skip.json().failed).toEqual([{ index: 1, error: expect.stringContaining('same unique key') }]);
  });

  it('explicit_types declares each field by its name (constructor and __proto__ too); a malformed one fails its entry', async () => {
    const t = await makeTestApp();
    const { u, call } = await setup(t);
    // JSON text: in an object literal, __proto__ would set the prototype instead of naming a field.
    const payload = `{"project_name":"demo","context":"x","entries":[
      {"a":1,"constructor":2.5,"__proto__":"p","explicit_types":{"a":{"type":"int","mutable":false},"constructor":{"type":"float","description":"c"},"__proto__":{"type":"str","description":"p"}}},
      {"b":1,"explicit_types":{"b":{"type":"nonsense"}}},
      {"c":1,"explicit_types":["c"]},
      {"d":1,"explicit_types":{"d":{"mutable":"yes"}}}]}`;
    const res = await t.request('POST', '/v0/logs', { key: u.apiKey, payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().log_event_ids).toHaveLength(1);
    expect(res.json().failed).toEqual(
      [1, 2, 3].map((index) => ({ index, error: expect.stringMatching(/^explicit_types must map field names to \{type, mutable, unique, description\}: ./) })),
    );
    const fields = (await call('GET', '/v0/logs/fields?project_name=demo&context=x')).json();
    expect(Object.keys(fields)).toEqual(['a', 'constructor', '__proto__']);
    expect(fields.a).toMatchObject({ data_type: 'int', mutable: false });
    expect(fields.constructor).toMatchObject({ data_type: 'float', description: 'c' });
    expect(fields['__proto__']).toMatchObject({ data_type: 'str', description: 'p' });
  });

  it('stores text that spells an escape verbatim and refuses a real NUL, in a single log, a batch and an update', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    // Six characters: a backslash, then u0000 (a Windows path, a log of JSON escapes). Not a NUL.
    const spelt = 'C:\\u0000\\logs';
    const ok = await call('POST', '/v0/logs', { project_name: 'demo', context: 'nul', entries: [{ path: spelt }, { path: 'plain' }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().failed ?? []).toEqual([]);
    const [first] = ok.json().log_event_ids;
    expect((await call('PUT', '/v0/logs', { logs: [first], entries: { note: `${spelt}!` } })).statusCode).toBe(200);
    expect((await read({ context: 'nul' })).logs.map((l: { entries: unknown }) => l.entries)).toEqual([{ path: 'plain' }, { path: spelt, note: `${spelt}!` }]);
    // A filter may spell it too (\\ is the filter's escape for a backslash).
    expect(await read({ context: 'nul', filter: "path == 'C:\\\\u0000\\\\logs'", return_ids_only: 'True' })).toEqual([first]);
    // A NUL cannot be stored on PostgreSQL (jsonb): refused for the whole request, naming where it is.
    for (const [method, body, loc] of [
      ['POST', { project_name: 'demo', context: 'nul', entries: [{ a: 1 }, { b: 'x\u0000' }] }, ['body', 'entries', 1, 'b']],
      ['POST', { project_name: 'demo', context: 'nul', entries: { ['k\u0000']: 1 } }, ['body', 'entries', 'k\u0000']],
      ['PUT', { logs: [first], entries: { note: '\u0000' } }, ['body', 'entries', 'note']],
    ] as const) {
      const refused = await call(method, '/v0/logs', body);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().detail[0]).toMatchObject({ type: 'string_invalid', loc });
    }
    expect((await read({ context: 'nul' })).count).toBe(2);
  });

  it('refuses an unknown project with 404 and oversized bodies with 413 before parsing', async () => {
    const t = await makeTestApp();
    const { call, u } = await setup(t);
    const missing = await call('POST', '/v0/logs', { project_name: 'nope', context: { name: '' }, entries: { a: 1 } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toContain('not found');
    const huge = `{"project_name":"demo","entries":{"a":"${'x'.repeat(65 * 1024 * 1024)}"}}`;
    const tooLarge = await t.request('POST', '/v0/logs', { key: u.apiKey, payload: huge, headers: { 'content-type': 'application/json' } });
    expect(tooLarge.statusCode).toBe(413);
    // Bodies beyond the server's general 2 MB limit are fine here (the SDK sends ~10 MB batches).
    const big = Array.from({ length: 2000 }, (_, i) => ({ i, text: 'y'.repeat(2000) }));
    const ok = await call('POST', '/v0/logs', { project_name: 'demo', context: 'big', entries: big });
    expect(ok.statusCode, ok.body.slice(0, 200)).toBe(200);
    expect(ok.json().log_event_ids).toHaveLength(2000);
  });
});

describe('GET /v0/logs', () => {
  it('pages, selects ids and fields, truncates values; unknown contexts are 404', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    const created = await call('POST', '/v0/logs', {
      project_name: 'demo',
      context: 'c',
      entries: [{ x: 1, y: 'hello world' }, { x: 2 }, { y: 'b' }, { x: 4, y: 'c' }],
    });
    const ids: number[] = created.json().log_event_ids;
    expect((await read({ context: 'c', limit: '2', offset: '1', return_ids_only: 'True' })).map(Number)).toEqual([ids[2], ids[1]]);
    const page = await read({ context: 'c', limit: '2' });
    expect(page.count).toBe(4);
    expect(page.logs).toHaveLength(2);
    expect(await read({ context: 'c', from_ids: `${ids[0]}&${ids[1]}`, return_ids_only: 'true' })).toEqual([ids[1], ids[0]]);
    expect(await read({ context: 'c', exclude_ids: `${ids[0]}&${ids[1]}`, return_ids_only: 'True' })).toEqual([ids[3], ids[2]]);
    const onlyX = await read({ context: 'c', from_fields: 'x' });
    expect(onlyX.logs.map((l: { entries: unknown }) => l.entries)).toEqual([{ x: 4 }, { x: 2 }, { x: 1 }]);
    // A log left with nothing after exclude_fields is omitted.
    const noX = await read({ context: 'c', exclude_fields: 'x' });
    expect(noX.logs.map((l: { entries: unknown }) => l.entries)).toEqual([{ y: 'c' }, { y: 'b' }, { y: 'hello world' }]);
    expect(noX.count).toBe(3);
    expect((await read({ context: 'c', value_limit: '5', from_ids: String(ids[0]) })).logs[0].entries).toEqual({ x: 1, y: 'hello...' });
    expect((await call('GET', '/v0/logs?project_name=demo&context=c&from_ids=1&exclude_ids=2')).statusCode).toBe(400);
    expect((await call('GET', '/v0/logs?project_name=demo&context=c&limit=1001')).statusCode).toBe(422);
    const unknown = await call('GET', '/v0/logs?project_name=demo&context=nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe("Context 'nope' not found for project 'demo'.");
    // The default context reads as empty before anything was written to it.
    expect(await read({ context: '' })).toEqual({ logs: [], count: 0 });
    // Every parameter the current release always sends is accepted.
    expect(
      (
        await call(
          'GET',
          '/v0/logs?project_name=demo&context=c&filter=x+%3E+1&limit=1000&offset=0&return_ids_only=False&column_context=&group_offset=0&nested_groups=True&return_sort_distance=False',
        )
      ).json().count,
    ).toBe(2);
  });

  it('groups by fields, nested (as the SDK walks it) and flat', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    const rows = [
      { name: 'John', msg: 'Hello', n: 0 },
      { name: 'John', msg: 'Bye', n: 1 },
      { name: 'Ann', msg: 'Hello', n: 0 },
      { name: 'John', msg: 'Hello', flag: true },
    ];
    const ids: number[] = (await call('POST', '/v0/logs', { project_name: 'demo', context: 'g', entries: rows })).json().log_event_ids;
    const nested = await read({ context: 'g', group_by: 'name', nested_groups: 'True', group_offset: '0', filter: "msg != 'x'" });
    const params = new URLSearchParams({ project_name: 'demo', context: 'g', nested_groups: 'True' });
    params.append('group_by', 'name');
    params.append('group_by', 'msg');
    const two = (await call('GET', `/v0/logs?${params}`)).json();
    expect(nested.count).toBe(4);
    expect(nested.logs.name.group.map((g: { key: string; value: { id: number }[] }) => [g.key, g.value.map((r) => r.id)])).toEqual([
      ['John', [ids[3], ids[1], ids[0]]],
      ['Ann', [ids[2]]],
    ]);
    expect(two.logs.name).toMatchObject({ group_count: 2, count: 4 });
    const john = two.logs.name.group[0];
    expect(john.value.msg.group.map((g: { key: string; value: { id: number }[] }) => [g.key, g.value.map((r) => r.id)])).toEqual([
      ['Hello', [ids[3], ids[0]]],
      ['Bye', [ids[1]]],
    ]);
    expect(john.value.msg.group[0].value[0]).toEqual({ id: ids[3], ts: expect.any(String), entries: rows[3], derived_entries: {} });
    // Keys are strings; a missing value is "null"; groups page at every level.
    const byN = await read({ context: 'g', group_by: 'n', group_limit: '2', group_offset: '1' });
    expect(byN.logs.n).toMatchObject({ group_count: 3, group: [{ key: '0' }, { key: '1' }] });
    const flat = await read({ context: 'g', group_by: 'flag', nested_groups: 'False' });
    expect(flat.groups).toEqual({ flag: { True: [ids[3]], null: [ids[2], ids[1], ids[0]], group_count: 2, count: 4 } });
    expect(flat.logs).toHaveLength(4);
    const only = await read({ context: 'g', group_by: 'name', groups_only: 'True' });
    expect(only.logs.name.group[1]).toEqual({ key: 'Ann', value: [ids[2]] });
  });

  it('never shows another tenant’s logs', async () => {
    const t = await makeTestApp();
    const { call } = await setup(t);
    const other = await setup(t, 'other');
    const id = (await call('POST', '/v0/logs', { project_name: 'demo', context: 'c', entries: { secret: 1 } })).json().log_event_ids[0];
    expect((await other.call('GET', '/v0/logs?project_name=demo&context=c')).statusCode).toBe(404);
    const put = await other.call('PUT', '/v0/logs', { logs: [id], entries: { secret: 2 }, overwrite: true });
    expect(put.statusCode).toBe(404);
    expect(put.json().detail).toBe(`Logs not found: ${id}.`);
    expect((await other.call('DELETE', '/v0/logs', { project_name: 'demo', context: 'c', ids_and_fields: [[[id], null]] })).statusCode).toBe(404);
  });
});

describe('PUT /v0/logs', () => {
  it('adds fields, overwrites only with overwrite, refuses immutable fields per log and answers log_event_ids', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    const created = await call('POST', '/v0/logs', {
      project_name: 'demo',
      context: { name: 'r' },
      entries: [sdkEntry({ score: 1.0 }), { fixed: 'a', explicit_types: { fixed: { mutable: false } } }],
    });
    const [n, m] = created.json().log_event_ids;
    const refused = await call('PUT', '/v0/logs', { logs: [n], context: null, overwrite: false, entries: { score: 0.5 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain('cannot be overwritten because overwrite is set to False');
    const ok = await call('PUT', '/v0/logs', { logs: [n], context: null, overwrite: true, entries: { score: 0.5 } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ info: 'Logs updated successfully!', log_event_ids: [n], modified_keys: ['score'], failed: [] });
    const added = await call('PUT', '/v0/logs', { logs: [n], context: { name: 'r' }, overwrite: false, entries: sdkEntry({ extra: 'b' }) });
    expect(added.statusCode).toBe(200);
    expect((await read({ context: 'r', from_ids: String(n) })).logs[0].entries).toEqual({ score: 0.5, extra: 'b' });
    // One object per log; an immutable field fails that log only.
    const mixed = await call('PUT', '/v0/logs', { logs: [n, m], overwrite: true, entries: [{ score: 0.7 }, { fixed: 'z' }] });
    expect(mixed.statusCode).toBe(200);
    expect(mixed.json().log_event_ids).toEqual([n]);
    expect(mixed.json().failed).toEqual([{ log_event_id: m, error: expect.stringContaining('immutable') }]);
    expect((await call('PUT', '/v0/logs', { logs: [n], overwrite: true, entries: { score: 'text' } })).statusCode).toBe(400);
    expect((await call('PUT', '/v0/logs', { logs: [n, m], entries: [{ a: 1 }] })).statusCode).toBe(400);
    expect((await call('PUT', '/v0/logs', { logs: [n, 999999], entries: { a: 1 } })).statusCode).toBe(404);
  });
});

describe('PATCH /v0/logs/{id}/fields/{field}/atomic', () => {
  it('applies +, *, -, / in sequence and concurrent increments all count', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    const [id] = (await call('POST', '/v0/logs', { project_name: 'demo', context: 'a', entries: { n: 10 } })).json().log_event_ids;
    const apply = async (operation: string, field = 'n') => call('PATCH', `/v0/logs/${id}/fields/${field}/atomic`, { operation });
    const values = [];
    for (const op of ['+5', '*2', '-10', '/4']) values.push((await apply(op)).json().new_value);
    expect(values).toEqual([15, 30, 20, 5]);
    await Promise.all(Array.from({ length: 10 }, () => apply('+1')));
    expect((await read({ context: 'a' })).logs[0].entries.n).toBe(15);
    expect((await apply('+1.5', 'fresh')).json()).toEqual({ new_value: 1.5 });
    expect((await apply('/0')).statusCode).toBe(400);
    expect((await apply('x1')).statusCode).toBe(422);
    await call('PUT', '/v0/logs', { logs: [id], entries: { s: 'text' } });
    expect((await apply('+1', 's')).statusCode).toBe(400);
    expect((await call('PATCH', '/v0/logs/999999/fields/n/atomic', { operation: '+1' })).statusCode).toBe(404);
  });
});

describe('DELETE /v0/logs', () => {
  it('deletes whole logs or fields, with delete_empty_logs from the query or the body', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    const ids: number[] = (await call('POST', '/v0/logs', { project_name: 'demo', context: 'c', entries: [{ a: 1, b: 2 }, { a: 3 }, { a: 5 }, { b: 6 }] })).json()
      .log_event_ids;
    const whole = await call('DELETE', '/v0/logs?delete_empty_logs=False', {
      project_name: 'demo',
      context: 'c',
      ids_and_fields: [[[ids[0]], null]],
      source_type: 'all',
    });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(await read({ context: 'c', return_ids_only: 'True' })).toEqual([ids[3], ids[2], ids[1]]);
    // Removing `a` from log 1 without delete_empty_logs leaves an empty log: it exists but is not returned.
    await call('DELETE', '/v0/logs?delete_empty_logs=False', { project_name: 'demo', context: 'c', ids_and_fields: [[[ids[1]], ['a']]] });
    expect(await read({ context: 'c', return_ids_only: 'True' })).toEqual([ids[3], ids[2]]);
    await call('DELETE', '/v0/logs', { project_name: 'demo', context: 'c', ids_and_fields: [[ids[2], 'a']], delete_empty_logs: true });
    expect((await call('GET', `/v0/project/demo/contexts/c/logs`)).json().logs.map((l: { id: number }) => l.id)).toEqual([ids[1], ids[3]]);
    await call('DELETE', '/v0/logs', { project_name: 'demo', context: 'c', ids_and_fields: [[null, null]] });
    expect((await read({ context: 'c' })).count).toBe(0);
    expect((await call('DELETE', '/v0/logs', { project_name: 'demo', context: 'c', ids_and_fields: [[null, null]], source_type: 'other' })).statusCode).toBe(422);
    expect((await call('DELETE', '/v0/logs', { project_name: 'demo', context: 'nope', ids_and_fields: [[null, null]] })).statusCode).toBe(404);
  });
});

describe('one store with the row routes and versions', () => {
  it('a log is a row: listed by the row routes, edited there, committed and rolled back', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    expect((await call('POST', '/v0/project/demo/contexts', { name: 'v', is_versioned: true })).statusCode).toBe(200);
    const [id] = (await call('POST', '/v0/logs', { project_name: 'demo', context: { name: 'v' }, entries: sdkEntry({ score: 1 }) })).json().log_event_ids;
    const rows = (await call('GET', '/v0/project/demo/contexts/v/logs')).json();
    expect(rows.logs).toEqual([expect.objectContaining({ id, entries: { score: 1 } })]);
    const hash = (await call('POST', '/v0/project/demo/contexts/v/commit', { commit_message: 'one' })).json().commit_hash;
    await call('PUT', '/v0/logs', { logs: [id], overwrite: true, entries: { score: 2 } });
    expect((await call('PATCH', `/v0/project/demo/contexts/v/logs/${id}`, { entries: { note: 'from the dashboard' } })).statusCode).toBe(200);
    expect((await read({ context: 'v' })).logs[0].entries).toEqual({ score: 2, note: 'from the dashboard' });
    expect((await call('POST', '/v0/project/demo/contexts/v/rollback', { commit_hash: hash })).statusCode).toBe(200);
    expect((await read({ context: 'v' })).logs[0]).toMatchObject({ id, entries: { score: 1 } });
  });
});

describe('/v0/logs/fields and rename_field', () => {
  it('lists types in creation order, declares, deletes and renames fields in every log', async () => {
    const t = await makeTestApp();
    const { call, read } = await setup(t);
    await call('POST', '/v0/logs', {
      project_name: 'demo',
      context: { name: 'f' },
      entries: sdkEntry({ question: 'q', answer: 'a', score: 1.5, n: 2, ok: true, tags: [], meta: {} }),
    });
    const fields = (await call('GET', '/v0/logs/fields?project_name=demo&context=f')).json();
    expect(Object.keys(fields)).toEqual(['question', 'answer', 'score', 'n', 'ok', 'tags', 'meta']);
    expect(Object.values(fields).map((f) => (f as { data_type: string }).data_type)).toEqual(['str', 'str', 'float', 'int', 'bool', 'list', 'dict']);
    expect(fields.question).toEqual({ data_type: 'str', field_type: 'entry', mutable: true, unique: false, description: '', created_at: expect.any(String) });
    expect((await call('GET', '/v0/logs/fields?project_name=demo&context=')).json()).toEqual({});
    expect((await call('GET', '/v0/logs/fields?project_name=demo&context=nope')).statusCode).toBe(404);

    const created = await call('POST', '/v0/logs/fields', {
      project_name: 'demo',
      context: 'f',
      fields: { when: 'datetime', anything: null, label: { type: 'str', mutable: false, description: 'd' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ info: expect.any(String) });
    const after = (await call('GET', '/v0/logs/fields?project_name=demo&context=f')).json();
    expect(after.when.data_type).toBe('datetime');
    expect(after.anything.data_type).toBe('Any');
    expect(after.label).toMatchObject({ mutable: false, description: 'd' });
    expect((await call('POST', '/v0/logs', { project_name: 'demo', context: 'f', entries: { when: 'yesterday' } })).statusCode).toBe(400);
    expect((await call('POST', '/v0/logs', { project_name: 'demo', context: 'f', entries: { when: '2026-04-08T12:00:03+00:00', anything: 3 } })).statusCode).toBe(200);
    // An untyped field stays untyped unless the write asks to infer it.
    expect((await call('GET', '/v0/logs/fields?project_name=demo&context=f')).json().anything.data_type).toBe('Any');
    await call('POST', '/v0/logs', { project_name: 'demo', context: 'f', entries: { anything: 4, infer_untyped_fields: true } });
    expect((await call('GET', '/v0/logs/fields?project_name=demo&context=f')).json().anything.data_type).toBe('int');

    const renamed = await call('PATCH', '/v0/logs/rename_field', { project_name: 'demo', context: 'f', old_field_name: 'answer', new_field_name: 'reply' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const first = (await read({ context: 'f', sorting: '{"score": "ascending"}', limit: '1' })).logs[0];
    expect(Object.keys(first.entries)).toEqual(['question', 'reply', 'score', 'n', 'ok', 'tags', 'meta']);
    expect(Object.keys((await call('GET', '/v0/logs/fields?project_name=demo&context=f')).json())).toContain('reply');
    expect((await call('PATCH', '/v0/logs/rename_field', { project_name: 'demo', context: 'f', old_field_name: 'nope', new_field_name: 'x' })).statusCode).toBe(404);
    expect((await call('PATCH', '/v0/logs/rename_field', { project_name: 'demo', context: 'f', old_field_name: 'reply', new_field_name: 'score' })).statusCode).toBe(400);

    expect((await call('DELETE', '/v0/logs/fields', { project_name: 'demo', context: 'f', fields: ['reply', 'question'] })).statusCode).toBe(200);
    const left = await call('GET', '/v0/logs/fields?project_name=demo&context=f');
    expect(Object.keys(left.json())).not.toContain('reply');
    expect(Object.keys((await read({ context: 'f', sorting: '{"score": "ascending"}', limit: '1' })).logs[0].entries)).toEqual(['score', 'n', 'ok', 'tags', 'meta']);
  });
});
