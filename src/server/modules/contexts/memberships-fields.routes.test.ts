import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// Field definitions of a log that is in several contexts (home and members, logs-api.md §4.2, §4.7, §6
// add_logs), on the real database: renames and deletes through one context reach the typed definitions of
// the others, and an update by id is checked against every context the log is in.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Fields = Record<string, { data_type: string; mutable: boolean; unique: boolean }>;

async function setup(t: TestApp) {
  const u = await t.user();
  const call = (method: Method, url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
  const log = async (context: string, entries: Record<string, unknown>) => {
    const res = await call('POST', '/v0/logs', { project_name: 'demo', context: { name: context }, entries });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids[0] as number;
  };
  const addLogs = async (context: string, ids: number[]) => {
    const res = await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: context, log_ids: ids });
    expect(res.statusCode, res.body).toBe(200);
  };
  const q = (params: Record<string, string>) => new URLSearchParams({ project_name: 'demo', ...params }).toString();
  const fields = async (context: string) => {
    const res = await call('GET', `/v0/logs/fields?${q({ context })}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Fields;
  };
  const types = async (context: string) => Object.fromEntries(Object.entries(await fields(context)).map(([k, v]) => [k, v.data_type]));
  const entriesOf = async (context: string, id: number) => {
    const res = await call('GET', `/v0/logs?${q({ context, from_ids: String(id) })}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { logs: { entries: Record<string, unknown> }[] }).logs[0]?.entries;
  };
  const rename = (context: string, from: string, to: string) =>
    call('PATCH', '/v0/logs/rename_field', { project_name: 'demo', context, old_field_name: from, new_field_name: to });
  const deleteField = (context: string, names: string[]) => call('DELETE', '/v0/logs/fields', { project_name: 'demo', context, fields: names });
  return { call, log, addLogs, fields, types, entriesOf, rename, deleteField };
}

/**
 * A holds a0 (home) and c0 (home C, member of A); B holds b0 (home) and a0 (member); C holds c0.
 * Every context types `score` as float.
 */
async function shared(t: TestApp) {
  const s = await setup(t);
  const a0 = await s.log('A', { score: 0.5, tag: 'a' });
  const b0 = await s.log('B', { score: 1.5, tag: 'b' });
  const c0 = await s.log('C', { score: 2.5, tag: 'c' });
  await s.addLogs('B', [a0]);
  await s.addLogs('A', [c0]);
  for (const c of ['A', 'B', 'C']) expect((await s.types(c)).score).toBe('float');
  return { ...s, a0, b0, c0 };
}

