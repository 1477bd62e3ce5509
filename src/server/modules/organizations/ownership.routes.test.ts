import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { multipart, PNG } from '../assistants/test-helpers.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// Ownership (issue 19): transfer, leave, delete an organization, and funding it from the owner's balance.

async function team(t: TestApp) {
  const owner = await t.user({ first: 'Olga', last: 'Owner', credits: 50 });
  const org = await t.org(owner, 'Acme Labs');
  const admin = await t.user();
  const member = await t.user();
  const keys = {
    owner: org.ownerKey,
    admin: await t.member(org.organizationId, admin, ROLE_IDS.Admin),
    member: await t.member(org.organizationId, member, ROLE_IDS.Member),
  };
  return { owner, org, admin, member, keys, path: `/v0/organizations/${org.organizationId}` };
}

const roleOf = async (t: TestApp, organizationId: number, userId: string) =>
  (await t.db.selectFrom('memberships').select('role_id').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst())?.role_id;

describe('transfer ownership', () => {
  it('makes a member the Owner and the previous owner an Admin; the account pre-flight stops blocking', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    const before = (await t.request('GET', '/v0/user/can-delete-account', { key: s.owner.apiKey })).json();
    expect(before.can_delete).toBe(false);
    const res = await t.request('POST', `${s.path}/transfer-ownership`, { key: s.owner.apiKey, json: { user_id: s.member.userId, confirm_name: ' Acme Labs ' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Ownership of Acme Labs transferred.',
      organization_id: s.org.organizationId,
      owner_id: s.member.userId,
      previous_owner_id: s.owner.userId,
      previous_owner_role_name: 'Admin',
    });
    expect(await roleOf(t, s.org.organizationId, s.member.userId)).toBe(ROLE_IDS.Owner);
    expect(await roleOf(t, s.org.organizationId, s.owner.userId)).toBe(ROLE_IDS.Admin);
    // Keys carry the new roles at once: the old owner's org key is an Admin's now, the new owner's an Owner's.
    expect((await t.request('GET', '/v0/user/basic-info', { key: s.keys.owner })).json().key.role_name).toBe('Admin');
    expect((await t.request('GET', `${s.path}/deletion`, { key: s.keys.owner })).statusCode).toBe(403);
    expect((await t.request('GET', `${s.path}/deletion`, { key: s.keys.member })).statusCode).toBe(200);
    const list = (await t.request('GET', '/v0/organizations', { key: s.member.apiKey })).json().organizations;
    expect(list).toEqual([expect.objectContaining({ id: s.org.organizationId, owner_id: s.member.userId, role_name: 'Owner' })]);
    const after = (await t.request('GET', '/v0/user/can-delete-account', { key: s.owner.apiKey })).json();
    expect(after).toMatchObject({ can_delete: true, blockers: [] });
  });

  it('is the Owner’s alone, to a member, not to oneself, with the name typed', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    const outsider = await t.user();
    const url = `${s.path}/transfer-ownership`;
    const body = (user_id: string, confirm_name = 'Acme Labs') => ({ user_id, confirm_name });
    for (const key of [s.keys.admin, s.admin.apiKey, s.keys.member]) {
      const refused = await t.request('POST', url, { key, json: body(s.admin.userId) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: `Missing permission org:delete in organization ${s.org.organizationId}.` });
    }
    const notMember = await t.request('POST', url, { key: s.owner.apiKey, json: body(outsider.userId) });
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json().detail).toMatch(/is not a member of Acme Labs\. Invite or add them first/);
    const self = await t.request('POST', url, { key: s.owner.apiKey, json: body(s.owner.userId) });
    expect(self.statusCode).toBe(400);
    expect(self.json().detail).toMatch(/already own/);
    const wrongName = await t.request('POST', url, { key: s.owner.apiKey, json: body(s.admin.userId, 'acme labs') });
    expect(wrongName.statusCode).toBe(400);
    expect(wrongName.json()).toEqual({ detail: 'confirm_name must be the organization’s name, "Acme Labs".' });
    const missing = await t.request('POST', url, { key: s.owner.apiKey, json: { user_id: s.admin.userId } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail[0].loc).toEqual(['body', 'confirm_name']);
    // An outsider, even owner of another organization, finds no organization here.
    const stranger = await t.request('POST', url, { key: outsider.apiKey, json: body(outsider.userId) });
    expect(stranger.statusCode).toBe(404);
    // Nothing moved.
    expect(await roleOf(t, s.org.organizationId, s.owner.userId)).toBe(ROLE_IDS.Owner);
    expect(await roleOf(t, s.org.organizationId, s.admin.userId)).toBe(ROLE_IDS.Admin);
  });

  it('two transfers at once: one wins, the other is refused, and the organization has one Owner', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    const url = `${s.path}/transfer-ownership`;
    const results = await Promise.all(
      [s.admin.userId, s.member.userId].map((user_id) => t.request('POST', url, { key: s.owner.apiKey, json: { user_id, confirm_name: 'Acme Labs' } })),
    );
    // The loser finds itself an Admin already (403), or, on PostgreSQL, loses the conditional update (409).
    const [won, lost] = results.map((r) => r.statusCode).sort();
    expect(won).toBe(200);
    expect([403, 409]).toContain(lost);
    const owners = await t.db
      .selectFrom('memberships')
      .select('user_id')
      .where('organization_id', '=', s.org.organizationId)
      .where('role_id', '=', ROLE_IDS.Owner)
      .execute();
    expect(owners).toHaveLength(1);
    const org = await t.db.selectFrom('organizations').select('owner_id').where('id', '=', s.org.organizationId).executeTakeFirstOrThrow();
    expect(owners[0].user_id).toBe(org.owner_id);
  });
});

