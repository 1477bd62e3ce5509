import { beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// POST /v0/logs/derived (logs-api.md §4.9) and `recompute_derived` on POST /v0/logs, on the real database.

describe('derived entries', () => {
  let t: TestApp;
  let key: string;

  beforeEach(async () => {
    t = await makeTestApp();
    key = (await t.user()).apiKey;
    await t.request('POST', '/v0/project', { key, json: { name: 'calc' } });
  });

  const create = async (context: string, entries: unknown, extra: Record<string, unknown> = {}) => {
    const res = await t.request('POST', '/v0/logs', { key, json: { project_name: 'calc', context, entries, ...extra } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids as number[];
  };
  const derive = (json: Record<string, unknown>) => t.request('POST', '/v0/logs/derived', { key, json: { project_name: 'calc', context: 'runs', ...json } });
  const read = async (context = 'runs') => {
    const res = await t.request('GET', `/v0/logs?project_name=calc&context=${context}&sorting=${encodeURIComponent('{"base_value": "ascending"}')}`, { key });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().logs as { id: number; entries: Record<string, unknown>; derived_entries: Record<string, unknown> }[];
  };

  it('base 5 → {log:base_value} * 10 → 50, shown under derived_entries, and computed for new logs with recompute_derived', async () => {
    const [id] = await create('runs', { base_value: 5 });
    const res = await derive({ key: 'scaled', equation: '{log:base_value} * 10', referenced_logs: { log: [id] }, derived: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().log_event_ids).toEqual([id]);
    const [row] = await read();
    expect(row!.entries).toEqual({ base_value: 5 });
    expect(row!.derived_entries).toEqual({ scaled: 50 });
    const fields = await t.request('GET', '/v0/logs/fields?project_name=calc&context=runs', { key });
    expect(fields.json().scaled).toMatchObject({ data_type: 'int', field_type: 'derived' });
    // Filters see the derived column like any field.
    const filtered = await t.request('GET', `/v0/logs?project_name=calc&context=runs&filter=${encodeURIComponent('scaled == 50')}`, { key });
    expect(filtered.json().count).toBe(1);

    await create('runs', { base_value: 7 }, { recompute_derived: true });
    await create('runs', { base_value: 9 });
    const rows = await read();
    expect(rows.map((r) => [r.entries.base_value, r.derived_entries.scaled ?? null])).toEqual([
      [5, 50],
      [7, 70],
      [9, null],
    ]);
    // A deleted field stops being derived: later logs do not get it back.
    const deleted = await t.request('DELETE', '/v0/logs/fields', { key, json: { project_name: 'calc', context: 'runs', fields: ['scaled'] } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await create('runs', { base_value: 11 }, { recompute_derived: true });
    expect((await read()).every((r) => !('scaled' in r.entries) && !('scaled' in r.derived_entries))).toBe(true);
  });

  it('derived=false writes static entries; selections by context and filter; several aliases pair by position', async () => {
    await create('runs', [
      { base_value: 1, w: 2 },
      { base_value: 2, w: 3 },
      { base_value: 3, w: 4 },
    ]);
    const res = await derive({
      key: 'product',
      equation: '{r:base_value} * {r:w} + 0.5',
      referenced_logs: { r: { context: 'runs', filter_expr: 'base_value > 1' } },
      derived: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await read();
    expect(rows.map((r) => r.entries.product ?? null)).toEqual([null, 6.5, 12.5]);
    expect(rows.every((r) => Object.keys(r.derived_entries).length === 0)).toBe(true);
    // Two aliases over the same logs: `filter` (current name) works too.
    const two = await derive({
      key: 'ratio',
      equation: '{a:w} / {b:base_value}',
      referenced_logs: { a: { context: 'runs' }, b: { context: 'runs', filter: 'exists(base_value)' } },
      derived: false,
    });
    expect(two.statusCode, two.body).toBe(200);
    expect((await read()).map((r) => r.entries.ratio)).toEqual([2, 1.5, 4 / 3]);
    const uneven = await derive({ key: 'x', equation: '{a:w} + {b:w}', referenced_logs: { a: { context: 'runs' }, b: { context: 'runs', filter: 'w > 3' } } });
    expect(uneven.statusCode).toBe(400);
    expect(uneven.json().detail).toMatch(/paired by position/);
  });

  it('refuses what is not arithmetic, unknown aliases, syntax errors and other tenants’ logs', async () => {
    const [id] = await create('runs', { base_value: 5 });
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ equation: '{log:base_value} > 3' }, 400, /not supported/],
      [{ equation: '__import__("os")' }, 400, /not supported/],
      [{ equation: 'base_value * 2' }, 400, /bare name .*base_value/],
      [{ equation: '{other:base_value} * 2' }, 400, /alias .*other.*referenced_logs does not give/],
      [{ equation: '{log:base_value} *' }, 422, /Invalid filter expression/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await derive({ key: 'k', referenced_logs: { log: [id] }, ...body });
      expect(res.statusCode, res.body).toBe(status);
      expect(JSON.stringify(res.json().detail)).toMatch(detail);
    }
    const stranger = (await t.user()).apiKey;
    await t.request('POST', '/v0/project', { key: stranger, json: { name: 'calc' } });
    const theirs = await t.request('POST', '/v0/logs/derived', {
      key: stranger,
      json: { project_name: 'calc', context: 'runs', key: 'k', equation: '{log:base_value} * 2', referenced_logs: { log: [id] } },
    });
    expect(theirs.statusCode).toBe(404);
    expect((await read())[0]!.entries).toEqual({ base_value: 5 });
  });
});
