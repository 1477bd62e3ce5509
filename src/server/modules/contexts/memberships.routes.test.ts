import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// A log in several contexts with one id (logs-api.md §2, §4.3, §4.4, §6 add_logs), on the real database:
// reads, writes and deletes through any of its contexts, context deletion, and versions.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function setup(t: TestApp) {
  const u = await t.user();
  const call = (method: Method, url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/v0/project/demo/contexts', body);
    expect(res.statusCode, res.body).toBe(200);
  };
  const log = async (context: string, entries: Record<string, unknown>) => {
    const res = await call('POST', '/v0/logs', { project_name: 'demo', context: { name: context }, entries });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids[0] as number;
  };
  const addLogs = (context: string, ids: number[]) => call('POST', '/v0/project/demo/contexts/add_logs', { context_name: context, log_ids: ids });
  const q = (params: Record<string, string>) => new URLSearchParams({ project_name: 'demo', ...params }).toString();
  const ids = async (context: string, params: Record<string, string> = {}) => {
    const res = await call('GET', `/v0/logs?${q({ context, return_ids_only: 'True', ...params })}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as number[];
  };
  const read = async (context: string, params: Record<string, string> = {}) => {
    const res = await call('GET', `/v0/logs?${q({ context, ...params })}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { logs: { id: number; entries: Record<string, unknown> }[]; count: number };
  };
  const entriesOf = async (context: string, id: number) => (await read(context, { from_ids: String(id) })).logs[0]?.entries;
  const detach = (context: string, logIds: number[]) => call('DELETE', '/v0/logs', { project_name: 'demo', context, ids_and_fields: [[logIds, null]] });
  const exists = async (id: number) => (await call('PUT', '/v0/logs', { logs: [id], entries: {} })).statusCode === 200;
  const fields = async (context: string) => Object.keys((await call('GET', `/v0/logs/fields?${q({ context })}`)).json());
  return { call, create, log, addLogs, q, ids, read, entriesOf, detach, exists, fields };
}

/** l0, l1 in A; l2, l3 in B; l0, l1 added to B (the SDK's own test). */
async function sdkScenario(t: TestApp) {
  const s = await setup(t);
  const l0 = await s.log('A', { x: 1, tag: 'a' });
  const l1 = await s.log('A', { x: 2, tag: 'a' });
  const l2 = await s.log('B', { x: 3, tag: 'b', only_b: true });
  const l3 = await s.log('B', { x: 4, tag: 'b', only_b: true });
  const added = await s.addLogs('B', [l0, l1]);
  expect(added.statusCode, added.body).toBe(200);
  return { ...s, l0, l1, l2, l3 };
}

