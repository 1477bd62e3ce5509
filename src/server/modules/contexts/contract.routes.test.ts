import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { contextUrl } from './context-url.ts';
import { pathSegments } from './foreign-keys.ts';

// The context routes as the platform's Python SDK drives them (logs-api.md §6, §7 "DELETE …/contexts"), on
// the real database: names with "/" sent as raw path segments, batch creates, children, races.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function setup(t: TestApp, project = 'demo') {
  const u = await t.user();
  const call = (method: Method, url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: project })).statusCode).toBe(200);
  const create = async (body: unknown) => {
    const res = await call('POST', `/v0/project/${project}/contexts`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = async () => (await call('GET', `/v0/project/${project}/contexts`)).json().map((c: { name: string }) => c.name);
  const log = async (context: string, entries: Record<string, unknown>) => {
    const res = await call('POST', '/v0/logs', { project_name: project, context: { name: context }, entries });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids[0] as number;
  };
  return { u, call, create, names, log };
}

const base = '/v0/project/P/contexts';

describe('context names in the path (contextUrl)', () => {
  it('re-encodes a multi-segment name into one segment, routing by suffix per method', () => {
    expect(contextUrl('GET', `${base}/a/b/c`)).toBe(`${base}/a%2Fb%2Fc`);
    expect(contextUrl('DELETE', `${base}/a/b?include_children=True`)).toBe(`${base}/a%2Fb?include_children=True`);
    expect(contextUrl('GET', `${base}//a/b/`)).toBe(`${base}/a%2Fb`);
    expect(contextUrl('POST', `${base}/a/b/commit`)).toBe(`${base}/a%2Fb/commit`);
    expect(contextUrl('POST', `${base}/a/b/rollback`)).toBe(`${base}/a%2Fb/rollback`);
    expect(contextUrl('GET', `${base}/a/b/commits`)).toBe(`${base}/a%2Fb/commits`);
    expect(contextUrl('PATCH', `${base}/a/b/rename`)).toBe(`${base}/a%2Fb/rename`);
    // An action word with another method is part of the name.
    expect(contextUrl('GET', `${base}/a/commit`)).toBe(`${base}/a%2Fcommit`);
    expect(contextUrl('DELETE', `${base}/a/rename`)).toBe(`${base}/a%2Frename`);
    // Percent-escapes decoded per segment (an encoded "/" joins like a raw one).
    expect(contextUrl('GET', `${base}/%61/b%2Fc%20d`)).toBe(`${base}/a%2Fb%2Fc%20d`);
    expect(contextUrl('GET', `${base}/a/%zz`)).toBe(`${base}/a/%zz`);
    // add_logs is the action only for POST of the one segment.
    expect(contextUrl('POST', `${base}/add_logs`)).toBe(`${base}/add_logs`);
    expect(contextUrl('GET', `${base}/x/add_logs`)).toBe(`${base}/x%2Fadd_logs`);
    // Roster's row routes: one segment before logs; several segments are the contract's name.
    expect(contextUrl('GET', `${base}/a%2Fb/logs?offset=1`)).toBe(`${base}/a%2Fb/logs?offset=1`);
    expect(contextUrl('POST', `${base}/runs/logs`)).toBe(`${base}/runs/logs`);
    expect(contextUrl('PATCH', `${base}/a%2Fb/logs/12`)).toBe(`${base}/a%2Fb/logs/12`);
    expect(contextUrl('DELETE', `${base}/runs/logs/abc`)).toBe(`${base}/runs/logs/abc`);
    expect(contextUrl('GET', `${base}/a/b/logs`)).toBe(`${base}/a%2Fb%2Flogs`);
    expect(contextUrl('DELETE', `${base}/a/b/logs/1`)).toBe(`${base}/a%2Fb%2Flogs%2F1`);
    expect(contextUrl('DELETE', `${base}/runs/logs`)).toBe(`${base}/runs%2Flogs`);
    // Other addresses are left alone.
    expect(contextUrl('GET', base)).toBe(base);
    expect(contextUrl('GET', '/v0/logs?context=a/b')).toBe('/v0/logs?context=a/b');
  });

  it('reads foreign key paths into segments', () => {
    expect(pathSegments('teams[*].members[*].user_id')).toEqual([
      { name: 'teams', is_array: true, is_wildcard: true, array_index: null },
      { name: 'members', is_array: true, is_wildcard: true, array_index: null },
      { name: 'user_id', is_array: false, is_wildcard: false, array_index: null },
    ]);
    expect(pathSegments('items[0].id')[0]).toEqual({ name: 'items', is_array: true, is_wildcard: false, array_index: 0 });
  });
});

describe('context routes (logs-api.md §6)', () => {
  it('serves raw multi-segment names: get, commit, commits, rollback, delete; row routes with the encoded name', async () => {
    const t = await makeTestApp();
    const { call, create } = await setup(t);
    await create({ name: 'a/b/c', is_versioned: true });
    await create({ name: 'a/b/logs' });
    const got = await call('GET', '/v0/project/demo/contexts/a/b/c');
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().name).toBe('a/b/c');
    expect((await call('GET', '/v0/project/demo/contexts/a/b/c/')).json().name).toBe('a/b/c');
    expect((await call('GET', '/v0/project/demo/contexts/a/b%2Fc')).json().name).toBe('a/b/c');
    // Rows through Roster's routes, name encoded as one segment (as the dashboard sends it).
    const added = await call('POST', '/v0/project/demo/contexts/a%2Fb%2Fc/logs', { entries: [{ x: 1 }] });
    expect(added.statusCode, added.body).toBe(200);
    const [id] = added.json().ids;
    const commit = await call('POST', '/v0/project/demo/contexts/a/b/c/commit', { commit_message: 'first' });
    expect(commit.statusCode, commit.body).toBe(200);
    const hash = commit.json().commit_hash;
    expect((await call('PATCH', `/v0/project/demo/contexts/a%2Fb%2Fc/logs/${id}`, { entries: { x: 2 } })).statusCode).toBe(200);
    const history = await call('GET', '/v0/project/demo/contexts/a/b/c/commits');
    expect(history.json().map((c: { commit_hash: string }) => c.commit_hash)).toEqual([hash]);
    const rolled = await call('POST', '/v0/project/demo/contexts/a/b/c/rollback', { commit_hash: hash });
    expect(rolled.statusCode, rolled.body).toBe(200);
    expect((await call('GET', '/v0/project/demo/contexts/a%2Fb%2Fc/logs')).json().logs[0].entries).toEqual({ x: 1 });
    // A raw …/a/b/logs is the context named a/b/logs; a/b's rows are at a%2Fb/logs (a/b does not exist: 404).
    expect((await call('GET', '/v0/project/demo/contexts/a/b/logs')).json().name).toBe('a/b/logs');
    expect((await call('GET', '/v0/project/demo/contexts/a%2Fb/logs')).statusCode).toBe(404);
    expect((await call('DELETE', `/v0/project/demo/contexts/a%2Fb%2Fc/logs/${id}`)).statusCode).toBe(200);
    const deleted = await call('DELETE', '/v0/project/demo/contexts/a/b/c?include_children=False');
    expect(deleted.json()).toEqual({ info: 'Context deleted successfully!', deleted: ['a/b/c'] });
    // The longest name with the most "/" still fits one segment once re-encoded.
    const longest = `${'a/'.repeat(127)}a`;
    await create({ name: longest });
    expect((await call('GET', `/v0/project/demo/contexts/${longest}`)).json().name).toBe(longest);
    // A context called add_logs is read like any other; POST …/add_logs is the action, not a create.
    await create({ name: 'add_logs' });
    expect((await call('GET', '/v0/project/demo/contexts/add_logs')).json().name).toBe('add_logs');
    const action = await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'x', log_ids: [999999] });
    expect(action.statusCode).toBe(400);
    expect(action.json().detail).toContain('not found');
  });

  it("answers the contract's keys for one context; lists name and description, never the default context", async () => {
    const t = await makeTestApp();
    const { call, create, log } = await setup(t);
    await create({ name: 'runs/r1', description: 'nightly', unique_keys: ['run'], is_versioned: null, allow_duplicates: null, auto_counting: null, foreign_keys: null });
    await log('', { a: 1 });
    const got = (await call('GET', '/v0/project/demo/contexts/runs/r1')).json();
    expect(got).toMatchObject({
      name: 'runs/r1',
      description: 'nightly',
      is_versioned: false,
      allow_duplicates: true,
      unique_keys: ['run'],
      auto_counting: {},
      foreign_keys: [],
    });
    const list = (await call('GET', '/v0/project/demo/contexts')).json();
    expect(list.map((c: { name: string; description: string }) => [c.name, c.description])).toEqual([['runs/r1', 'nightly']]);
    const missing = await call('GET', '/v0/project/demo/contexts/runs/r2');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toMatch(/not found/i);
  });

  it('renames a context: rows, fields and history follow; a taken name is 400 already exists', async () => {
    const t = await makeTestApp();
    const { call, create, names, log } = await setup(t);
    await create({ name: 'old/name', is_versioned: true });
    await create({ name: 'taken' });
    await create({ name: 'old/name/child' });
    const id = await log('old/name', { score: 1 });
    const hash = (await call('POST', '/v0/project/demo/contexts/old/name/commit', {})).json().commit_hash;
    const renamed = await call('PATCH', '/v0/project/demo/contexts/old/name/rename', { name: 'new/name' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().info).toContain('new/name');
    expect(await names()).toEqual(['new/name', 'old/name/child', 'taken']);
    const logs = (await call('GET', `/v0/logs?project_name=demo&context=${encodeURIComponent('new/name')}`)).json();
    expect(logs.logs.map((l: { id: number }) => l.id)).toEqual([id]);
    expect(Object.keys((await call('GET', '/v0/logs/fields?project_name=demo&context=new%2Fname')).json())).toEqual(['score']);
    expect((await call('GET', '/v0/project/demo/contexts/new/name/commits')).json()[0].commit_hash).toBe(hash);
    const clash = await call('PATCH', '/v0/project/demo/contexts/new/name/rename', { name: 'taken' });
    expect(clash.statusCode).toBe(400);
    expect(clash.body).toContain('already exists');
    const gone = await call('PATCH', '/v0/project/demo/contexts/old/name/rename', { name: 'other' });
    expect(gone.statusCode).toBe(404);
    expect((await call('PATCH', '/v0/project/demo/contexts/taken/rename', { name: 'bad name!' })).statusCode).toBe(422);
  });

  it('creates a batch from an array body (names or objects): 200 with created and per-item errors', async () => {
    const t = await makeTestApp();
    const { call, create, names } = await setup(t);
    await create({ name: 'exists' });
    const batch = await call('POST', '/v0/project/demo/contexts', ['x', { name: 'y', description: 'why', is_versioned: null }, 'exists', 'x', { name: 'bad name!' }, 42]);
    expect(batch.statusCode, batch.body).toBe(200);
    const body = batch.json();
    expect(body.created).toEqual(['x', 'y']);
    expect(body.errors.map((e: { index: number; name: string | null }) => [e.index, e.name])).toEqual([
      [2, 'exists'],
      [3, 'x'],
      [4, 'bad name!'],
      [5, null],
    ]);
    expect(body.errors[0].error).toContain('already exists');
    expect(body.errors[1].error).toContain('already exists');
    expect(typeof body.info).toBe('string');
    // A one-item array is a batch too.
    const one = await call('POST', '/v0/project/demo/contexts', ['exists']);
    expect(one.statusCode).toBe(200);
    expect(one.json().errors[0].error).toContain('already exists');
    expect(await names()).toEqual(['exists', 'x', 'y']);
    expect((await call('GET', '/v0/project/demo/contexts/y')).json().description).toBe('why');
    // A single create of a taken name is a 400.
    const single = await call('POST', '/v0/project/demo/contexts', { name: 'exists' });
    expect(single.statusCode).toBe(400);
    expect(single.body).toContain('already exists');
  });

  it('races: ten creates give one success and nine 400 already exists; ten deletes one success and nine 404 not found; batches all 200', async () => {
    const t = await makeTestApp();
    const { call, names } = await setup(t);
    const creates = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/v0/project/demo/contexts', { name: 'race/one' })));
    expect(creates.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const lost = creates.filter((r) => r.statusCode !== 200);
    expect(lost.map((r) => r.statusCode)).toEqual(Array(9).fill(400));
    for (const r of lost) expect(r.body).toContain('already exists');
    const deletes = await Promise.all(Array.from({ length: 10 }, () => call('DELETE', '/v0/project/demo/contexts/race/one?include_children=True')));
    expect(deletes.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const missed = deletes.filter((r) => r.statusCode !== 200);
    expect(missed.map((r) => r.statusCode)).toEqual(Array(9).fill(404));
    for (const r of missed) expect(r.body.toLowerCase()).toContain('not found');
    const batches = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/v0/project/demo/contexts', ['b/1', 'b/2'])));
    expect(batches.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(batches.flatMap((r) => r.json().created).sort()).toEqual(['b/1', 'b/2']);
    expect(await names()).toEqual(['b/1', 'b/2']);
  });

  it('deletes children (names under C/, not prefix siblings) with include_children=True|true, even without the parent', async () => {
    const t = await makeTestApp();
    const { call, create, names, log } = await setup(t);
    for (const name of ['test_call', 'test_call/a', 'test_call/a/b', 'test_call_to_sms', 'runs/r1', 'runs/r2', 'keep']) await create({ name });
    const inChild = await log('test_call/a', { v: 1 });
    const kept = await log('test_call_to_sms', { v: 2 });
    const res = await call('DELETE', '/v0/project/demo/contexts/test_call?include_children=True');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deleted).toEqual(['test_call', 'test_call/a', 'test_call/a/b']);
    expect(await names()).toEqual(['keep', 'runs/r1', 'runs/r2', 'test_call_to_sms']);
    // The child's logs went with it; the sibling's stayed.
    const ids = (await t.db.selectFrom('context_rows').select('id').execute()).map((r) => Number(r.id));
    expect(ids).not.toContain(inChild);
    expect(ids).toContain(kept);
    // runs itself was never created: its children are deleted, 200 (logs-api.md §14 step 11).
    const orphans = await call('DELETE', '/v0/project/demo/contexts/runs?include_children=true');
    expect(orphans.statusCode, orphans.body).toBe(200);
    expect(orphans.json().deleted).toEqual(['runs/r1', 'runs/r2']);
    // Without children (False, or absent) only the exact name; nothing to delete is 404 not found.
    await create({ name: 'keep/child' });
    expect((await call('DELETE', '/v0/project/demo/contexts/keep?include_children=FALSE')).json().deleted).toEqual(['keep']);
    expect(await names()).toEqual(['keep/child', 'test_call_to_sms']);
    const none = await call('DELETE', '/v0/project/demo/contexts/keep?include_children=False');
    expect(none.statusCode).toBe(404);
    expect(none.body.toLowerCase()).toContain('not found');
    expect((await call('DELETE', '/v0/project/demo/contexts/nothing/here?include_children=True')).statusCode).toBe(404);
    expect((await call('DELETE', '/v0/project/demo/contexts/keep?include_children=maybe')).statusCode).toBe(422);
  });

  it('DELETE /v0/project/{P}/contexts deletes every context and its logs, the default one too, and keeps the project', async () => {
    const t = await makeTestApp();
    const { call, create, names, log } = await setup(t);
    await setup(t, 'other');
    await create(['a', 'a/b', 'c']);
    await log('a', { x: 1 });
    await log('', { x: 2 });
    const res = await call('DELETE', '/v0/project/demo/contexts');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ info: expect.any(String) });
    expect(await names()).toEqual([]);
    expect((await call('GET', '/v0/projects')).json()).toContain('demo');
    expect((await call('GET', '/v0/logs?project_name=demo&context=')).json().logs).toEqual([]);
    // Nothing left: still 200. An unknown project is 404 not found.
    expect((await call('DELETE', '/v0/project/demo/contexts')).statusCode).toBe(200);
    const unknown = await call('DELETE', '/v0/project/nope/contexts');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.toLowerCase()).toContain('not found');
  });

  it('add_logs accepts logs already in the context and adds them to a second one (same ids); unknown ids are 400', async () => {
    const t = await makeTestApp();
    const { call, log } = await setup(t);
    const a = await log('runs/a', { x: 1 });
    const b = await log('runs/a', { x: 2 });
    const same = await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'runs/a', log_ids: [a, b] });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toEqual({ info: expect.stringContaining('runs/a') });
    const second = await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'runs/b', log_ids: [a] });
    expect(second.statusCode, second.body).toBe(200);
    const inB = await call('GET', `/v0/logs?project_name=demo&context=runs/b&return_ids_only=True`);
    expect(inB.json()).toEqual([a]);
    const unknown = await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'runs/a', log_ids: [a, 987654] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toContain('987654');
    // Another project's log is not found from here.
    await call('POST', '/v0/project', { name: 'other' });
    expect((await call('POST', '/v0/project/other/contexts/add_logs', { context_name: 'runs/a', log_ids: [a] })).statusCode).toBe(400);
    expect((await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'runs/a', log_ids: [] })).statusCode).toBe(422);
  });

  it('keeps and answers foreign keys (is_nested, path_segments) and the owner; nulls are unset; invalid ones are 422', async () => {
    const t = await makeTestApp();
    const { call, create } = await setup(t);
    await create({
      name: 'org/users',
      foreign_keys: [
        { name: 'tag_ids[*]', references: 'tags.id', on_delete: 'CASCADE', on_update: 'set null' },
        { name: 'metadata.user.user_id', references: 'org/departments.id', on_delete: null, on_update: null },
        { name: 'owner', references: 'people.id', on_delete: 'SET DEFAULT', default: 0 },
      ],
      owner_scope: 'team',
      owner_id: 'team-7',
    });
    const got = (await call('GET', '/v0/project/demo/contexts/org/users')).json();
    expect(got.foreign_keys).toEqual([
      {
        name: 'tag_ids[*]',
        references: 'tags.id',
        on_delete: 'CASCADE',
        on_update: 'SET NULL',
        is_nested: true,
        path_segments: [{ name: 'tag_ids', is_array: true, is_wildcard: true, array_index: null }],
      },
      {
        name: 'metadata.user.user_id',
        references: 'org/departments.id',
        on_delete: null,
        on_update: null,
        is_nested: true,
        path_segments: ['metadata', 'user', 'user_id'].map((name) => ({ name, is_array: false, is_wildcard: false, array_index: null })),
      },
      {
        name: 'owner',
        references: 'people.id',
        on_delete: 'SET DEFAULT',
        on_update: null,
        default: 0,
        is_nested: false,
        path_segments: [{ name: 'owner', is_array: false, is_wildcard: false, array_index: null }],
      },
    ]);
    expect(got).toMatchObject({ owner_scope: 'team', owner_id: 'team-7' });
    await create({ name: 'plain', owner_scope: null, owner_id: null, foreign_keys: null });
    expect((await call('GET', '/v0/project/demo/contexts/plain')).json()).toMatchObject({ foreign_keys: [], owner_scope: null, owner_id: null });
    for (const bad of [
      { name: 'x1', foreign_keys: [{ name: 'a', references: 'no-dot' }] },
      { name: 'x2', foreign_keys: [{ name: 'a', references: 't.id', on_delete: 'EXPLODE' }] },
      { name: 'x3', foreign_keys: [{ name: 'a..b', references: 't.id' }] },
      { name: 'x4', owner_scope: 'planet' },
    ]) {
      const res = await call('POST', '/v0/project/demo/contexts', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
    }
  });
});
