import { beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// The current release's routes (logs-api.md §4.11, §9 sync lease) on the real database: federated
// reads, claims, sync leases, and the external-field routes this server refuses by name.

describe('current-release logs routes', () => {
  let t: TestApp;
  let key: string;

  beforeEach(async () => {
    t = await makeTestApp();
    key = (await t.user()).apiKey;
    await t.request('POST', '/v0/project', { key, json: { name: 'ops' } });
  });

  const create = async (context: string, entries: unknown[]) => {
    const res = await t.request('POST', '/v0/logs', { key, json: { project_name: 'ops', context, entries } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids as number[];
  };
  const post = (path: string, json: unknown, k = key) => t.request('POST', path, { key: k, json });

  it('federated: merges contexts, sorts and pages globally, counts per source, annotates and de-duplicates', async () => {
    await create('east', [
      { uid: 'a', score: 3 },
      { uid: 'b', score: 9 },
    ]);
    await create('west', [{ uid: 'a', score: 5 }, { uid: 'c', score: 1 }, { other: true }]);
    const res = await post('/v0/logs/federated', {
      project_name: 'ops',
      contexts: [{ context: 'east', source: 'E' }, { context: 'west' }, { context: 'nowhere' }],
      filter: 'exists(score)',
      sorting: [{ field: 'score', direction: 'descending', missing: 'last' }],
      limit: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(4);
    expect(body.counts).toEqual({ E: 2, west: 2, nowhere: 0 });
    expect(body.logs.map((l: { entries: Record<string, unknown> }) => [l.entries.score, l.entries._federated_source, l.entries._federated_context])).toEqual([
      [9, 'E', 'east'],
      [5, 'west', 'west'],
      [3, 'E', 'east'],
    ]);
    // unique_id_field: the first in merge order wins; count stays the pre-dedupe total.
    const unique = (
      await post('/v0/logs/federated', {
        project_name: 'ops',
        contexts: [{ context: 'east' }, { context: 'west', filter: 'score < 4' }],
        sorting: [{ field: 'score', direction: 'ascending' }],
        unique_id_field: 'uid',
        annotate: false,
      })
    ).json();
    expect(unique.count).toBe(3);
    expect(unique.logs.map((l: { entries: Record<string, unknown> }) => l.entries)).toEqual([
      { uid: 'c', score: 1 },
      { uid: 'a', score: 3 },
      { uid: 'b', score: 9 },
    ]);
    const countOnly = (await post('/v0/logs/federated', { project_name: 'ops', contexts: [{ context: 'east' }, { context: 'west' }], limit: 0 })).json();
    expect(countOnly).toEqual({ logs: [], count: 5, counts: { east: 2, west: 3 } });
    // from_fields keeps logs having one of the fields and answers only those; value_limit cuts long values.
    const narrow = (
      await post('/v0/logs/federated', { project_name: 'ops', contexts: [{ context: 'west', from_fields: ['other'] }], annotate: false, value_limit: 2 })
    ).json();
    expect(narrow.logs.map((l: { entries: unknown }) => l.entries)).toEqual([{ other: true }]);
    const bad = await post('/v0/logs/federated', { project_name: 'ops', contexts: [{ context: 'east' }], filter: 'score >' });
    expect(bad.statusCode).toBe(422);
  });

  it('claim: compare-and-set; two concurrent claimers never get the same log', async () => {
    const ids = await create('jobs', [{ status: 'todo', n: 1 }, { status: 'todo', n: 2 }, { status: 'todo', n: 3 }, { status: 'done', n: 4 }, { n: 5 }]);
    const claim = (worker: string, limit = 1) =>
      post('/v0/logs/claim', { project: 'ops', context: 'jobs', expect: { status: 'todo' }, updates: { status: 'taken', worker }, limit });
    const results = await Promise.all([claim('w1', 2), claim('w2', 2)]);
    const got = results.map((r) => {
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { claimed: { id: number; data: Record<string, unknown> }[]; count: number };
    });
    const claimed = got.flatMap((g) => g.claimed.map((c) => c.id));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual(ids.slice(0, 3).sort());
    expect(got.map((g) => g.count).sort()).toEqual([1, 2]);
    expect(got.flatMap((g) => g.claimed).every((c) => c.data.status === 'taken')).toBe(true);
    // Nothing left to claim: count 0. null in expect matches a missing field.
    expect((await claim('w3')).json()).toEqual({ claimed: [], count: 0 });
    const missing = (await post('/v0/logs/claim', { project: 'ops', context: 'jobs', expect: { status: null }, updates: { status: 'found' } })).json();
    expect(missing.claimed).toEqual([{ id: ids[4], data: { n: 5, status: 'found' } }]);
    // Another tenant's project does not exist for them.
    const stranger = (await t.user()).apiKey;
    expect((await post('/v0/logs/claim', { project: 'ops', context: 'jobs', expect: {}, updates: { x: 1 } }, stranger)).statusCode).toBe(404);
  });

  it('sync lease: acquire, renew by the same holder, 409 with held_by and expires_at for another, release', async () => {
    const acquire = (holder: string, ttl_seconds?: number) => post('/v0/sync_lease/acquire', { project: 'ops', lease_key: 'sync', holder, ttl_seconds });
    const first = await acquire('laptop', 30);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().holder).toBe('laptop');
    const renewed = await acquire('laptop', 120);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().expires_at > first.json().expires_at).toBe(true);
    const held = await acquire('desktop');
    expect(held.statusCode).toBe(409);
    expect(held.json()).toEqual({ detail: { held_by: 'laptop', expires_at: renewed.json().expires_at } });
    // Only the holder releases it; then another can take it.
    expect((await post('/v0/sync_lease/release', { project: 'ops', lease_key: 'sync', holder: 'desktop' })).json().released).toBe(false);
    expect((await post('/v0/sync_lease/release', { project: 'ops', lease_key: 'sync', holder: 'laptop' })).json().released).toBe(true);
    expect((await acquire('desktop', 1)).statusCode).toBe(200);
    // An expired lease is free for anyone.
    t.clock.advance(2000);
    expect((await acquire('laptop')).statusCode).toBe(200);
    expect((await post('/v0/sync_lease/acquire', { project: 'nope', lease_key: 'sync', holder: 'x' })).statusCode).toBe(404);
    // Two holders racing for a new lease: exactly one wins.
    const race = await Promise.all(['a', 'b', 'c'].map((holder) => post('/v0/sync_lease/acquire', { project: 'ops', lease_key: 'race', holder })));
    expect(race.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = race.find((r) => r.statusCode === 200)!.json().holder;
    expect(race.filter((r) => r.statusCode === 409).every((r) => r.json().detail.held_by === winner)).toBe(true);
  });

  it('answers the external-field routes with a 400 that names what is not supported', async () => {
    for (const [method, path] of [
      ['POST', '/v0/logs/hydrate'],
      ['POST', '/v0/logs/external_write'],
      ['PUT', '/v0/logs/fields/binding'],
    ] as const) {
      const res = await t.request(method, path, { key, json: { project_name: 'ops', context: 'jobs' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/not supported by this server/);
    }
  });
});
