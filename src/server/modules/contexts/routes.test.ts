import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';

async function setup(t: TestApp, context: Record<string, unknown> = { name: 'runs', is_versioned: true }) {
  const u = await t.user();
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
  const created = await call('POST', '/v0/project/demo/contexts', context);
  expect(created.statusCode, created.body).toBe(200);
  return { u, call, logs: `/v0/project/demo/contexts/${context.name}/logs` };
}

describe('contexts', () => {
  it('lists with a literal, case-sensitive prefix (no wildcards)', async () => {
    const t = await makeTestApp();
    const { call } = await setup(t, { name: 'a_b/1' });
    for (const name of ['axb/2', 'a_b/3', 'A_b/4', 'aXb/5']) expect((await call('POST', '/v0/project/demo/contexts', { name })).statusCode).toBe(200);
    const names = async (prefix: string) =>
      (await call('GET', `/v0/project/demo/contexts?prefix=${encodeURIComponent(prefix)}`)).json().map((c: { name: string }) => c.name);
    expect(await names('a_b')).toEqual(['a_b/1', 'a_b/3']);
    expect(await names('a%')).toEqual([]);
    expect(await names('')).toHaveLength(5);
    const dup = await call('POST', '/v0/project/demo/contexts', { name: 'axb/2' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ detail: "A context named 'axb/2' already exists in the project." });
    expect((await call('GET', '/v0/project/nope/contexts')).json()).toEqual({ detail: 'Project not found.' });
  });

  it("takes the project's versioning when is_versioned is not given, and an explicit choice over it", async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const call = (method: 'GET' | 'POST', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    await call('POST', '/v0/project', { name: 'versioned', is_versioned: true });
    await call('POST', '/v0/project', { name: 'plain' });
    const versioned = async (project: string, body: Record<string, unknown>) => (await call('POST', `/v0/project/${project}/contexts`, body)).json().is_versioned;
    expect(await versioned('versioned', { name: 'a' })).toBe(true);
    expect(await versioned('versioned', { name: 'b', is_versioned: false })).toBe(false);
    expect(await versioned('plain', { name: 'a' })).toBe(false);
    expect(await versioned('plain', { name: 'b', is_versioned: true })).toBe(true);
  });

  it('searches names for a text anywhere, ignoring case, with % and _ as plain characters (extension `search`)', async () => {
    const t = await makeTestApp();
    const { call } = await setup(t, { name: 'runs/eval' });
    for (const name of ['Eval/nightly', 'a_b', 'axb']) expect((await call('POST', '/v0/project/demo/contexts', { name })).statusCode).toBe(200);
    const names = async (query: string) => (await call('GET', `/v0/project/demo/contexts?${query}`)).json().map((c: { name: string }) => c.name);
    expect(await names('search=eval')).toEqual(['Eval/nightly', 'runs/eval']);
    expect(await names('search=EVAL&prefix=runs')).toEqual(['runs/eval']);
    expect(await names('search=_')).toEqual(['a_b']);
    expect(await names(`search=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await names(`search=${encodeURIComponent('\\')}`)).toEqual([]);
    expect(await names('prefix=eval')).toEqual([]);
  });

  it('lists every field as the create answer gives it, in name order, on an empty project too', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const call = (method: 'GET' | 'POST', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    await call('POST', '/v0/project', { name: 'demo' });
    expect((await call('GET', '/v0/project/demo/contexts')).json()).toEqual([]);
    const description = 'Quotes " \\ back\\slash, tab\t, newline\n, émoji 🚀 and <b>markup</b>';
    const created = await call('POST', '/v0/project/demo/contexts', {
      name: 'b/runs',
      description,
      is_versioned: true,
      allow_duplicates: false,
      unique_keys: { zeta: 'str', alpha: 'int' },
      auto_counting: { step: 'zeta', n: null },
    });
    expect(created.statusCode, created.body).toBe(200);
    await call('POST', '/v0/project/demo/contexts', { name: 'a/plain' });
    const list = await call('GET', '/v0/project/demo/contexts');
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const [plain, runs] = list.json();
    expect(runs).toEqual(created.json());
    expect(runs).toEqual({
      name: 'b/runs',
      description,
      is_versioned: true,
      allow_duplicates: false,
      unique_keys: ['zeta', 'alpha'],
      unique_key_types: { zeta: 'str', alpha: 'int' },
      auto_counting: { step: 'zeta', n: null },
      head_commit_hash: null,
      uncommitted_changes: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      foreign_keys: [],
      owner_scope: null,
      owner_id: null,
    });
    expect(plain).toMatchObject({ name: 'a/plain', is_versioned: false, allow_duplicates: true, unique_keys: [], unique_key_types: {}, auto_counting: {} });
    await call('POST', '/v0/project/demo/contexts/b%2Fruns/logs', { entries: [{ zeta: 'x', alpha: 1 }] });
    const hash = (await call('POST', '/v0/project/demo/contexts/b%2Fruns/commit', {})).json().commit_hash;
    expect((await call('GET', '/v0/project/demo/contexts?prefix=b/')).json()).toEqual([{ ...runs, head_commit_hash: hash }]);
  });

  it('keeps text that spells the escape for a NUL, and refuses a NUL, in a new row and an edit', async () => {
    const t = await makeTestApp();
    const { call, logs } = await setup(t);
    const spelt = 'C:\\u0000\\logs';
    const created = await call('POST', logs, { entries: [{ path: spelt }] });
    expect(created.statusCode, created.body).toBe(200);
    const [id] = created.json().ids;
    expect((await call('PATCH', `${logs}/${id}`, { entries: { path: `${spelt}!` } })).statusCode).toBe(200);
    expect((await call('GET', logs)).json().logs.map((r: { entries: unknown }) => r.entries)).toEqual([{ path: `${spelt}!` }]);
    expect((await call('POST', logs, { entries: [{ path: 'a\u0000' }] })).statusCode).toBe(422);
    expect((await call('PATCH', `${logs}/${id}`, { entries: { path: 'a\u0000' } })).statusCode).toBe(422);
  });

  it('enforces unique keys (with types), refused duplicates and auto counting within a parent', async () => {
    const t = await makeTestApp();
    const { call, logs } = await setup(t, { name: 'runs', unique_keys: { run: 'int' }, allow_duplicates: false, auto_counting: { step: 'run', n: null } });
    const ok = await call('POST', logs, { entries: [{ run: 1 }, { run: 2 }] });
    expect(ok.statusCode).toBe(200);
    const clash = await call('POST', logs, { entries: [{ run: 3 }, { run: 1 }] });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail).toContain('same unique key (run)');
    const missing = await call('POST', logs, { entries: [{ other: 1 }] });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail[0].loc).toEqual(['body', 'entries', 0, 'run']);
    const typed = await call('POST', logs, { entries: [{ run: 'x' }] });
    expect(typed.json().detail[0].msg).toBe('Must be of type int (unique key of this context).');
    const rows = (await call('GET', logs)).json();
    // The failed batch wrote nothing: run 3 is not there.
    expect(rows.count).toBe(2);
    expect(rows.logs.map((r: { entries: Record<string, unknown> }) => r.entries)).toEqual([
      { run: 1, step: 0, n: 0 },
      { run: 2, step: 0, n: 1 },
    ]);
  });

  it('refuses identical rows when duplicates are not allowed', async () => {
    const t = await makeTestApp();
    const { call, logs } = await setup(t, { name: 'dedup', allow_duplicates: false });
    expect((await call('POST', logs, { entries: [{ a: 1, b: 2 }] })).statusCode).toBe(200);
    const dup = await call('POST', logs, { entries: [{ b: 2, a: 1 }] });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toContain('does not allow duplicates');
  });

  it('versions as a DAG: A→B→C, roll back to A, commit D ⇒ A.next = {B, D}, C kept, rolling back to C restores its rows', async () => {
    const t = await makeTestApp();
    const { call, logs } = await setup(t);
    const commit = async (message: string) => (await call('POST', '/v0/project/demo/contexts/runs/commit', { commit_message: message })).json().commit_hash as string;
    const { ids } = (await call('POST', logs, { entries: [{ v: 'a1' }, { v: 'a2' }] })).json();
    const A = await commit('A');
    await call('PATCH', `${logs}/${ids[0]}`, { entries: { v: 'b1' } });
    const B = await commit('B');
    await call('DELETE', `${logs}/${ids[1]}`);
    await call('POST', logs, { entries: [{ v: 'c3' }] });
    const C = await commit('C');
    const rowsOf = async () => (await call('GET', logs)).json().logs.map((r: { id: number; entries: { v: string } }) => [r.id, r.entries.v]);
    const atC = await rowsOf();

    const back = await call('POST', '/v0/project/demo/contexts/runs/rollback', { commit_hash: A });
    expect(back.json()).toEqual({ status: 'success', message: `Context runs rolled back to ${A}`, auto_saved_commit_hash: null });
    expect(await rowsOf()).toEqual([
      [ids[0], 'a1'],
      [ids[1], 'a2'],
    ]);
    await call('POST', logs, { entries: [{ v: 'd' }] });
    const D = await commit('D');

    const history = (await call('GET', '/v0/project/demo/contexts/runs/commits')).json();
    const byHash = Object.fromEntries(history.map((c: { commit_hash: string }) => [c.commit_hash, c]));
    expect(history.map((c: { commit_message: string }) => c.commit_message)).toEqual(['D', 'C', 'B', 'A']);
    expect(new Set(byHash[A].next_commit_hashes)).toEqual(new Set([B, D]));
    // Children oldest first, under both spellings (the contract's next_commit_hash and Roster's next_commit_hashes).
    expect(byHash[A].next_commit_hashes).toEqual([B, D]);
    expect(byHash[A].next_commit_hash).toEqual([B, D]);
    expect(byHash[D].prev_commit_hash).toBe(A);
    expect(byHash[D].is_head).toBe(true);
    expect(byHash[C]).toBeDefined();
    expect(A).toMatch(/^[0-9a-f]{64}$/);

    await call('POST', '/v0/project/demo/contexts/runs/rollback', { commit_hash: C });
    expect(await rowsOf()).toEqual(atC);
    // Read-only view of a commit.
    const atB = (await call('GET', `${logs}?commit=${B}`)).json();
    expect(atB.logs.map((r: { entries: { v: string } }) => r.entries.v)).toEqual(['b1', 'a2']);
  });

  it('auto-saves uncommitted changes before a rollback, so nothing is lost', async () => {
    const t = await makeTestApp();
    const { call, logs } = await setup(t);
    await call('POST', logs, { entries: [{ v: 1 }] });
    const A = (await call('POST', '/v0/project/demo/contexts/runs/commit', {})).json().commit_hash;
    await call('POST', logs, { entries: [{ v: 2 }] });
    const back = (await call('POST', '/v0/project/demo/contexts/runs/rollback', { commit_hash: A })).json();
    expect(back.auto_saved_commit_hash).toMatch(/^[0-9a-f]{64}$/);
    const history = (await call('GET', '/v0/project/demo/contexts/runs/commits')).json();
    expect(history[0].commit_message).toBe(`Auto-saved before rollback to ${A}`);
    expect(history[0].row_count).toBe(2);
    await call('POST', '/v0/project/demo/contexts/runs/rollback', { commit_hash: back.auto_saved_commit_hash });
    expect((await call('GET', logs)).json().count).toBe(2);
  });

  it('counts uncommitted changes per context: rows changed since HEAD, zero after a commit or a rollback', async () => {
    const t = await makeTestApp();
    const { call, logs } = await setup(t);
    const pending = async () => (await call('GET', '/v0/project/demo/contexts')).json().find((c: { name: string }) => c.name === 'runs').uncommitted_changes;
    expect(await pending()).toBe(0);
    const { ids } = (await call('POST', logs, { entries: [{ v: 1 }, { v: 2 }] })).json();
    expect(await pending()).toBe(2);
    const A = (await call('POST', '/v0/project/demo/contexts/runs/commit', {})).json().commit_hash;
    expect(await pending()).toBe(0);
    await call('PATCH', `${logs}/${ids[0]}`, { entries: { v: 3 } });
    await call('PATCH', `${logs}/${ids[0]}`, { entries: { v: 4 } });
    await call('DELETE', `${logs}/${ids[1]}`);
    expect(await pending()).toBe(2);
    await call('POST', '/v0/project/demo/contexts/runs/rollback', { commit_hash: A });
    expect(await pending()).toBe(0);
    // Net change: a row added and deleted again since HEAD leaves nothing to commit.
    const added = (await call('POST', logs, { entries: [{ v: 5 }] })).json().ids[0];
    expect(await pending()).toBe(1);
    await call('DELETE', `${logs}/${added}`);
    expect(await pending()).toBe(0);
    expect((await call('GET', logs)).json().count).toBe(2);
    const plain = await call('POST', '/v0/project/demo/contexts', { name: 'plain' });
    expect(plain.json().uncommitted_changes).toBe(0);
    await call('POST', '/v0/project/demo/contexts/plain/logs', { entries: [{ v: 1 }] });
    expect((await call('GET', '/v0/project/demo/contexts?prefix=plain')).json()[0].uncommitted_changes).toBe(0);
  });

  it('rollback errors: unknown hash 400 with the spec wording, unknown context 404; commit on an unversioned context 400', async () => {
    const t = await makeTestApp();
    const { call } = await setup(t);
    const unknown = await call('POST', '/v0/project/demo/contexts/runs/rollback', { commit_hash: 'f'.repeat(64) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ detail: `Commit hash ${'f'.repeat(64)} not found for context runs.` });
    expect((await call('POST', '/v0/project/demo/contexts/nope/rollback', { commit_hash: 'x' })).statusCode).toBe(404);
    expect((await call('POST', '/v0/project/demo/contexts/runs/rollback', {})).statusCode).toBe(422);
    await call('POST', '/v0/project/demo/contexts', { name: 'plain' });
    const plain = await call('POST', '/v0/project/demo/contexts/plain/commit', {});
    expect(plain.json()).toEqual({ detail: 'Context is not versioned.' });
  });

  it('another tenant’s context is 404 and a Viewer cannot write', async () => {
    const t = await makeTestApp();
    const { logs } = await setup(t);
    const other = await t.user();
    expect((await t.request('GET', logs, { key: other.apiKey })).statusCode).toBe(404);
    const owner = await t.user();
    const org = await t.org(owner);
    const viewer = await t.user();
    const viewerKey = await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
    expect((await t.request('POST', '/v0/project', { key: org.ownerKey, json: { name: 'team' } })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/projects', { key: viewerKey })).json()).toContain('team');
    const denied = await t.request('POST', '/v0/project/team/contexts', { key: viewerKey, json: { name: 'x' } });
    expect(denied.statusCode).toBe(403);
  });
});
