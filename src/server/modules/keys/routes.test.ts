import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { hashApiKey } from '../../auth/keys.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

const SECOND = 1000;

const basicInfo = (t: TestApp, key: string) => t.request('GET', '/v0/user/basic-info', { key });
const lastUsedOf = async (t: TestApp, id: number) =>
  (await t.db.selectFrom('api_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;

describe('personal API keys', () => {
  it('creates a named key shown once and stored as a hash, lists it, and a revoked key gets 401', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const created = await t.request('POST', '/v0/keys', { key: u.apiKey, json: { name: '  CI deploys ' } });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ name: 'CI deploys', kind: 'personal', last_used_at: null, revoked_at: null, created_at: t.clock.now().toISOString() });
    expect(key.api_key).toMatch(/^rk_[\w-]{43}$/);
    expect(key.prefix).toBe(key.api_key.slice(0, 9));
    const row = await t.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashApiKey(key.api_key));
    expect(JSON.stringify(row)).not.toContain(key.api_key);

    expect((await basicInfo(t, key.api_key)).json()).toMatchObject({ user_id: u.userId, key: { kind: 'personal' } });
    const list = await t.request('GET', '/v0/keys', { key: u.apiKey });
    expect(list.statusCode).toBe(200);
    // Newest first; the key itself is never listed, only its prefix.
    expect(list.json().map((k: { name: string | null }) => k.name)).toEqual(['CI deploys', null]);
    expect(list.body).not.toContain(key.api_key);

    t.clock.advance(SECOND);
    const revoked = await t.request('DELETE', `/v0/keys/${key.id}`, { key: u.apiKey });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: key.id, revoked_at: t.clock.now().toISOString() });
    const refused = await basicInfo(t, key.api_key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ detail: 'Invalid API key.' });
    // Revoking again keeps the first time; the other key still works.
    t.clock.advance(SECOND);
    expect((await t.request('DELETE', `/v0/keys/${key.id}`, { key: u.apiKey })).json().revoked_at).toBe(revoked.json().revoked_at);
    expect((await basicInfo(t, u.apiKey)).statusCode).toBe(200);
  });

  it('works from a browser session like the personal key does', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const session = await t.session(u);
    const created = await t.request('POST', '/v0/keys', { session, json: { name: 'From the dashboard' } });
    expect(created.statusCode).toBe(201);
    expect((await basicInfo(t, created.json().api_key)).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/keys', { session })).json()).toHaveLength(2);
  });

  it('records last use coarsely: at most one write a minute per key', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const { id, api_key } = (await t.request('POST', '/v0/keys', { key: u.apiKey, json: { name: 'Script' } })).json();
    expect(await lastUsedOf(t, id)).toBeNull();
    const first = t.clock.now().toISOString();
    await basicInfo(t, api_key);
    expect(await lastUsedOf(t, id)).toBe(first);
    // Used again within the minute: nothing written.
    t.clock.advance(59 * SECOND);
    await basicInfo(t, api_key);
    await basicInfo(t, api_key);
    expect(await lastUsedOf(t, id)).toBe(first);
    t.clock.advance(2 * SECOND);
    await basicInfo(t, api_key);
    expect(await lastUsedOf(t, id)).toBe(t.clock.now().toISOString());
    const listed = (await t.request('GET', '/v0/keys', { key: u.apiKey })).json();
    expect(listed.find((k: { id: number }) => k.id === id).last_used_at).toBe(t.clock.now().toISOString());
  });

  it('answers 404 for another person’s key and leaves it working; 422 for a bad name', async () => {
    const t = await makeTestApp();
    const a = await t.user();
    const b = await t.user();
    const bKey = await t.db.selectFrom('api_keys').select('id').where('user_id', '=', b.userId).executeTakeFirstOrThrow();
    const res = await t.request('DELETE', `/v0/keys/${bKey.id}`, { key: a.apiKey });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toMatch(/not found among your personal keys/);
    expect((await basicInfo(t, b.apiKey)).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/keys', { key: a.apiKey })).json()).toHaveLength(1);
    // An organization key of a person is not one of their personal keys either.
    const org = await t.org(a);
    const orgKey = await t.db.selectFrom('api_keys').select('id').where('organization_id', '=', org.organizationId).executeTakeFirstOrThrow();
    expect((await t.request('DELETE', `/v0/keys/${orgKey.id}`, { key: a.apiKey })).statusCode).toBe(404);

    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const bad = await t.request('POST', '/v0/keys', { key: a.apiKey, json: { name } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'name']);
    }
    expect((await t.request('DELETE', '/v0/keys/abc', { key: a.apiKey })).statusCode).toBe(422);
  });

  it('refuses organization keys (account operations): 403, nothing created or revoked', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const org = await t.org(u);
    for (const [method, url, json] of [
      ['GET', '/v0/keys', undefined],
      ['POST', '/v0/keys', { name: 'Sneaky' }],
      ['DELETE', '/v0/keys/1', undefined],
      ['POST', '/v0/keys/revoke-all', { confirm: 'revoke all my keys' }],
    ] as const) {
      const res = await t.request(method, url, { key: org.ownerKey, json });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().detail).toMatch(/use your personal API key/);
    }
    expect((await basicInfo(t, u.apiKey)).statusCode).toBe(200);
    expect(await t.db.selectFrom('api_keys').select('id').where('revoked_at', 'is', null).execute()).toHaveLength(2);
  });
});

