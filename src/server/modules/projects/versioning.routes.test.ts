import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A versioned project `demo` with two versioned contexts `a`, `b` and an unversioned `plain`. */
async function setup(t: TestApp, key?: string) {
  const apiKey = key ?? (await t.user()).apiKey;
  const call = (method: Method, url: string, json?: unknown) => t.request(method, url, { key: apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'demo', is_versioned: true })).statusCode).toBe(200);
  for (const name of ['a', 'b']) expect((await call('POST', '/v0/project/demo/contexts', { name })).statusCode).toBe(200);
  expect((await call('POST', '/v0/project/demo/contexts', { name: 'plain', is_versioned: false })).statusCode).toBe(200);
  const add = async (context: string, ...values: string[]) =>
    (await call('POST', `/v0/project/demo/contexts/${context}/logs`, { entries: values.map((v) => ({ v })) })).json().ids as number[];
  const rows = async (context: string) =>
    (await call('GET', `/v0/project/demo/contexts/${context}/logs`)).json().logs.map((r: { entries: { v: string } }) => r.entries.v) as string[];
  const commit = async (message?: string) => {
    const res = await call('POST', '/v0/project/demo/commit', message === undefined ? {} : { commit_message: message });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().commit_hash as string;
  };
  const commits = async () => (await call('GET', '/v0/project/demo/commits')).json();
  return { apiKey, call, add, rows, commit, commits };
}

