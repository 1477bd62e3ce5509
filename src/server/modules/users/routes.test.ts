import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';

describe('authentication', () => {
  it('401 Not authenticated with WWW-Authenticate when the header is missing or malformed', async () => {
    const t = await makeTestApp();
    for (const headers of [{} as Record<string, string>, { authorization: 'Basic abc' }, { authorization: 'bearer' }, { authorization: 'Bearer ' }]) {
      const res = await t.request('GET', '/v0/user/basic-info', { headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Not authenticated' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('401 Invalid API key for an unknown or revoked key', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const unknown = await t.request('GET', '/v0/user/basic-info', { key: 'rk_' + 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ detail: 'Invalid API key.' });
    await t.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', u.userId).execute();
    const revoked = await t.request('GET', '/v0/user/basic-info', { key: u.apiKey });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({ detail: 'Invalid API key.' });
  });

  it('stores keys only as SHA-256 hashes', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const rows = await t.db.selectFrom('api_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(u.apiKey);
    expect(u.apiKey.startsWith(rows[0].prefix)).toBe(true);
    expect(u.apiKey).toMatch(/^rk_[A-Za-z0-9_-]{43}$/);
  });

  it('accepts a JSON content type with no body on a GET (real clients send it on every call)', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await t.request('GET', '/v0/user/basic-info', { key: u.apiKey, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /v0/user/basic-info', () => {
  it('returns the user and a personal key description', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 42, first: 'Ada', last: 'Lovelace' });
    const res = await t.request('GET', '/v0/user/basic-info', { key: u.apiKey });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      user_id: u.userId,
      first: 'Ada',
      last: 'Lovelace',
      email: u.email,
      credits: 42,
      account_type: null,
      key: { kind: 'personal', organization_id: null, organization_name: null, role_name: null },
    });
    expect(body.key.permissions).toContain('org:delete');
    expect(u.apiKey.startsWith(body.key.prefix)).toBe(true);
  });

  it('describes an organization key with the role and its permissions', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const viewer = await t.user();
    const o = await t.org(owner, 'Acme');
    const viewerKey = await t.member(o.organizationId, viewer, ROLE_IDS.Viewer);
    const res = await t.request('GET', '/v0/user/basic-info', { key: viewerKey });
    expect(res.statusCode).toBe(200);
    expect(res.json().key).toEqual({
      kind: 'organization',
      prefix: viewerKey.slice(0, 10),
      organization_id: o.organizationId,
      organization_name: 'Acme',
      role_name: 'Viewer',
      permissions: ['project:read', 'org:read', 'assistant:read', 'billing:read'],
    });
    expect(res.json().user_id).toBe(viewer.userId);
    // Credits shown are the organization's: what an org key spends from.
    expect(res.json().credits).toBe(0);
  });

  it('a removed member’s org key stops working', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const m = await t.user();
    const o = await t.org(owner);
    const key = await t.member(o.organizationId, m, ROLE_IDS.Member);
    await t.db.deleteFrom('memberships').where('user_id', '=', m.userId).execute();
    const res = await t.request('GET', '/v0/user/basic-info', { key });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /v0/credits', () => {
  it('returns the balance of the key scope', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 12.5 });
    const res = await t.request('GET', '/v0/credits', { key: u.apiKey });
    expect(res.json()).toEqual({ id: u.userId, credits: 12.5 });
  });
});