describe('leave an organization', () => {
  it('a member leaves: their membership and organization key go, their account stays', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    const wrong = await t.request('POST', `${s.path}/leave`, { key: s.member.apiKey, json: { confirm_name: 'Other' } });
    expect(wrong.statusCode).toBe(400);
    const res = await t.request('POST', `${s.path}/leave`, { key: s.member.apiKey, json: { confirm_name: 'Acme Labs' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'You left Acme Labs.' });
    expect(await roleOf(t, s.org.organizationId, s.member.userId)).toBeUndefined();
    expect((await t.request('GET', '/v0/user/basic-info', { key: s.keys.member })).statusCode).toBe(401);
    expect((await t.request('GET', '/v0/user/basic-info', { key: s.member.apiKey })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/organizations', { key: s.member.apiKey })).json().organizations).toEqual([]);
    // Gone means gone: a second leave finds no organization.
    expect((await t.request('POST', `${s.path}/leave`, { key: s.member.apiKey, json: { confirm_name: 'Acme Labs' } })).statusCode).toBe(404);
  });

  it('the owner cannot leave (409 that says what to do); after a transfer they can', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    for (const key of [s.owner.apiKey, s.keys.owner]) {
      const refused = await t.request('POST', `${s.path}/leave`, { key, json: { confirm_name: 'Acme Labs' } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe(
        `You are the owner of Acme Labs, and an organization needs its owner. Transfer ownership to another member (POST /v0/organizations/${s.org.organizationId}/transfer-ownership) or delete the organization (DELETE /v0/organizations/${s.org.organizationId}).`,
      );
    }
    expect(await roleOf(t, s.org.organizationId, s.owner.userId)).toBe(ROLE_IDS.Owner);
    const session = await t.session(s.owner);
    expect((await t.request('POST', `${s.path}/transfer-ownership`, { session, json: { user_id: s.admin.userId, confirm_name: 'Acme Labs' } })).statusCode).toBe(200);
    expect((await t.request('POST', `${s.path}/leave`, { session, json: { confirm_name: 'Acme Labs' } })).statusCode).toBe(200);
    expect(await roleOf(t, s.org.organizationId, s.owner.userId)).toBeUndefined();
  });
});

describe('delete an organization', () => {
  async function filled(t: TestApp) {
    const s = await team(t);
    const other = await t.org(await t.user(), 'Other Org');
    for (const key of [s.keys.member, other.ownerKey]) {
      expect((await t.request('POST', '/v0/project', { key, json: { name: 'runs', is_versioned: true } })).statusCode).toBe(200);
      expect((await t.request('POST', '/v0/project/runs/contexts', { key, json: { name: 'results' } })).statusCode).toBeLessThan(300);
      expect((await t.request('POST', '/v0/project/runs/contexts/results/logs', { key, json: { entries: [{ score: 1 }, { score: 2 }] } })).statusCode).toBeLessThan(300);
      expect((await t.request('POST', '/v0/project/runs/contexts/results/commit', { key, json: { commit_message: 'first' } })).statusCode).toBeLessThan(300);
      const ui = await t.request('POST', '/v0/project/runs/interfaces', { key, json: { name: 'Overview' } });
      expect(ui.statusCode).toBeLessThan(300);
      const tab = await t.request('POST', `/v0/interface/${ui.json().info.id}/tabs`, { key, json: { name: 'Main' } });
      expect(tab.statusCode).toBeLessThan(300);
      const tile = await t.request('POST', `/v0/tab/${tab.json().info.id}/tiles`, {
        key,
        json: { name: 'Score', context: 'results', table_tile: { column_order: ['score'] }, position: { x: 0, y: 0, width: 4, height: 2 } },
      });
      expect(tile.statusCode, tile.body).toBeLessThan(300);
      const photo = multipart({}, { filename: 'p.png', contentType: 'image/png', content: PNG });
      expect((await t.request('POST', '/v0/assistant/photo/upload', { key, headers: photo.headers, payload: photo.payload })).statusCode).toBeLessThan(300);
      expect((await t.request('POST', '/v0/custom_endpoint', { key, json: { name: 'team@custom', url: 'https://llm.example.com/v1', model_arg: 'm' } })).statusCode).toBe(
        201,
      );
    }
    expect((await t.request('POST', `${s.path}/invites`, { key: s.keys.admin, json: { email: 'newcomer@example.com' } })).statusCode).toBe(201);
    expect((await t.request('POST', `${s.path}/credits`, { key: s.owner.apiKey, json: { amount: 5 } })).statusCode).toBe(200);
    return { ...s, other };
  }

  it('the pre-flight counts what goes; the deletion removes exactly that, cleans its files, and leaves other organizations alone', async () => {
    const t = await makeTestApp();
    const s = await filled(t);
    const O = s.org.organizationId;
    const pre = await t.request('GET', `${s.path}/deletion`, { key: s.owner.apiKey });
    expect(pre.statusCode).toBe(200);
    const deletes = pre.json().deletes;
    expect(pre.json()).toMatchObject({ organization_id: O, name: 'Acme Labs' });
    expect(deletes).toMatchObject({
      members: 3,
      pending_invites: 1,
      api_keys: 3,
      files: 1,
      projects: 1,
      contexts: 1,
      rows: 2,
      commits: 1,
      dashboards: 1,
      tiles: 1,
      custom_endpoints: 1,
      credits: 5,
    });
    const files = await t.db.selectFrom('stored_files').select(['key', 'organization_id']).execute();
    const ours = files.filter((f) => f.organization_id === O).map((f) => f.key);
    const theirs = files.filter((f) => f.organization_id === s.other.organizationId).map((f) => f.key);
    expect(ours).toHaveLength(1);
    expect(await t.app.deps.storage.get(ours[0])).not.toBeNull();

    const wrong = await t.request('DELETE', s.path, { key: s.owner.apiKey, json: { confirm_name: 'Acme' } });
    expect(wrong.statusCode).toBe(400);
    expect((await t.request('DELETE', s.path, { key: s.keys.admin, json: { confirm_name: 'Acme Labs' } })).statusCode).toBe(403);
    const res = await t.request('DELETE', s.path, { key: s.owner.apiKey, json: { confirm_name: 'Acme Labs' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Organization Acme Labs deleted.', deleted: deletes });

    // Everything of the organization is gone, its keys with it.
    expect(await t.db.selectFrom('organizations').select('id').where('id', '=', O).executeTakeFirst()).toBeUndefined();
    for (const table of ['memberships', 'api_keys', 'invites', 'billing_accounts', 'assistants', 'voices', 'stored_files', 'projects', 'custom_endpoints'] as const) {
      expect(await t.db.selectFrom(table).select('organization_id').where('organization_id', '=', O).execute(), table).toEqual([]);
    }
    expect(await t.db.selectFrom('mail_outbox').select('id').where('organization_id', '=', O).where('status', '=', 'pending').execute()).toEqual([]);
    for (const key of [s.keys.owner, s.keys.admin, s.keys.member]) expect((await t.request('GET', '/v0/user/basic-info', { key })).statusCode).toBe(401);
    expect(await t.app.deps.storage.get(ours[0])).toBeNull();
    expect((await t.request('GET', s.path + '/members', { key: s.owner.apiKey })).statusCode).toBe(404);
    // The people keep their accounts; the owner can now delete theirs.
    expect((await t.request('GET', '/v0/user/can-delete-account', { key: s.owner.apiKey })).json().can_delete).toBe(true);

    // The other organization has all of its things.
    const key = s.other.ownerKey;
    expect((await t.request('GET', '/v0/projects', { key })).json()).toContain('runs');
    expect((await t.request('GET', '/v0/project/runs/contexts/results/logs', { key })).json().count).toBe(2);
    expect((await t.request('GET', '/v0/project/runs/interfaces', { key })).json().info).toHaveLength(1);
    expect((await t.request('GET', '/v0/custom_endpoint/list', { key })).json()).toHaveLength(1);
    expect(await t.app.deps.storage.get(theirs[0])).not.toBeNull();
    expect((await t.request('GET', `/v0/organizations/${s.other.organizationId}/deletion`, { key })).json().deletes).toMatchObject({
      projects: 1,
      rows: 2,
      tiles: 1,
      files: 1,
    });
  });
});

describe('move credits to an organization', () => {
  const balance = async (t: TestApp, key: string) => (await t.request('GET', '/v0/credits', { key })).json().credits;

  it('moves from the owner’s personal balance in one step, with a ledger row on each side', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    const res = await t.request('POST', `${s.path}/credits`, { key: s.owner.apiKey, json: { amount: 12.5 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ moved: 12.5, personal_credits: 37.5, organization_credits: 12.5 });
    expect(await balance(t, s.owner.apiKey)).toBe(37.5);
    expect(await balance(t, s.keys.member)).toBe(12.5);
    const ledger = await t.db.selectFrom('credit_ledger').select(['delta_micros', 'reason', 'reference']).where('reason', 'like', 'transfer_%').orderBy('id').execute();
    expect(ledger.map((r) => ({ ...r, delta_micros: Number(r.delta_micros) }))).toEqual([
      { delta_micros: -12_500_000, reason: 'transfer_out', reference: `organization:${s.org.organizationId}` },
      { delta_micros: 12_500_000, reason: 'transfer_in', reference: `user:${s.owner.userId}` },
    ]);
  });

  it('refuses more than the balance (402, nothing changes), bad amounts (422) and non-owners (403)', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    const over = await t.request('POST', `${s.path}/credits`, { key: s.owner.apiKey, json: { amount: 50.000001 } });
    expect(over.statusCode).toBe(402);
    expect(over.json()).toEqual({ detail: 'You have 50 personal credits; you cannot move 50.000001. Move at most your balance.' });
    for (const amount of [0, -1, 'ten', 2e9]) {
      const bad = await t.request('POST', `${s.path}/credits`, { key: s.owner.apiKey, json: { amount } });
      expect(bad.statusCode, String(amount)).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'amount']);
    }
    for (const key of [s.admin.apiKey, s.keys.admin, s.member.apiKey]) {
      expect((await t.request('POST', `${s.path}/credits`, { key, json: { amount: 1 } })).statusCode).toBe(403);
    }
    expect(await balance(t, s.owner.apiKey)).toBe(50);
    expect(await balance(t, s.keys.owner)).toBe(0);
    expect(await t.db.selectFrom('credit_ledger').select('id').where('reason', 'like', 'transfer_%').execute()).toEqual([]);
    // All of it is fine.
    expect((await t.request('POST', `${s.path}/credits`, { key: s.owner.apiKey, json: { amount: 50 } })).json()).toEqual({
      moved: 50,
      personal_credits: 0,
      organization_credits: 50,
    });
  });

  it('concurrent moves cannot overdraw: together they move at most the balance', async () => {
    const t = await makeTestApp();
    const s = await team(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => t.request('POST', `${s.path}/credits`, { key: s.owner.apiKey, json: { amount: 15 } })));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 402, 402, 402, 402, 402]);
    expect(await balance(t, s.owner.apiKey)).toBe(5);
    expect(await balance(t, s.keys.owner)).toBe(45);
  });
});