describe('project versions', () => {
  it('commits every versioned context at once and lists project commits shaped as context ones (type "project")', async () => {
    const t = await makeTestApp();
    const { call, add, commit, commits } = await setup(t);
    await add('a', 'a1');
    await add('plain', 'p1');
    const res = await call('POST', '/v0/project/demo/commit', { commit_message: 'first' });
    expect(res.statusCode).toBe(200);
    const first = res.json();
    expect(first).toEqual({ info: 'Project demo committed.', commit_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });

    // Each versioned context got its own commit (the empty `b` too); the unversioned one is not part of it.
    const contexts = (await call('GET', '/v0/project/demo/contexts')).json();
    const heads = Object.fromEntries(contexts.map((c: { name: string; head_commit_hash: string | null }) => [c.name, c.head_commit_hash]));
    expect(heads.a).toMatch(/^[0-9a-f]{64}$/);
    expect(heads.b).toMatch(/^[0-9a-f]{64}$/);
    expect(heads.plain).toBeNull();
    expect(contexts.every((c: { uncommitted_changes: number }) => c.uncommitted_changes === 0)).toBe(true);
    const aHistory = (await call('GET', '/v0/project/demo/contexts/a/commits')).json();
    expect(aHistory).toEqual([expect.objectContaining({ commit_hash: heads.a, commit_message: 'first', type: 'context', next_commit_hash: [] })]);

    // Nothing changed in `b` since: the second project commit holds it at the same commit (no empty commit).
    await add('a', 'a2');
    const second = await commit();
    const list = await commits();
    expect(list).toEqual([
      {
        commit_hash: second,
        commit_message: null,
        created_at: expect.any(String),
        type: 'project',
        prev_commit_hash: first.commit_hash,
        next_commit_hash: [],
        is_head: true,
        contexts: [
          { name: 'a', commit_hash: expect.not.stringMatching(heads.a) },
          { name: 'b', commit_hash: heads.b },
        ],
      },
      {
        commit_hash: first.commit_hash,
        commit_message: 'first',
        created_at: expect.any(String),
        type: 'project',
        prev_commit_hash: null,
        next_commit_hash: [second],
        is_head: false,
        contexts: [
          { name: 'a', commit_hash: heads.a },
          { name: 'b', commit_hash: heads.b },
        ],
      },
    ]);
    expect((await call('GET', '/v0/project/demo/contexts/b/commits')).json()).toHaveLength(1);
  });

  it('rolls back two contexts at once, saves uncommitted work first, and moves forward again on the same DAG', async () => {
    const t = await makeTestApp();
    const { call, add, rows, commit, commits } = await setup(t);
    const [a1] = await add('a', 'a1');
    await add('b', 'b1');
    const first = await commit('first');
    await call('PATCH', `/v0/project/demo/contexts/a/logs/${a1}`, { entries: { v: 'a1 changed' } });
    await add('b', 'b2');
    const second = await commit('second');
    await add('a', 'a3'); // uncommitted
    await add('plain', 'p1');

    const back = await call('POST', '/v0/project/demo/rollback', { commit_hash: first });
    expect(back.statusCode, back.body).toBe(200);
    const answer = back.json();
    expect(answer).toEqual({
      info: `Project demo rolled back to ${first}`,
      auto_saved_commit_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      restored_contexts: ['a', 'b'],
    });
    expect(await rows('a')).toEqual(['a1']);
    expect(await rows('b')).toEqual(['b1']);
    expect(await rows('plain')).toEqual(['p1']);

    const history = await commits();
    expect(history.map((c: { commit_message: string }) => c.commit_message)).toEqual([`Auto-saved before rollback to ${first}`, 'second', 'first']);
    expect(history.find((c: { is_head: boolean }) => c.is_head).commit_hash).toBe(first);
    expect(history[0].prev_commit_hash).toBe(second);

    // A commit after the rollback branches off `first`.
    await add('b', 'b3');
    const branch = await commit('branch');
    const byHash = Object.fromEntries((await commits()).map((c: { commit_hash: string }) => [c.commit_hash, c]));
    expect(new Set(byHash[first].next_commit_hash)).toEqual(new Set([second, branch]));

    // Forward to the auto-saved commit: the uncommitted row is back; nothing to auto-save this time.
    const forward = (await call('POST', '/v0/project/demo/rollback', { commit_hash: answer.auto_saved_commit_hash })).json();
    expect(forward.auto_saved_commit_hash).toBeNull();
    expect(await rows('a')).toEqual(['a1 changed', 'a3']);
    expect(await rows('b')).toEqual(['b1', 'b2']);

    // Rolling back to where every context already is changes none of them.
    const same = (await call('POST', '/v0/project/demo/rollback', { commit_hash: answer.auto_saved_commit_hash })).json();
    expect(same.restored_contexts).toEqual([]);

    // Audited like a context rollback.
    const audit = await t.db.selectFrom('audit_events').select(['action', 'target_label', 'detail']).where('action', '=', 'project.rolled_back').execute();
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({ target_label: 'demo' });
    expect(JSON.parse(audit[0]!.detail!)).toEqual({ commit_hash: first, restored_contexts: ['a', 'b'] });
  });

  it('leaves contexts created after the commit, and unversioned ones, as they are', async () => {
    const t = await makeTestApp();
    const { call, add, rows, commit } = await setup(t);
    await add('a', 'a1');
    const first = await commit('first');
    expect((await call('POST', '/v0/project/demo/contexts', { name: 'later' })).statusCode).toBe(200);
    await add('later', 'l1');
    await add('a', 'a2');
    const back = (await call('POST', '/v0/project/demo/rollback', { commit_hash: first })).json();
    expect(back.restored_contexts).toEqual(['a']);
    expect(await rows('a')).toEqual(['a1']);
    expect(await rows('later')).toEqual(['l1']);
    // The auto-save committed `later` too: the project commit before the rollback holds it.
    expect(back.auto_saved_commit_hash).not.toBeNull();
  });

  it('is atomic: a context that cannot be restored leaves every context, HEAD and the history as they were', async () => {
    const t = await makeTestApp();
    const { call, add, rows, commit, commits } = await setup(t);
    await add('a', 'a1');
    await add('b', 'b1');
    const first = await commit('first');
    await add('a', 'a2');
    await add('b', 'b2');
    const second = await commit('second');
    await add('a', 'a3'); // uncommitted: would be auto-saved
    // Break `b`'s commit in `first`: it now holds two rows with one content hash, so restoring `b` (after
    // `a`, in name order) fails on its unique constraint. (A row whose id now lives in another context is
    // no longer a failure: it becomes a member of `b`, see memberships.routes.test.ts.)
    await add('plain', 'p1');
    const bCommit = await t.db
      .selectFrom('commits')
      .innerJoin('contexts', 'contexts.id', 'commits.context_id')
      .select('commits.id')
      .where('contexts.name', '=', 'b')
      .orderBy('commits.id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('commit_rows')
      .values(
        [900001, 900002].map((id) => ({
          commit_id: bCommit.id,
          row_id: id,
          entries: '{"v":"clash"}',
          unique_key: null,
          content_hash: 'same',
          created_at: 'x',
          updated_at: 'x',
        })),
      )
      .execute();
    const before = { contexts: (await call('GET', '/v0/project/demo/contexts')).json(), commits: await commits() };

    const failed = await call('POST', '/v0/project/demo/rollback', { commit_hash: first });
    expect(failed.statusCode).not.toBe(200);
    expect(await rows('a')).toEqual(['a1', 'a2', 'a3']);
    expect(await rows('b')).toEqual(['b1', 'b2']);
    expect(await rows('plain')).toEqual(['p1']);
    expect((await call('GET', '/v0/project/demo/contexts')).json()).toEqual(before.contexts);
    const after = await commits();
    expect(after).toEqual(before.commits);
    expect(after.find((c: { is_head: boolean }) => c.is_head).commit_hash).toBe(second);
    expect(await t.db.selectFrom('audit_events').select('id').where('action', '=', 'project.rolled_back').execute()).toEqual([]);
  });

  it('answers 404 for an unknown hash or project, 400 for a project without versioned contexts, 422 without a hash', async () => {
    const t = await makeTestApp();
    const { call, add, commit } = await setup(t);
    await add('a', 'a1');
    await commit('first');
    const unknown = await call('POST', '/v0/project/demo/rollback', { commit_hash: 'f'.repeat(64) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toContain(`Commit hash ${'f'.repeat(64)} not found for project demo`);
    // A context commit's hash is not a project commit's.
    const contextHash = (await call('GET', '/v0/project/demo/contexts/a/commits')).json()[0].commit_hash;
    expect((await call('POST', '/v0/project/demo/rollback', { commit_hash: contextHash })).statusCode).toBe(404);
    expect((await call('POST', '/v0/project/demo/rollback', {})).statusCode).toBe(422);
    for (const [method, path] of [
      ['POST', 'commit'],
      ['POST', 'rollback'],
      ['GET', 'commits'],
    ] as const) {
      const res = await call(method, `/v0/project/nope/${path}`, method === 'POST' ? { commit_hash: 'x' } : undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Project not found.' });
    }

    await call('POST', '/v0/project', { name: 'unversioned' });
    await call('POST', '/v0/project/unversioned/contexts', { name: 'runs' });
    const none = await call('POST', '/v0/project/unversioned/commit', { commit_message: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.json().detail).toContain('Project unversioned has no versioned context to commit');
    expect((await call('GET', '/v0/project/unversioned/commits')).json()).toEqual([]);
  });

  it('needs project:write to commit or roll back (a Viewer may list), and keeps tenants apart', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    const { add, commit } = await setup(t, org.ownerKey);
    await add('a', 'a1');
    const first = await commit('first');

    const viewer = await t.user();
    const viewerKey = await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
    const asViewer = (method: Method, url: string, json?: unknown) => t.request(method, url, { key: viewerKey, json });
    expect((await asViewer('GET', '/v0/project/demo/commits')).json().map((c: { commit_hash: string }) => c.commit_hash)).toEqual([first]);
    expect((await asViewer('POST', '/v0/project/demo/commit', {})).statusCode).toBe(403);
    expect((await asViewer('POST', '/v0/project/demo/rollback', { commit_hash: first })).statusCode).toBe(403);

    const member = await t.user();
    const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Member);
    expect((await t.request('POST', '/v0/project/demo/commit', { key: memberKey, json: {} })).statusCode).toBe(200);

    // Another tenant, with a project of the same name: neither sees the other's commits.
    const stranger = await t.user();
    const theirs = await setup(t, stranger.apiKey);
    await theirs.add('a', 'x');
    const theirCommit = await theirs.commit('theirs');
    expect((await theirs.commits()).map((c: { commit_hash: string }) => c.commit_hash)).toEqual([theirCommit]);
    expect((await theirs.call('POST', '/v0/project/demo/rollback', { commit_hash: first })).statusCode).toBe(404);
    expect((await t.request('POST', '/v0/project/demo/rollback', { key: org.ownerKey, json: { commit_hash: theirCommit } })).statusCode).toBe(404);
    expect(await theirs.rows('a')).toEqual(['x']);
  });
});