describe('revoke all my keys', () => {
  it('revokes personal and organization keys behind a typed confirmation, gives one new key, and keeps sessions', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const other = await t.user();
    const org = await t.org(u);
    const elsewhere = await t.org(other);
    const memberKey = await t.member(elsewhere.organizationId, u, ROLE_IDS.Member);
    const extra = (await t.request('POST', '/v0/keys', { key: u.apiKey, json: { name: 'Extra' } })).json().api_key;
    const session = await t.session(u);

    const unconfirmed = await t.request('POST', '/v0/keys/revoke-all', { session, json: { confirm: 'yes' } });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().detail).toMatch(/send confirm: "revoke all my keys"/);
    expect((await basicInfo(t, extra)).statusCode).toBe(200);

    const res = await t.request('POST', '/v0/keys/revoke-all', { session, json: { confirm: ' Revoke all my keys' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ revoked: 4 });
    expect(res.json().message).toMatch(/Browser sessions stay signed in/);
    for (const key of [u.apiKey, extra, org.ownerKey, memberKey]) expect((await basicInfo(t, key)).statusCode).toBe(401);
    expect((await basicInfo(t, res.json().api_key)).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/keys', { session })).statusCode).toBe(200);
    // The other person's keys are untouched.
    expect((await basicInfo(t, other.apiKey)).statusCode).toBe(200);
    expect((await basicInfo(t, elsewhere.ownerKey)).statusCode).toBe(200);
  });
});

