import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../shared/roles.ts';
import { ORGANIZATION_HEADER } from '../../shared/workspace-header.ts';
import { makeTestApp } from '../testing/harness.ts';

// X-Roster-Organization: a session (or a personal key) acting in one of the person's organizations by
// their current role there. The matrix (authorization-matrix.test.ts) covers every operation × role; these
// are the cases around it: where things land, removal, foreign organizations, bad values, org keys.

const inOrg = (id: number) => ({ [ORGANIZATION_HEADER]: String(id) });

async function world() {
  const t = await makeTestApp();
  const owner = await t.user();
  const person = await t.user();
  const org = await t.org(owner, 'Header Org');
  await t.member(org.organizationId, person, ROLE_IDS.Member);
  return { t, owner, person, org, session: await t.session(person) };
}

describe('X-Roster-Organization', () => {
  it('makes a session act in the organization: what it creates is the organization’s, not the person’s', async () => {
    const { t, person, org, session } = await world();
    const created = await t.request('POST', '/v0/project', { session, headers: inOrg(org.organizationId), json: { name: 'team-project' } });
    expect(created.statusCode).toBe(200);
    expect((await t.request('GET', '/v0/projects', { key: org.ownerKey })).json()).toEqual(['team-project']);
    expect((await t.request('GET', '/v0/projects', { session })).json()).not.toContain('team-project');
    expect((await t.request('GET', '/v0/projects', { key: person.apiKey, headers: inOrg(org.organizationId) })).json()).toEqual(['team-project']);
    const me = (await t.request('GET', '/v0/user/basic-info', { session, headers: inOrg(org.organizationId) })).json();
    expect(me.key).toMatchObject({ kind: 'session', organization_id: org.organizationId, organization_name: 'Header Org', role_name: 'Member' });
    expect(me.key.permissions).not.toContain('org:write');
  });

  it('applies the role: a Viewer reads but cannot write', async () => {
    const { t, org } = await world();
    const viewer = await t.user();
    await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
    const session = await t.session(viewer);
    expect((await t.request('GET', '/v0/projects', { session, headers: inOrg(org.organizationId) })).statusCode).toBe(200);
    const refused = await t.request('POST', '/v0/project', { session, headers: inOrg(org.organizationId), json: { name: 'nope' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/Missing permission project:write/);
  });

  it('checks membership on every request: a removed member is refused at once, their personal workspace still works', async () => {
    const { t, person, org, session } = await world();
    expect((await t.request('GET', '/v0/projects', { session, headers: inOrg(org.organizationId) })).statusCode).toBe(200);
    const removed = await t.request('DELETE', `/v0/organizations/${org.organizationId}/members/${person.userId}`, { key: org.ownerKey });
    expect(removed.statusCode).toBeLessThan(300);
    const after = await t.request('GET', '/v0/projects', { session, headers: inOrg(org.organizationId) });
    expect(after.statusCode).toBe(404);
    expect(after.json().detail).toBe('Organization not found.');
    expect((await t.request('POST', '/v0/project', { session, headers: inOrg(org.organizationId), json: { name: 'late' } })).statusCode).toBe(404);
    expect((await t.request('GET', '/v0/projects', { key: org.ownerKey })).json()).toEqual([]);
    // Not signed out: the session still answers in the personal workspace.
    expect((await t.request('GET', '/v0/projects', { session })).statusCode).toBe(200);
  });

  it('follows a role change and a renamed organization on the next request, though the same session asked a moment before', async () => {
    const { t, person, org, session } = await world();
    const me = async () => (await t.request('GET', '/v0/user/basic-info', { session, headers: inOrg(org.organizationId) })).json().key;
    expect(await me()).toMatchObject({ role_name: 'Member', organization_name: 'Header Org' });
    expect(await me()).toMatchObject({ role_name: 'Member' }); // kept: the same membership, the same session
    const asOwner = (method: 'PATCH', url: string, json: unknown) => t.request(method, url, { key: org.ownerKey, json });
    expect((await asOwner('PATCH', `/v0/organizations/${org.organizationId}/members/${person.userId}`, { role_id: ROLE_IDS.Viewer })).statusCode).toBe(200);
    expect(await me()).toMatchObject({ role_name: 'Viewer' });
    const write = await t.request('POST', '/v0/project', { session, headers: inOrg(org.organizationId), json: { name: 'as-viewer' } });
    expect(write.statusCode).toBe(403);
    // No endpoint renames an organization: as an instance administrator's tool would, on the database.
    await t.db.updateTable('organizations').set({ name: 'Renamed Org' }).where('id', '=', org.organizationId).execute();
    expect(await me()).toMatchObject({ role_name: 'Viewer', organization_name: 'Renamed Org' });
  });

  it('answers 404 for an organization the person is not in, exactly as for one that does not exist', async () => {
    const { t, session, person } = await world();
    const stranger = await t.user();
    const foreign = await t.org(stranger, 'Foreign');
    await t.request('POST', '/v0/project', { key: foreign.ownerKey, json: { name: 'secret-project' } });
    for (const id of [foreign.organizationId, 999999]) {
      for (const credentials of [{ session }, { key: person.apiKey }]) {
        const res = await t.request('GET', '/v0/projects', { ...credentials, headers: inOrg(id) });
        expect(res.statusCode).toBe(404);
        expect(res.json().detail).toBe('Organization not found.');
        expect(res.body).not.toContain('secret-project');
      }
    }
  });

  it('refuses a value that is not an organization id with 400, and leaves public operations alone', async () => {
    const { t, session } = await world();
    for (const value of ['abc', '0', '-1', '1.5', '12345678901234567890', '']) {
      const res = await t.request('GET', '/v0/projects', { session, headers: { [ORGANIZATION_HEADER]: value } });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().detail).toMatch(/X-Roster-Organization must be the id of an organization/);
    }
    expect((await t.request('GET', '/v0/health', { headers: { [ORGANIZATION_HEADER]: 'abc' } })).statusCode).toBe(200);
  });

  it('keeps organization keys as they are: their own organization only', async () => {
    const { t, org, owner } = await world();
    const other = await t.org(owner, 'Owner’s other');
    await t.request('POST', '/v0/project', { key: org.ownerKey, json: { name: 'a-project' } });
    expect((await t.request('GET', '/v0/projects', { key: org.ownerKey, headers: inOrg(org.organizationId) })).json()).toEqual(['a-project']);
    const elsewhere = await t.request('GET', '/v0/projects', { key: org.ownerKey, headers: inOrg(other.organizationId) });
    expect(elsewhere.statusCode).toBe(404);
  });
});
