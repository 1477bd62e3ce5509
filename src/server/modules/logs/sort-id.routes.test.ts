import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';

// GET /v0/logs `sorting` by the log id (the pseudo-field log_id, logs-api.md §11.2), alone and after a field.

describe('GET /v0/logs sorting by log_id', () => {
  it('orders by the id both ways, as a secondary key too, and next to a stored field of another name', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const call = (method: 'GET' | 'POST', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
    const made = await call('POST', '/v0/logs', { project_name: 'demo', context: 'runs', entries: [{ g: 1 }, { g: 2 }, { g: 1 }, { g: 2 }] });
    const [a, b, c, d] = made.json().log_event_ids as number[];
    const ids = async (sorting: string) => {
      const res = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: 'demo', context: 'runs', sorting })}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().logs as { id: number }[]).map((l) => l.id);
    };
    expect(await ids('{"log_id": "ascending"}')).toEqual([a, b, c, d]);
    expect(await ids('{"log_id": "descending"}')).toEqual([d, c, b, a]);
    // Priority is key order: g first, then the id ascending within each g (the default would be newest first).
    expect(await ids('{"g": "descending", "log_id": "asc"}')).toEqual([b, d, a, c]);
    expect(await ids('{"g": "ascending"}')).toEqual([c, a, d, b]);
  });

  it('a stored field named log_id is sorted by its value when named in backticks', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const call = (method: 'GET' | 'POST', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
    const made = await call('POST', '/v0/logs', { project_name: 'demo', context: 'runs', entries: [{ log_id: 2 }, { log_id: 3 }, { log_id: 1 }] });
    const [a, b, c] = made.json().log_event_ids as number[];
    const res = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: 'demo', context: 'runs', sorting: '{"`log_id`": "ascending"}' })}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().logs as { id: number }[]).map((l) => l.id)).toEqual([c, a, b]);
  });
});
