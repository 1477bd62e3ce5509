import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';

async function twoOrgs(t: TestApp) {
  const ownerA = await t.user({ first: 'Alice', last: 'Owner' });
  const ownerB = await t.user({ first: 'Bob', last: 'Owner' });
  const a = await t.org(ownerA, 'Org A');
  const b = await t.org(ownerB, 'Org B');
  const admin = await t.user();
  const member = await t.user();
  const viewer = await t.user();
  const keys = {
    owner: a.ownerKey,
    admin: await t.member(a.organizationId, admin, ROLE_IDS.Admin),
    member: await t.member(a.organizationId, member, ROLE_IDS.Member),
    viewer: await t.member(a.organizationId, viewer, ROLE_IDS.Viewer),
  };
  return { ownerA, ownerB, a, b, admin, member, viewer, keys };
}

describe('organizations', () => {
  it('creates an organization: creator is Owner with an org key shown once', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await t.request('POST', '/v0/organizations', { key: u.apiKey, json: { name: '  Acme  ' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ name: 'Acme', owner_id: u.userId });
    expect(body.api_key).toMatch(/^rko_/);
    const info = await t.request('GET', '/v0/user/basic-info', { key: body.api_key });
    expect(info.json().key).toMatchObject({ kind: 'organization', organization_id: body.id, role_name: 'Owner' });
    const list = await t.request('GET', '/v0/organizations', { key: u.apiKey });
    expect(list.json().organizations).toEqual([expect.objectContaining({ id: body.id, name: 'Acme', role_id: 1, role_name: 'Owner', member_count: 1 })]);
    const bad = await t.request('POST', '/v0/organizations', { key: u.apiKey, json: { name: ' ' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['body', 'name']);
  });

  it('15: a personal key lists [] members; an org key lists the spec’s 12 fields', async () => {
    const t = await makeTestApp();
    const s = await twoOrgs(t);
    const personal = await t.request('GET', '/v0/organizations/members', { key: s.ownerA.apiKey });
    expect(personal.statusCode).toBe(200);
    expect(personal.json()).toEqual([]);
    const res = await t.request('GET', '/v0/organizations/members', { key: s.keys.viewer });
    expect(res.statusCode).toBe(200);
    const members = res.json();
    expect(members).toHaveLength(4);
    expect(Object.keys(members[0]).sort()).toEqual(
      ['id', 'user_id', 'organization_id', 'role_id', 'role_name', 'created_at', 'name', 'email', 'image', 'bio', 'timezone', 'phone_number'].sort(),
    );
    expect(members[0]).toMatchObject({ user_id: s.ownerA.userId, role_name: 'Owner', name: 'Alice Owner', email: s.ownerA.email });
    // Org B's key sees only org B.
    const other = await t.request('GET', '/v0/organizations/members', { key: s.b.ownerKey });
    expect(other.json().map((m: { user_id: string }) => m.user_id)).toEqual([s.ownerB.userId]);
  });

  it('14: adds a member with an org key shown once; unknown user 404, duplicate 409, Owner 400', async () => {
    const t = await makeTestApp();
    const s = await twoOrgs(t);
    const newcomer = await t.user();
    const res = await t.request('POST', `/v0/organizations/${s.a.organizationId}/members`, {
      key: s.keys.admin,
      json: { user_id: newcomer.userId, role_id: ROLE_IDS.Viewer },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: 'Member added successfully', user_id: newcomer.userId });
    const key = res.json().api_key;
    const info = await t.request('GET', '/v0/user/basic-info', { key });
    expect(info.json().key).toMatchObject({ organization_id: s.a.organizationId, role_name: 'Viewer' });
    const dup = await t.request('POST', `/v0/organizations/${s.a.organizationId}/members`, { key: s.keys.owner, json: { user_id: newcomer.userId } });
    expect(dup.statusCode).toBe(409);
    const unknown = await t.request('POST', `/v0/organizations/${s.a.organizationId}/members`, { key: s.keys.owner, json: { user_id: 'nobody' } });
    expect(unknown.statusCode).toBe(404);
    const other = await t.user();
    const owner = await t.request('POST', `/v0/organizations/${s.a.organizationId}/members`, { key: s.keys.owner, json: { user_id: other.userId, role_id: 1 } });
    expect(owner.statusCode).toBe(400);
    const badRole = await t.request('POST', `/v0/organizations/${s.a.organizationId}/members`, { key: s.keys.owner, json: { user_id: other.userId, role_id: 9 } });
    expect(badRole.statusCode).toBe(422);
    const missing = await t.request('POST', `/v0/organizations/${s.a.organizationId}/members`, { key: s.keys.owner, json: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'user_id'] });
    const badPath = await t.request('GET', `/v0/organizations/abc/members`, { key: s.keys.owner });
    expect(badPath.statusCode).toBe(422);
  });

  it('changes a role; never to Owner, never the owner’s', async () => {
    const t = await makeTestApp();
    const s = await twoOrgs(t);
    const url = `/v0/organizations/${s.a.organizationId}/members/${s.member.userId}`;
    const res = await t.request('PATCH', url, { key: s.keys.admin, json: { role_name: 'viewer' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user_id: s.member.userId, role_id: 4, role_name: 'Viewer' });
    // The member's key now carries the new role.
    const denied = await t.request('POST', `/v0/organizations/${s.a.organizationId}/invites`, { key: s.keys.member, json: { email: 'x@example.com' } });
    expect(denied.statusCode).toBe(403);
    expect((await t.request('PATCH', url, { key: s.keys.owner, json: { role_id: 1 } })).statusCode).toBe(400);
    expect((await t.request('PATCH', url, { key: s.keys.owner, json: {} })).statusCode).toBe(422);
    const ownerUrl = `/v0/organizations/${s.a.organizationId}/members/${s.ownerA.userId}`;
    expect((await t.request('PATCH', ownerUrl, { key: s.keys.admin, json: { role_id: 2 } })).statusCode).toBe(400);
    expect((await t.request('PATCH', url, { key: s.keys.viewer, json: { role_id: 2 } })).statusCode).toBe(403);
  });

  it('removes a member and revokes their org key; the owner cannot be removed', async () => {
    const t = await makeTestApp();
    const s = await twoOrgs(t);
    const before = await t.request('GET', '/v0/organizations/members', { key: s.keys.member });
    expect(before.statusCode).toBe(200);
    const res = await t.request('DELETE', `/v0/organizations/${s.a.organizationId}/members/${s.member.userId}`, { key: s.keys.admin });
    expect(res.statusCode).toBe(204);
    const after = await t.request('GET', '/v0/organizations/members', { key: s.keys.member });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: 'Invalid API key.' });
    // Their personal key still works.
    expect((await t.request('GET', '/v0/user/basic-info', { key: s.member.apiKey })).statusCode).toBe(200);
    const again = await t.request('DELETE', `/v0/organizations/${s.a.organizationId}/members/${s.member.userId}`, { key: s.keys.admin });
    expect(again.statusCode).toBe(404);
    const owner = await t.request('DELETE', `/v0/organizations/${s.a.organizationId}/members/${s.ownerA.userId}`, { key: s.keys.admin });
    expect(owner.statusCode).toBe(400);
    expect(owner.json().detail).toMatch(/owner cannot be removed/);
  });

  it('lists the four roles with permissions', async () => {
    const t = await makeTestApp();
    const s = await twoOrgs(t);
    const res = await t.request('GET', `/v0/organizations/${s.a.organizationId}/roles`, { key: s.keys.viewer });
    expect(res.statusCode).toBe(200);
    expect(res.json().roles.map((r: { name: string }) => r.name)).toEqual(['Owner', 'Admin', 'Member', 'Viewer']);
    expect(res.json().roles[3].permissions).toEqual(['project:read', 'org:read', 'assistant:read', 'billing:read']);
  });

  it('tenant isolation: every org-path endpoint answers 404 for a foreign org, whatever the role at home', async () => {
    const t = await makeTestApp();
    const s = await twoOrgs(t);
    const outsider = await t.user();
    const inviteB = await t.request('POST', `/v0/organizations/${s.b.organizationId}/invites`, { key: s.b.ownerKey, json: { email: outsider.email } });
    expect(inviteB.statusCode).toBe(201);
    const B = s.b.organizationId;
    const endpoints: [string, string, unknown?][] = [
      ['GET', `/v0/organizations/${B}/members`],
      ['POST', `/v0/organizations/${B}/members`, { user_id: outsider.userId }],
      ['PATCH', `/v0/organizations/${B}/members/${s.ownerB.userId}`, { role_id: 3 }],
      ['DELETE', `/v0/organizations/${B}/members/${s.ownerB.userId}`],
      ['GET', `/v0/organizations/${B}/roles`],
      ['GET', `/v0/organizations/${B}/invites`],
      ['POST', `/v0/organizations/${B}/invites`, { email: 'someone@example.com' }],
      ['DELETE', `/v0/organizations/${B}/invites/${inviteB.json().id}`],
    ];
    const callers = [s.keys.owner, s.keys.admin, s.keys.member, s.keys.viewer, s.ownerA.apiKey, s.admin.apiKey];
    for (const key of callers) {
      for (const [method, url, json] of endpoints) {
        const res = await t.request(method as 'GET', url, { key, json });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Organization not found.' });
      }
    }
    // Nothing changed in org B.
    const members = await t.request('GET', `/v0/organizations/${B}/members`, { key: s.b.ownerKey });
    expect(members.json()).toHaveLength(1);
    const invites = await t.request('GET', `/v0/organizations/${B}/invites`, { key: s.b.ownerKey });
    expect(invites.json().invites).toHaveLength(1);
    // And an invite id of org B cannot be cancelled through org A's path either.
    const cross = await t.request('DELETE', `/v0/organizations/${s.a.organizationId}/invites/${inviteB.json().id}`, { key: s.keys.owner });
    expect(cross.statusCode).toBe(404);
  });

  it('permission matrix inside the own org: read for all, write for owner/admin only', async () => {
    const t = await makeTestApp();
    const s = await twoOrgs(t);
    const A = s.a.organizationId;
    const expectations: Record<string, { read: number; write: number }> = {
      owner: { read: 200, write: 201 },
      admin: { read: 200, write: 201 },
      member: { read: 200, write: 403 },
      viewer: { read: 200, write: 403 },
    };
    let n = 0;
    for (const [role, exp] of Object.entries(expectations)) {
      const key = s.keys[role as keyof typeof s.keys];
      for (const url of [`/v0/organizations/${A}/members`, `/v0/organizations/${A}/invites`, `/v0/organizations/${A}/roles`]) {
        expect((await t.request('GET', url, { key })).statusCode, `${role} GET ${url}`).toBe(exp.read);
      }
      const inv = await t.request('POST', `/v0/organizations/${A}/invites`, { key, json: { email: `new${++n}@example.com` } });
      expect(inv.statusCode, `${role} invite`).toBe(exp.write);
      if (exp.write === 403) expect(inv.json()).toEqual({ detail: `Missing permission org:write in organization ${A}.` });
      const fresh = await t.user();
      const add = await t.request('POST', `/v0/organizations/${A}/members`, { key, json: { user_id: fresh.userId } });
      expect(add.statusCode, `${role} add`).toBe(exp.write);
    }
  });
});
