import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';

describe('projects', () => {
  it('creates (spec wording), lists in order, refuses a duplicate with 400, validates the name', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const post = (json: unknown) => t.request('POST', '/v0/project', { key: u.apiKey, json });
    const before: string[] = (await t.request('GET', '/v0/projects', { key: u.apiKey })).json();
    expect((await post({ name: 'zeta', description: 'last made' })).json()).toEqual({ info: 'Project created successfully!' });
    expect((await post({ name: 'alpha/runs', order: 0 })).statusCode).toBe(200);
    const dup = await post({ name: 'zeta' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ detail: 'A logging project with this name already exists.' });
    const bad = await post({ name: 'has space' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'name']);
    const names: string[] = (await t.request('GET', '/v0/projects', { key: u.apiKey })).json();
    expect(names.filter((n) => !before.includes(n))).toEqual(['alpha/runs', 'zeta'].sort((a, b) => (a === 'alpha/runs' ? -1 : b === 'alpha/runs' ? 1 : 0)));
    const one = await t.request('GET', '/v0/project/zeta', { key: u.apiKey });
    expect(one.json()).toMatchObject({ name: 'zeta', description: 'last made', is_versioned: false, icon: 'folder' });
  });

  it('keeps personal and organization projects apart and deletes with cascade', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const org = await t.org(u);
    await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'mine' } });
    expect((await t.request('POST', '/v0/project', { key: org.ownerKey, json: { name: 'mine' } })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/projects', { key: org.ownerKey })).json()).toEqual(['mine']);
    const other = await t.user();
    expect((await t.request('GET', '/v0/project/mine', { key: other.apiKey })).statusCode).toBe(404);
    expect((await t.request('DELETE', '/v0/project/mine', { key: other.apiKey })).statusCode).toBe(404);
    expect((await t.request('DELETE', '/v0/project/mine', { key: org.ownerKey })).json()).toEqual({ info: 'Project deleted successfully!' });
    expect((await t.request('GET', '/v0/project/mine', { key: u.apiKey })).statusCode).toBe(200);
  });
});
