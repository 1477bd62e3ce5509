import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';

const endpoint = { name: 'my-model@custom', url: 'https://llm.example.com/v1', model_arg: 'gpt-x', key_name: 'LLM_KEY' };

describe('custom endpoints', () => {
  it('creates, lists and deletes; deleting twice is 200 then 404', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const created = await t.request('POST', '/v0/custom_endpoint', { key: u.apiKey, json: endpoint });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ info: 'Custom endpoint created successfully!', endpoint: { ...endpoint, created_at: expect.any(String) } });
    expect((await t.request('GET', '/v0/custom_endpoint/list', { key: u.apiKey })).json()).toEqual([{ ...endpoint, created_at: expect.any(String) }]);

    const first = await t.request('DELETE', '/v0/custom_endpoint?name=my-model%40custom', { key: u.apiKey });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ info: 'Custom endpoint deleted successfully!' });
    const second = await t.request('DELETE', '/v0/custom_endpoint?name=my-model%40custom', { key: u.apiKey });
    expect(second.statusCode).toBe(404);
    expect(second.json()).toEqual({ detail: 'Custom endpoint not found.' });
  });

  it('missing name → 422; duplicate name → 409; bad fields → 422 naming them', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const missing = await t.request('DELETE', '/v0/custom_endpoint', { key: u.apiKey });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail[0].loc).toEqual(['query', 'name']);
    await t.request('POST', '/v0/custom_endpoint', { key: u.apiKey, json: endpoint });
    const dup = await Promise.all([1, 2].map(() => t.request('POST', '/v0/custom_endpoint', { key: u.apiKey, json: endpoint })));
    expect(dup.map((r) => r.statusCode)).toEqual([409, 409]);
    for (const [patch, field] of [
      [{ url: 'ftp://x' }, 'url'],
      [{ name: 'has space' }, 'name'],
      [{ model_arg: '' }, 'model_arg'],
    ] as const) {
      const res = await t.request('POST', '/v0/custom_endpoint', { key: u.apiKey, json: { ...endpoint, ...patch } });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', field]);
    }
  });

  it('keeps workspaces apart: personal, organization, and another user', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const other = await t.user();
    const org = await t.org(u);
    await t.request('POST', '/v0/custom_endpoint', { key: u.apiKey, json: endpoint });
    expect((await t.request('GET', '/v0/custom_endpoint/list', { key: org.ownerKey })).json()).toEqual([]);
    expect((await t.request('POST', '/v0/custom_endpoint', { key: org.ownerKey, json: endpoint })).statusCode).toBe(201);
    expect((await t.request('GET', '/v0/custom_endpoint/list', { key: other.apiKey })).json()).toEqual([]);
    expect((await t.request('DELETE', '/v0/custom_endpoint?name=my-model%40custom', { key: other.apiKey })).statusCode).toBe(404);
    const viewer = await t.user();
    const viewerKey = await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
    expect((await t.request('GET', '/v0/custom_endpoint/list', { key: viewerKey })).json()).toHaveLength(1);
    const denied = await t.request('DELETE', '/v0/custom_endpoint?name=my-model%40custom', { key: viewerKey });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe(`Missing permission project:write in organization ${org.organizationId}.`);
  });
});