describe('logs in several contexts', () => {
  it('add_logs: the same ids become members, listed by id (newest first) in every read of the context', async () => {
    const t = await makeTestApp();
    const { call, ids, read, fields, l0, l1, l2, l3 } = await sdkScenario(t);
    expect(await ids('B')).toEqual([l3, l2, l1, l0]);
    expect(await ids('A')).toEqual([l1, l0]);
    const b = await read('B');
    expect(b.count).toBe(4);
    expect(b.logs.find((l) => l.id === l0)?.entries).toEqual({ x: 1, tag: 'a' });
    // The context's field list learned the members' fields.
    expect(await fields('B')).toEqual(['x', 'tag', 'only_b']);
    // Roster's row routes list them too, in id order, and count them.
    const rows = (await call('GET', '/v0/project/demo/contexts/B/logs')).json();
    expect(rows.count).toBe(4);
    expect(rows.logs.map((r: { id: number }) => r.id)).toEqual([l0, l1, l2, l3]);
    // The project's logs were not copied.
    expect((await read('A')).count + (await read('B')).count).toBe(6);
  });

  it('filters, sorts, metrics and groups over a context include its member logs', async () => {
    const t = await makeTestApp();
    const { call, q, ids, l0, l1, l2, l3 } = await sdkScenario(t);
    expect(await ids('B', { filter: "tag == 'a'" })).toEqual([l1, l0]);
    expect(await ids('B', { filter: 'x >= 2', sorting: JSON.stringify({ x: 'ascending' }) })).toEqual([l1, l2, l3]);
    const sum = await call('GET', `/v0/logs/metric/sum?${q({ context: 'B', key: 'x' })}`);
    expect(sum.json()).toBe(10);
    const grouped = await call('GET', `/v0/logs/metric/count?${q({ context: 'B', key: 'x', group_by: 'tag' })}`);
    expect(grouped.statusCode, grouped.body).toBe(200);
    expect(grouped.json()).toMatchObject({ a: { count: 2 }, b: { count: 2 } });
    const groups = await call('GET', `/v0/logs/groups?${q({ context: 'B', key: 'tag' })}`);
    expect(Object.values(groups.json()).sort()).toEqual(['a', 'b']);
    // A join over B sees them too.
    const join = await call('POST', '/v0/logs/join_query', {
      project_name: 'demo',
      pair_of_args: [{ context: 'B' }, { context: 'A' }],
      join_expr: 'A.x == B.x',
      mode: 'inner',
      offset: 0,
    });
    expect(join.statusCode, join.body).toBe(200);
    expect(join.json().count).toBe(2);
  });

  it('an update through one context is read back through the other (one log, one id)', async () => {
    const t = await makeTestApp();
    const { call, entriesOf, fields, l0 } = await sdkScenario(t);
    const put = await call('PUT', '/v0/logs', { logs: [l0], entries: { x: 10 }, overwrite: true, context: { name: 'B' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(await entriesOf('A', l0)).toEqual({ x: 10, tag: 'a' });
    // Through B, B's fields apply too: a new field is recorded in both contexts, a value B's type refuses fails.
    const added = await call('PUT', '/v0/logs', { logs: [l0], entries: { score: 0.5 }, context: { name: 'B' } });
    expect(added.statusCode, added.body).toBe(200);
    expect(await fields('A')).toEqual(['x', 'tag', 'score']);
    expect(await fields('B')).toEqual(['x', 'tag', 'only_b', 'score']);
    const refused = await call('PUT', '/v0/logs', { logs: [l0], entries: { only_b: 'text' }, context: 'B' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain('only_b');
    await call('PUT', '/v0/logs', { logs: [l0], entries: { score: null }, overwrite: true });
    expect(await entriesOf('A', l0)).toEqual({ x: 10, tag: 'a', score: null });
    await call('DELETE', '/v0/logs', { project_name: 'demo', context: 'A', ids_and_fields: [[[l0], ['score']]] });
    // Roster's row routes edit a member log through B, and A sees it.
    const patch = await call('PATCH', `/v0/project/demo/contexts/B/logs/${l0}`, { entries: { note: 'via B' } });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(await entriesOf('A', l0)).toEqual({ x: 10, tag: 'a', note: 'via B' });
    expect(await entriesOf('B', l0)).toEqual({ x: 10, tag: 'a', note: 'via B' });
    // The atomic update addresses it by id alone.
    expect((await call('PATCH', `/v0/logs/${l0}/fields/x/atomic`, { operation: '+1' })).statusCode).toBe(200);
    expect((await entriesOf('B', l0))?.x).toBe(11);
  });

  it('deleting through a context detaches the log from it; through its last context deletes it', async () => {
    const t = await makeTestApp();
    const { call, ids, detach, exists, l0, l1, l2, l3 } = await sdkScenario(t);
    // l0 is a member of B: leaving B keeps it in A.
    expect((await detach('B', [l0])).statusCode).toBe(200);
    expect(await ids('B')).toEqual([l3, l2, l1]);
    expect(await ids('A')).toEqual([l1, l0]);
    expect(await exists(l0)).toBe(true);
    // Its last context: gone.
    expect((await detach('A', [l0])).statusCode).toBe(200);
    expect(await exists(l0)).toBe(false);
    // l1's home is A: leaving A moves it home to B, where it stays with its entries.
    expect((await detach('A', [l1])).statusCode).toBe(200);
    expect(await ids('A')).toEqual([]);
    expect(await ids('B')).toEqual([l3, l2, l1]);
    // The row routes detach the same way; through its last context it is deleted.
    expect((await call('DELETE', `/v0/project/demo/contexts/B/logs/${l1}`)).statusCode).toBe(200);
    expect(await exists(l1)).toBe(false);
    expect(await ids('B')).toEqual([l3, l2]);
  });

  it('deleting a context keeps its logs that belong to another context; the rest are deleted', async () => {
    const t = await makeTestApp();
    const { call, log, addLogs, ids, entriesOf, exists, l0, l1, l2, l3 } = await sdkScenario(t);
    const lonely = await log('A', { x: 9 });
    expect((await call('DELETE', '/v0/project/demo/contexts/A')).statusCode).toBe(200);
    expect(await ids('B')).toEqual([l3, l2, l1, l0]);
    expect(await entriesOf('B', l0)).toEqual({ x: 1, tag: 'a' });
    expect(await exists(lonely)).toBe(false);
    // include_children: a log of p/c that is also in q survives deleting p and its children.
    const child = await log('p/c', { y: 1 });
    expect((await addLogs('q', [child])).statusCode).toBe(200);
    expect((await call('DELETE', '/v0/project/demo/contexts/p?include_children=True')).statusCode).toBe(200);
    expect(await ids('q')).toEqual([child]);
    // Deleting every context deletes every log.
    expect((await call('DELETE', '/v0/project/demo/contexts')).statusCode).toBe(200);
    for (const id of [l0, l2, child]) expect(await exists(id)).toBe(false);
  });

  it('a commit of a context records its member logs; rollback restores them (deleted ones skipped), entries untouched', async () => {
    const t = await makeTestApp();
    const { call, create, log, addLogs, ids, entriesOf, detach } = await setup(t);
    await create({ name: 'V', is_versioned: true });
    const a0 = await log('A', { x: 1 });
    const a1 = await log('A', { x: 2 });
    const v0 = await log('V', { x: 3 });
    expect((await addLogs('V', [a0])).statusCode).toBe(200);
    const first = (await call('POST', '/v0/project/demo/contexts/V/commit', { commit_message: 'with a0' })).json().commit_hash as string;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    // Read at the commit, the context lists its member logs too.
    const atFirst = (await call('GET', `/v0/project/demo/contexts/V/logs?commit=${first}`)).json();
    expect(atFirst.count).toBe(2);
    expect(atFirst.logs.map((r: { id: number }) => r.id)).toEqual([a0, v0]);
    // Membership changes alone are something to commit (and to auto-save before a rollback).
    expect((await detach('V', [a0])).statusCode).toBe(200);
    expect((await addLogs('V', [a1])).statusCode).toBe(200);
    await call('PUT', '/v0/logs', { logs: [a0], entries: { x: 100 }, overwrite: true });
    expect(await ids('V')).toEqual([v0, a1]);
    const back = await call('POST', '/v0/project/demo/contexts/V/rollback', { commit_hash: first });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().auto_saved_commit_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await ids('V')).toEqual([v0, a0]);
    expect(await ids('A')).toEqual([a1, a0]);
    // A member's content is versioned by its home context: the rollback of V does not touch it.
    expect(await entriesOf('V', a0)).toEqual({ x: 100 });
    // Forward again to the auto-saved commit: a1 is a member again, a0 is not.
    const saved = back.json().auto_saved_commit_hash as string;
    expect((await call('POST', '/v0/project/demo/contexts/V/rollback', { commit_hash: saved })).statusCode).toBe(200);
    expect(await ids('V')).toEqual([v0, a1]);
    // A member deleted since is skipped by a rollback.
    expect((await detach('V', [a1])).statusCode).toBe(200);
    expect((await detach('A', [a1])).statusCode).toBe(200);
    expect((await call('POST', '/v0/project/demo/contexts/V/rollback', { commit_hash: saved })).statusCode).toBe(200);
    expect(await ids('V')).toEqual([v0]);
    expect(await ids('A')).toEqual([a0]);
  });

  it('rollback keeps a leaving log alive where it is a member, and takes back a log that moved home elsewhere', async () => {
    const t = await makeTestApp();
    const { call, create, log, addLogs, ids, entriesOf, detach, exists } = await setup(t);
    await create({ name: 'V', is_versioned: true });
    const v0 = await log('V', { x: 1 });
    const hash = async (message: string) => {
      const res = await call('POST', '/v0/project/demo/contexts/V/commit', { commit_message: message });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().commit_hash as string;
    };
    const rollback = async (commit: string) => {
      const res = await call('POST', '/v0/project/demo/contexts/V/rollback', { commit_hash: commit });
      expect(res.statusCode, res.body).toBe(200);
    };
    const start = await hash('v0 only');
    // v1 lives in V and is a member of A; rolling V back to before v1 moves it home to A, entries and all.
    const v1 = await log('V', { x: 2 });
    expect((await addLogs('A', [v1])).statusCode).toBe(200);
    const withV1 = await hash('v1 too');
    await rollback(start);
    expect(await ids('V')).toEqual([v0]);
    expect(await ids('A')).toEqual([v1]);
    expect(await exists(v1)).toBe(true);
    expect(await entriesOf('A', v1)).toEqual({ x: 2 });
    // Rolled forward again, V lists v1 once more, now as a member: its home stays A.
    await rollback(withV1);
    expect(await ids('V')).toEqual([v1, v0]);
    expect(await ids('A')).toEqual([v1]);
    expect((await detach('A', [v1])).statusCode).toBe(200);
    expect(await ids('V')).toEqual([v1, v0]);
    expect(await exists(v1)).toBe(true);
  });

  it('project versions restore member sets too', async () => {
    const t = await makeTestApp();
    const { call, create, log, addLogs, ids, detach } = await setup(t);
    await create({ name: 'V', is_versioned: true });
    const a0 = await log('A', { x: 1 });
    const v0 = await log('V', { x: 2 });
    expect((await call('POST', '/v0/project/demo/commit', { commit_message: 'start' })).statusCode).toBe(200);
    expect((await addLogs('V', [a0])).statusCode).toBe(200);
    const withMember = await call('POST', '/v0/project/demo/commit', { commit_message: 'member' });
    expect(withMember.statusCode, withMember.body).toBe(200);
    const hash = withMember.json().commit_hash as string;
    expect((await detach('V', [a0])).statusCode).toBe(200);
    expect(await ids('V')).toEqual([v0]);
    const back = await call('POST', '/v0/project/demo/rollback', { commit_hash: hash });
    expect(back.statusCode, back.body).toBe(200);
    expect(await ids('V')).toEqual([v0, a0]);
  });

  it('refuses unique-key, duplicate and type conflicts with a 400 naming them, and changes nothing', async () => {
    const t = await makeTestApp();
    const { call, create, log, addLogs, ids, fields } = await setup(t);
    await create({ name: 'U', unique_keys: ['k'] });
    const u1 = await log('U', { k: 1 });
    const clash = await log('A', { k: 1, z: true });
    const fine = await log('A', { k: 2, z: false });
    const keyless = await log('A', { z: true });
    const refused = await addLogs('U', [fine, clash]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain('unique key');
    expect(refused.json().detail).toContain(String(clash));
    expect((await addLogs('U', [keyless])).json().detail).toContain('k');
    expect(await ids('U')).toEqual([u1]);
    expect(await fields('U')).toEqual(['k']);
    // Once a member holds a key, a new log of the context with that key clashes, and so does an edit.
    expect((await addLogs('U', [fine])).statusCode).toBe(200);
    const again = await call('POST', '/v0/project/demo/contexts/U/logs', { entries: [{ k: 2 }] });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect(again.statusCode).toBeLessThan(500);
    const edit = await call('PUT', '/v0/logs', { logs: [fine], entries: { k: 1 }, overwrite: true });
    expect(edit.statusCode).toBe(400);
    const homeEdit = await call('PATCH', `/v0/project/demo/contexts/U/logs/${u1}`, { entries: { k: 2 } });
    expect(homeEdit.statusCode).toBe(409);
    expect((await call('PUT', '/v0/logs', { logs: [u1], entries: { k: 2 }, overwrite: true })).statusCode).toBe(400);
    expect(await ids('U')).toEqual([fine, u1]);
    // Duplicates refused by the context.
    await create({ name: 'D', allow_duplicates: false });
    await log('D', { k: 1, z: true });
    expect((await addLogs('D', [clash])).statusCode).toBe(400);
    // Types: x is an int in T; a log whose x is a string cannot join (nor the other log of the request).
    await log('T', { x: 1 });
    const ok = await log('A', { x: 2, extra: 'e' });
    const text = await log('S', { x: 'two' });
    const typed = await addLogs('T', [ok, text]);
    expect(typed.statusCode).toBe(400);
    expect(typed.json().detail).toContain("'x'");
    expect(await fields('T')).toEqual(['x']);
    expect(await ids('T')).toHaveLength(1);
  });

  it('unknown ids are a 400 and create nothing; adding a log twice (even concurrently) is a no-op', async () => {
    const t = await makeTestApp();
    const { call, log, addLogs, ids } = await setup(t);
    const a = await log('A', { x: 1 });
    const b = await log('A', { x: 2 });
    const unknown = await addLogs('N', [a, 987654]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toContain('987654');
    expect((await call('GET', '/v0/project/demo/contexts/N')).statusCode).toBe(404);
    const both = await Promise.all([addLogs('N', [a, b]), addLogs('N', [b, a]), addLogs('N', [a])]);
    for (const r of both) expect(r.statusCode, r.body).toBe(200);
    expect(await ids('N')).toEqual([b, a]);
    expect((await call('GET', '/v0/project/demo/contexts/N/logs')).json().count).toBe(2);
    expect((await addLogs('A', [a])).json().info).toContain('already');
    expect(await ids('A')).toEqual([b, a]);
  });

  it("another account's log ids are unknown ids: a 400, and nothing of theirs is read or joined", async () => {
    const t = await makeTestApp();
    const theirs = await setup(t);
    const secret = await theirs.log('private', { token: 'theirs' });
    const mine = await setup(t);
    const own = await mine.log('A', { x: 1 });
    const res = await mine.addLogs('B', [own, secret]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(String(secret));
    expect(res.body).not.toContain('theirs');
    expect((await mine.call('GET', `/v0/logs?${mine.q({ context: 'B' })}`)).statusCode).toBe(404);
    expect(await theirs.ids('private')).toEqual([secret]);
  });

  it('member logs added or removed since HEAD count as uncommitted changes of a versioned context', async () => {
    const t = await makeTestApp();
    const { call, create, log, addLogs, detach } = await setup(t);
    await create({ name: 'B', is_versioned: true });
    await create({ name: 'C', is_versioned: false });
    const a = await log('A', { x: 1 });
    const b = await log('B', { x: 2 });
    const uncommitted = async () =>
      Object.fromEntries(
        ((await call('GET', '/v0/project/demo/contexts')).json() as { name: string; uncommitted_changes: number }[]).map((c) => [c.name, c.uncommitted_changes]),
      );
    expect((await call('POST', '/v0/project/demo/contexts/B/commit', { commit_message: 'b' })).statusCode).toBe(200);
    expect((await uncommitted()).B).toBe(0);
    expect((await addLogs('B', [a])).statusCode).toBe(200);
    expect((await addLogs('C', [a, b])).statusCode).toBe(200);
    expect(await uncommitted()).toMatchObject({ B: 1, C: 0 });
    expect((await call('POST', '/v0/project/demo/contexts/B/commit', { commit_message: 'a joins' })).statusCode).toBe(200);
    expect((await uncommitted()).B).toBe(0);
    expect((await detach('B', [a])).statusCode).toBe(200);
    expect((await uncommitted()).B).toBe(1);
  });
});