describe('organization API keys', () => {
  async function orgWorld() {
    const t = await makeTestApp();
    const owner = await t.user();
    const admin = await t.user();
    const member = await t.user();
    const org = await t.org(owner);
    const adminKey = await t.member(org.organizationId, admin, ROLE_IDS.Admin);
    const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Member);
    const url = `/v0/organizations/${org.organizationId}/keys`;
    return { t, owner, admin, member, org, adminKey, memberKey, url };
  }

  it('lets Admins and Owners list, create and revoke; the key honours its own permissions', async () => {
    const { t, admin, member, org, memberKey, url } = await orgWorld();
    const created = await t.request('POST', url, { key: admin.apiKey, json: { name: 'Read-only dashboards', permissions: ['project:read', 'org:read'] } });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({
      name: 'Read-only dashboards',
      kind: 'organization',
      organization_id: org.organizationId,
      user_id: admin.userId,
      permissions: ['project:read', 'org:read'],
    });
    expect(key.api_key).toMatch(/^rko_/);
    expect(await t.db.selectFrom('api_keys').select('key_hash').where('id', '=', key.id).executeTakeFirstOrThrow()).toEqual({ key_hash: hashApiKey(key.api_key) });

    // Its own permissions, not its creator's whole role.
    expect((await basicInfo(t, key.api_key)).json().key).toMatchObject({
      kind: 'organization',
      organization_id: org.organizationId,
      permissions: ['project:read', 'org:read'],
    });
    expect((await t.request('GET', '/v0/projects', { key: key.api_key })).statusCode).toBe(200);
    const write = await t.request('POST', '/v0/project', { key: key.api_key, json: { name: 'nope' } });
    expect(write.statusCode).toBe(403);
    expect(write.json().detail).toBe(`Missing permission project:write in organization ${org.organizationId}.`);
    expect((await t.request('GET', `/v0/organizations/${org.organizationId}/members`, { key: key.api_key })).statusCode).toBe(200);
    const invite = await t.request('POST', `/v0/organizations/${org.organizationId}/invites`, { key: key.api_key, json: { email: 'x@example.com', role_id: 4 } });
    expect(invite.statusCode).toBe(403);
    // Nor may it manage keys.
    expect((await t.request('GET', url, { key: key.api_key })).statusCode).toBe(403);

    const list = await t.request('GET', url, { session: await t.session(admin) });
    expect(list.statusCode).toBe(200);
    // Every member's keys, newest first; membership keys follow the member's role (permissions null).
    expect(list.json().map((k: { name: string | null; user_id: string }) => [k.name, k.user_id])).toEqual([
      ['Read-only dashboards', admin.userId],
      [null, member.userId],
      [null, admin.userId],
      [null, expect.any(String)],
    ]);
    expect(list.json()[1]).toMatchObject({ permissions: null, holder: expect.stringMatching(/Tester$/) });
    expect(list.body).not.toContain(key.api_key);

    const revoked = await t.request('DELETE', `${url}/${key.id}`, { key: admin.apiKey });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).toBe(t.clock.now().toISOString());
    expect((await basicInfo(t, key.api_key)).statusCode).toBe(401);
    // An Admin may revoke any member's key of the organization.
    const memberKeyId = list.json()[1].id;
    expect((await t.request('DELETE', `${url}/${memberKeyId}`, { key: admin.apiKey })).statusCode).toBe(200);
    expect((await basicInfo(t, memberKey)).statusCode).toBe(401);
  });

  it('caps a key by its member’s current role, and refuses permissions the creator does not hold', async () => {
    const { t, owner, admin, org, adminKey, url } = await orgWorld();
    const tooMuch = await t.request('POST', url, { key: admin.apiKey, json: { name: 'Everything', permissions: ['project:read', 'org:delete'] } });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().detail[0]).toMatchObject({ loc: ['body', 'permissions'], msg: expect.stringMatching(/your role \(Admin\) does not grant org:delete/) });
    // An organization key never mints a stronger one: the Admin's membership key holds the role's permissions.
    const fromKey = await t.request('POST', url, { key: adminKey, json: { name: 'Via key', permissions: ['org:delete'] } });
    expect(fromKey.statusCode).toBe(422);

    const writer = (await t.request('POST', url, { key: admin.apiKey, json: { name: 'Writer', permissions: ['project:read', 'project:write'] } })).json();
    expect((await t.request('POST', '/v0/project', { key: writer.api_key, json: { name: 'ok' } })).statusCode).toBe(200);
    // Demoted to Viewer: the key keeps its own permissions but its member's role caps them.
    await t.request('PATCH', `/v0/organizations/${org.organizationId}/members/${admin.userId}`, { key: owner.apiKey, json: { role_id: ROLE_IDS.Viewer } });
    const capped = await t.request('POST', '/v0/project', { key: writer.api_key, json: { name: 'not-now' } });
    expect(capped.statusCode).toBe(403);
    expect((await basicInfo(t, writer.api_key)).json().key.permissions).toEqual(['project:read']);
    // And a Viewer manages no keys.
    expect((await t.request('GET', url, { key: admin.apiKey })).statusCode).toBe(403);
  });

  it('is 403 for a Member, 404 for outsiders and for another organization’s key', async () => {
    const { t, owner, member, url, org } = await orgWorld();
    const m = await t.request('POST', url, { key: member.apiKey, json: { name: 'Mine', permissions: ['project:read'] } });
    expect(m.statusCode).toBe(403);
    expect(m.json().detail).toBe(`Missing permission org:write in organization ${org.organizationId}.`);
    const outsider = await t.user();
    expect((await t.request('GET', url, { key: outsider.apiKey })).statusCode).toBe(404);
    const theirs = await t.org(outsider);
    const theirKey = await t.db.selectFrom('api_keys').select('id').where('organization_id', '=', theirs.organizationId).executeTakeFirstOrThrow();
    const res = await t.request('DELETE', `${url}/${theirKey.id}`, { key: owner.apiKey });
    expect(res.statusCode).toBe(404);
    expect((await basicInfo(t, theirs.ownerKey)).statusCode).toBe(200);
    // A personal key is not an organization key either.
    const personal = await t.db.selectFrom('api_keys').select('id').where('user_id', '=', owner.userId).where('kind', '=', 'personal').executeTakeFirstOrThrow();
    expect((await t.request('DELETE', `${url}/${personal.id}`, { key: owner.apiKey })).statusCode).toBe(404);
    const bad = await t.request('POST', url, { key: owner.apiKey, json: { name: 'Dup', permissions: ['project:read', 'project:read'] } });
    expect(bad.statusCode).toBe(422);
    expect((await t.request('POST', url, { key: owner.apiKey, json: { name: 'None', permissions: [] } })).statusCode).toBe(422);
    expect((await t.request('POST', url, { key: owner.apiKey, json: { name: 'Odd', permissions: ['root'] } })).statusCode).toBe(422);
  });
});
