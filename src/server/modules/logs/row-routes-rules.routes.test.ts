import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';

// A row written through Roster's row routes (the dashboard's row editor) is a log: the logs API's field
// rules hold for it too (immutable fields, types), and the fields it adds get their types.

describe('row routes follow the logs API field rules', () => {
  it('an immutable field keeps its value, a value must fit its type, new fields are typed, and a refused write changes nothing', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
    const created = await call('POST', '/v0/logs', {
      project_name: 'demo',
      context: { name: 'runs' },
      entries: { run_id: 'r-1', score: 0.5, explicit_types: { run_id: { mutable: false } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const [id] = created.json().log_event_ids;
    const row = `/v0/project/demo/contexts/runs/logs/${id}`;

    const immutable = await call('PATCH', row, { entries: { run_id: 'r-2' } });
    expect(immutable.statusCode).toBe(422);
    expect(immutable.json().detail[0]).toMatchObject({ loc: ['body', 'entries', 'run_id'], msg: "Field 'run_id' is immutable: its value cannot be changed." });
    // The editor sends the whole log back: an unchanged immutable value is fine.
    expect((await call('PATCH', row, { entries: { run_id: 'r-1', score: 0.75 } })).statusCode).toBe(200);

    const wrongType = await call('PATCH', row, { entries: { score: 'high' } });
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().detail[0].msg).toMatch(/score/);
    const wrongInBatch = await call('POST', '/v0/project/demo/contexts/runs/logs', { entries: [{ score: 0.1 }, { score: 'low' }] });
    expect(wrongInBatch.statusCode).toBe(422);
    expect(wrongInBatch.json().detail[0].loc).toEqual(['body', 'entries', 1]);

    expect((await call('POST', '/v0/project/demo/contexts/runs/logs', { entries: [{ score: 0.2, note: 'by hand' }] })).statusCode).toBe(200);
    const fields = (await call('GET', '/v0/logs/fields?project_name=demo&context=runs')).json();
    expect(fields.note).toMatchObject({ data_type: 'str' });
    expect(fields.run_id).toMatchObject({ mutable: false });

    const logs = (await call('GET', '/v0/logs?project_name=demo&context=runs')).json();
    expect(logs.count).toBe(2);
    expect(logs.logs.find((l: { id: number }) => l.id === id).entries).toEqual({ run_id: 'r-1', score: 0.75 });
  });
});