describe('field definitions of logs in several contexts', () => {
  it('rename_field through A gives the new name its definition in the logs’ other contexts; the old one goes where no log has it', async () => {
    const t = await makeTestApp();
    const { call, types, fields, entriesOf, rename, log, a0, b0, c0 } = await shared(t);
    const res = await rename('A', 'score', 'points');
    expect(res.statusCode, res.body).toBe(200);
    expect(await types('A')).toEqual({ points: 'float', tag: 'str' });
    // B: b0 still has score, a0 now has points: both are defined, in the column list's order.
    expect(await types('B')).toEqual({ score: 'float', points: 'float', tag: 'str' });
    // C: its only log with score was renamed (through its membership of A): score is gone, points typed.
    expect(await types('C')).toEqual({ points: 'float', tag: 'str' });
    expect(Object.keys(await fields('C')).sort()).toEqual(['points', 'tag']);
    expect(await entriesOf('C', c0)).toEqual({ points: 2.5, tag: 'c' });
    expect(await entriesOf('B', b0)).toEqual({ score: 1.5, tag: 'b' });
    expect(await entriesOf('B', a0)).toEqual({ points: 0.5, tag: 'a' });
    // The definitions are enforced there: a new log of C, a log of B.
    const intoC = await call('POST', '/v0/logs', { project_name: 'demo', context: 'C', entries: { points: 'high' } });
    expect(intoC.statusCode).toBe(400);
    expect(intoC.json().detail).toContain("'points'");
    const b1 = await log('B', { tag: 'b1' });
    const intoB = await call('PUT', '/v0/logs', { logs: [b1], entries: { points: 'high' } });
    expect(intoB.statusCode).toBe(400);
    expect(intoB.json().detail).toContain('float');
  });

  it('DELETE /v0/logs/fields through A drops other contexts’ definitions only when none of their logs has the field', async () => {
    const t = await makeTestApp();
    const { types, entriesOf, deleteField, a0, b0, c0 } = await shared(t);
    const res = await deleteField('A', ['score']);
    expect(res.statusCode, res.body).toBe(200);
    expect(await types('A')).toEqual({ tag: 'str' });
    // b0 keeps B's definition alive; C's only log with score (c0, a member of A) lost it.
    expect(await types('B')).toEqual({ score: 'float', tag: 'str' });
    expect(await types('C')).toEqual({ tag: 'str' });
    expect(await entriesOf('B', a0)).toEqual({ tag: 'a' });
    expect(await entriesOf('B', b0)).toEqual({ score: 1.5, tag: 'b' });
    expect(await entriesOf('C', c0)).toEqual({ tag: 'c' });
  });

  it('rename_field is refused (400 naming the other context, nothing changed) when the new name there has another type or the field is its unique key', async () => {
    const t = await makeTestApp();
    const { call, types, entriesOf, rename, deleteField, log, addLogs, a0 } = await shared(t);
    // B already types `points` as str: a0's 0.5 cannot become B's points.
    await log('B', { points: 'many' });
    const refused = await rename('A', 'score', 'points');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("'points'");
    expect(refused.json().detail).toContain('str');
    expect(refused.json().detail).toContain("'B'");
    expect(await entriesOf('A', a0)).toEqual({ score: 0.5, tag: 'a' });
    expect((await types('A')).score).toBe('float');
    // k is U's unique key: renaming or deleting it through A would leave U's member log without its key.
    const created = await call('POST', '/v0/project/demo/contexts', { name: 'U', unique_keys: ['k'] });
    expect(created.statusCode, created.body).toBe(200);
    const k0 = await log('A', { k: 1 });
    await addLogs('U', [k0]);
    for (const res of [await rename('A', 'k', 'key'), await deleteField('A', ['k'])]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toContain("context 'U'");
    }
    expect(await entriesOf('U', k0)).toEqual({ k: 1 });
  });

  it('a field written to a log by id is listed, typed, by every context the log is in', async () => {
    const t = await makeTestApp();
    const { call, types, a0, c0 } = await shared(t);
    // a0: home A, member of B. c0: home C, member of A.
    for (const [id, value] of [
      [a0, 'n'],
      [c0, 'm'],
    ] as const) {
      const res = await call('PUT', '/v0/logs', { logs: [id], entries: { note: value } });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await types('A')).note).toBe('str');
    expect((await types('B')).note).toBe('str');
    expect((await types('C')).note).toBe('str');
  });

  it('PUT /v0/logs without a context checks types against every context of the log: 400 naming field, type and context, nothing written', async () => {
    const t = await makeTestApp();
    const { call, log, addLogs, entriesOf, types } = await setup(t);
    await log('B', { score: 1.5 });
    const a0 = await log('A', { x: 1 });
    const a1 = await log('A', { x: 2 });
    await addLogs('B', [a0]);
    expect((await types('A')).score).toBeUndefined();
    const res = await call('PUT', '/v0/logs', { logs: [a0], entries: { score: 'high' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(`Field 'score' has type float in context 'B'; the value "high" does not fit it.`);
    expect(await entriesOf('A', a0)).toEqual({ x: 1 });
    expect((await types('A')).score).toBeUndefined();
    // Another field, a value B accepts: goes through.
    const fits = await call('PUT', '/v0/logs', { logs: [a0], entries: { y: 3 } });
    expect(fits.statusCode, fits.body).toBe(200);
    expect(await entriesOf('B', a0)).toEqual({ x: 1, y: 3 });
    // Several logs: the one B refuses fails (logs-api.md §4.2: per log), the other is updated.
    const both = await call('PUT', '/v0/logs', { logs: [a0, a1], entries: { score: 'high' } });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json().log_event_ids).toEqual([a1]);
    expect(both.json().failed).toEqual([{ log_event_id: a0, error: `Field 'score' has type float in context 'B'; the value "high" does not fit it.` }]);
    expect(await entriesOf('A', a0)).toEqual({ x: 1, y: 3 });
  });

  it('PUT /v0/logs without a context keeps a field immutable in any context of the log', async () => {
    const t = await makeTestApp();
    const { call, log, addLogs, entriesOf } = await setup(t);
    const a0 = await log('A', { x: 1 });
    await addLogs('B', [a0]);
    const declared = await call('POST', '/v0/logs/fields', { project_name: 'demo', context: 'B', fields: { x: { type: 'int', mutable: false } } });
    expect(declared.statusCode, declared.body).toBe(200);
    const res = await call('PUT', '/v0/logs', { logs: [a0], entries: { x: 2 }, overwrite: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(`Field 'x' is immutable in context 'B': its value cannot be changed.`);
    expect(await entriesOf('A', a0)).toEqual({ x: 1 });
  });

  it('the atomic update and the row routes keep the types and immutable fields of every context of the log', async () => {
    const t = await makeTestApp();
    const { call, log, addLogs, entriesOf } = await setup(t);
    await log('B', { score: 1.5 });
    const a0 = await log('A', { x: 1 });
    await addLogs('B', [a0]);
    const declared = await call('POST', '/v0/logs/fields', { project_name: 'demo', context: 'B', fields: { x: { type: 'int', mutable: false } } });
    expect(declared.statusCode, declared.body).toBe(200);
    // PATCH …/atomic addresses the log by id: B's immutable x holds.
    const atomic = await call('PATCH', `/v0/logs/${a0}/fields/x/atomic`, { operation: '+1' });
    expect(atomic.statusCode).toBe(400);
    expect(atomic.json().detail).toBe(`Field 'x' is immutable in context 'B': its value cannot be changed.`);
    // The row routes through A (the log's home) check B's rules too: 422 naming the field and B.
    const typed = await call('PATCH', `/v0/project/demo/contexts/A/logs/${a0}`, { entries: { score: 'high' } });
    expect(typed.statusCode).toBe(422);
    expect(typed.body).toContain(`Field 'score' has type float in context 'B'`);
    const immutable = await call('PATCH', `/v0/project/demo/contexts/A/logs/${a0}`, { entries: { x: 5 } });
    expect(immutable.statusCode).toBe(422);
    expect(immutable.body).toContain(`immutable in context 'B'`);
    expect(await entriesOf('A', a0)).toEqual({ x: 1 });
    // And through B, A's types: A learned score as str from a log of its own.
    await log('A', { score: 'text' });
    const viaB = await call('PATCH', `/v0/project/demo/contexts/B/logs/${a0}`, { entries: { score: 2.5 } });
    expect(viaB.statusCode).toBe(422);
    expect(viaB.body).toContain(`Field 'score' has type str in context 'A'`);
    expect(await entriesOf('B', a0)).toEqual({ x: 1 });
  });
});
