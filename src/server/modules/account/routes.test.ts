import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { accountOf, addCredits, toMicros } from '../credits/repository.ts';

const business = {
  business_name: 'Acme Robotics',
  business_type: 'LLC',
  tax_id: 'US-123',
  business_address: { address_line1: '1 Main St', city: 'Springfield', country: 'us', postal_code: '12345' },
};

describe('POST /v0/user/create-with-business-info', () => {
  it('creates a business user whose key is shown once and works', async () => {
    const t = await makeTestApp();
    const admin = await t.user();
    const res = await t.request('POST', '/v0/user/create-with-business-info', {
      key: admin.apiKey,
      json: { account_type: 'business', business_info: business, email: 'New.Colleague@Example.com', name: 'New', last_name: 'Colleague' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ message: 'User created successfully with account type: business', user_id: expect.any(String), api_key: expect.stringMatching(/^rk_/) });
    const me = (await t.request('GET', '/v0/user/basic-info', { key: body.api_key })).json();
    expect(me).toMatchObject({ user_id: body.user_id, email: 'new.colleague@example.com', first: 'New', last: 'Colleague', account_type: 'business' });
    const row = await t.db.selectFrom('users').select('business_info').where('id', '=', body.user_id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.business_info!)).toMatchObject({ business_name: 'Acme Robotics', tax_exempt: false, business_address: { country: 'US' } });
  });

  it('lets only instance administrators create accounts, with credits only when they give them (security review, medium 3)', async () => {
    const t = await makeTestApp();
    const first = await t.user();
    const other = await t.user();
    expect((await t.request('GET', '/v0/user/basic-info', { key: first.apiKey })).json().is_admin).toBe(true);
    expect((await t.request('GET', '/v0/user/basic-info', { key: other.apiKey })).json().is_admin).toBe(false);
    const refused = await t.request('POST', '/v0/user/create-with-business-info', {
      key: other.apiKey,
      json: { account_type: 'individual', email: 'minted@example.com' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Only instance administrators can create accounts for other people.' });
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'minted@example.com').executeTakeFirst()).toBeUndefined();
    // Classifying one's own account stays open to everyone.
    expect((await t.request('POST', '/v0/user/create-with-business-info', { key: other.apiKey, json: { account_type: 'individual', email: null } })).statusCode).toBe(
      200,
    );

    const create = (email: string, credits?: number) =>
      t.request('POST', '/v0/user/create-with-business-info', {
        key: first.apiKey,
        json: { account_type: 'individual', email, ...(credits === undefined ? {} : { credits }) },
      });
    const plain = (await create('plain@example.com')).json();
    expect((await t.request('GET', '/v0/user/basic-info', { key: plain.api_key })).json()).toMatchObject({ credits: 0, is_admin: false });
    const funded = (await create('funded@example.com', 25)).json();
    expect((await t.request('GET', '/v0/user/basic-info', { key: funded.api_key })).json().credits).toBe(25);
    expect((await create('negative@example.com', -1)).statusCode).toBe(422);
  });

  it('refuses a duplicate e-mail with 400, including two at once', async () => {
    const t = await makeTestApp();
    const admin = await t.user();
    const dup = await t.request('POST', '/v0/user/create-with-business-info', {
      key: admin.apiKey,
      json: { account_type: 'individual', email: admin.email.toUpperCase() },
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ detail: 'A user with this email already exists.' });
    const racing = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.request('POST', '/v0/user/create-with-business-info', { key: admin.apiKey, json: { account_type: 'individual', email: 'race@example.com' } }),
      ),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
  });

  it('classifies the caller’s own account when email is null', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await t.request('POST', '/v0/user/create-with-business-info', { key: u.apiKey, json: { account_type: 'individual', email: null, business_info: null } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Account type updated to individual', user_id: u.userId });
    expect((await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).json().account_type).toBe('individual');
  });

  it('reads the classification back as saved (GET /v0/user/classification), so the form can show it', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const read = async () => (await t.request('GET', '/v0/user/classification', { key: u.apiKey })).json();
    expect(await read()).toEqual({ account_type: null, business_info: null });
    await t.request('POST', '/v0/user/create-with-business-info', { key: u.apiKey, json: { account_type: 'business', business_info: business, email: null } });
    expect(await read()).toEqual({
      account_type: 'business',
      business_info: { ...business, tax_exempt: false, business_address: { ...business.business_address, country: 'US' } },
    });
    await t.request('POST', '/v0/user/create-with-business-info', { key: u.apiKey, json: { account_type: 'individual', email: null } });
    expect(await read()).toEqual({ account_type: 'individual', business_info: null });
  });

  it('validates the business fields with 422s that name them', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const cases: [unknown, string[]][] = [
      [{ account_type: 'business' }, ['body', 'business_info']],
      [{ account_type: 'enterprise' }, ['body', 'account_type']],
      [
        { account_type: 'business', business_info: { ...business, business_address: { ...business.business_address, country: 'XQ' } } },
        ['body', 'business_info', 'business_address', 'country'],
      ],
      [
        { account_type: 'business', business_info: { ...business, business_address: { ...business.business_address, country: 'USA' } } },
        ['body', 'business_info', 'business_address', 'country'],
      ],
      [{ account_type: 'business', business_info: { ...business, business_name: '  ' } }, ['body', 'business_info', 'business_name']],
      [{ account_type: 'individual', email: 'not-an-email' }, ['body', 'email']],
    ];
    for (const [json, loc] of cases) {
      const res = await t.request('POST', '/v0/user/create-with-business-info', { key: u.apiKey, json });
      expect(res.statusCode, JSON.stringify(json)).toBe(422);
      expect(res.json().detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(loc);
    }
  });
});

describe('spending limit', () => {
  it('sets, reads and removes the limit with a personal key', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const set = await t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: { monthly_spending_cap: 12.5 } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ user_id: u.userId, monthly_spending_cap: 12.5, assistants_capped: 0 });
    expect((await t.request('GET', '/v0/user/spending-limit', { key: u.apiKey })).json()).toEqual({ user_id: u.userId, monthly_spending_cap: 12.5 });
    const cleared = await t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: { monthly_spending_cap: null } });
    expect(cleared.json()).toEqual({ user_id: u.userId, monthly_spending_cap: null, assistants_capped: 0 });
  });

  it('refuses an organization key (403) and bad amounts (422)', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const org = await t.org(u);
    const forbidden = await t.request('PUT', '/v0/user/spending-limit', { key: org.ownerKey, json: { monthly_spending_cap: 5 } });
    expect(forbidden.statusCode).toBe(403);
    for (const bad of [{ monthly_spending_cap: -1 }, { monthly_spending_cap: '10' }, {}, { monthly_spending_cap: 'NaN' }]) {
      const res = await t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['body', 'monthly_spending_cap']);
    }
  });

  it('lowering caps personal assistants above the limit only: above → capped; equal, below and none untouched; organization ones untouched', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 100 });
    const org = await t.org(u);
    const orgAccount = await accountOf(t.db, { userId: u.userId, organizationId: org.organizationId });
    await addCredits(t.db, orgAccount.id, toMicros(50), 'test', null, t.clock.now());
    const hire = async (key: string, cap: number | null) => {
      const { agent_id } = (await t.request('POST', '/v0/assistant', { key, json: {} })).json().info;
      if (cap !== null) expect((await t.request('PATCH', `/v0/assistant/${agent_id}/config`, { key, json: { monthly_spending_cap: cap } })).statusCode).toBe(200);
      return agent_id as string;
    };
    const ids = {
      above: await hire(u.apiKey, 80),
      equal: await hire(u.apiKey, 50),
      below: await hire(u.apiKey, 20),
      none: await hire(u.apiKey, null),
      org: await hire(org.ownerKey, 90),
    };
    const res = await t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: { monthly_spending_cap: 50 } });
    expect(res.json()).toEqual({ user_id: u.userId, monthly_spending_cap: 50, assistants_capped: 1 });
    const capOf = async (id: string, key = u.apiKey) => (await t.request('GET', `/v0/assistant/${id}`, { key })).json().info.monthly_spending_cap;
    expect([await capOf(ids.above), await capOf(ids.equal), await capOf(ids.below), await capOf(ids.none), await capOf(ids.org, org.ownerKey)]).toEqual([
      50,
      50,
      20,
      null,
      90,
    ]);
    // Raising the limit or removing it caps nothing (and restores nothing).
    expect((await t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: { monthly_spending_cap: 200 } })).json().assistants_capped).toBe(0);
    expect((await t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: { monthly_spending_cap: null } })).json().assistants_capped).toBe(0);
    expect(await capOf(ids.above)).toBe(50);
  });
});

describe('account deletion', () => {
  it('lists organization ownership as a blocker and refuses to delete while it stands', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    await t.org(u, 'Zeta Labs');
    await t.org(u, 'Alpha Works');
    const check = (await t.request('GET', '/v0/user/can-delete-account', { key: u.apiKey })).json();
    expect(check.can_delete).toBe(false);
    expect(check.blockers).toEqual([
      {
        reason: 'organization_owner',
        details: { message: expect.stringContaining('Alpha Works, Zeta Labs'), organizations: ['Alpha Works', 'Zeta Labs'], organization_ids: expect.any(Array) },
      },
    ]);
    const refused = await t.request('DELETE', '/v0/user/delete-account', { key: u.apiKey, json: { confirm_email: u.email } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().blockers[0].reason).toBe('organization_owner');
    expect((await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).statusCode).toBe(200);
  });

  it('deletes the user’s personal data and keys and nothing of anyone else', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    const leaving = await t.user();
    const memberKey = await t.member(org.organizationId, leaving, ROLE_IDS.Member);
    await t.request('POST', '/v0/custom_endpoint', { key: leaving.apiKey, json: { name: 'mine@custom', url: 'https://llm.example.com/v1', model_arg: 'm' } });
    await t.request('POST', '/v0/custom_endpoint', { key: owner.apiKey, json: { name: 'theirs@custom', url: 'https://llm.example.com/v1', model_arg: 'm' } });

    const check = (await t.request('GET', '/v0/user/can-delete-account', { key: leaving.apiKey })).json();
    expect(check).toEqual({
      can_delete: true,
      blockers: [],
      // The starter project and the personal endpoint; the member's org key and personal key.
      deletes: { projects: 1, assistants: 0, voices: 0, custom_endpoints: 1, organization_memberships: 1, api_keys: 2 },
    });
    const wrong = await t.request('DELETE', '/v0/user/delete-account', { key: leaving.apiKey, json: { confirm_email: 'someone@else.com' } });
    expect(wrong.statusCode).toBe(400);
    const res = await t.request('DELETE', '/v0/user/delete-account', { key: leaving.apiKey, json: { confirm_email: leaving.email.toUpperCase() } });
    expect(res.statusCode).toBe(200);

    for (const key of [leaving.apiKey, memberKey]) expect((await t.request('GET', '/v0/user/basic-info', { key })).json()).toEqual({ detail: 'Invalid API key.' });
    expect(await t.db.selectFrom('users').select('id').where('id', '=', leaving.userId).executeTakeFirst()).toBeUndefined();
    expect(await t.db.selectFrom('custom_endpoints').select('name').where('user_id', '=', leaving.userId).execute()).toEqual([]);
    expect(await t.db.selectFrom('memberships').select('id').where('user_id', '=', leaving.userId).execute()).toEqual([]);
    // The owner and their things are untouched.
    expect((await t.request('GET', '/v0/user/basic-info', { key: owner.apiKey })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/user/basic-info', { key: org.ownerKey })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/custom_endpoint/list', { key: owner.apiKey })).json().map((e: { name: string }) => e.name)).toEqual(['theirs@custom']);
  });

  it('keeps what a leaving member made in an organization (creator becomes null) and deletes what was personal', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    const leaving = await t.user();
    const memberKey = await t.member(org.organizationId, leaving, ROLE_IDS.Member);
    const endpoint = { url: 'https://llm.example.com/v1', model_arg: 'm' };
    expect((await t.request('POST', '/v0/project', { key: memberKey, json: { name: 'team-runs' } })).statusCode).toBe(200);
    await t.request('POST', '/v0/project/team-runs/contexts', { key: memberKey, json: { name: 'results' } });
    await t.request('POST', '/v0/project/team-runs/contexts/results/logs', { key: memberKey, json: { entries: [{ score: 1 }] } });
    expect((await t.request('POST', '/v0/custom_endpoint', { key: memberKey, json: { name: 'team@custom', ...endpoint } })).statusCode).toBe(201);
    expect((await t.request('POST', '/v0/project', { key: leaving.apiKey, json: { name: 'private-notes' } })).statusCode).toBe(200);

    const check = (await t.request('GET', '/v0/user/can-delete-account', { key: leaving.apiKey })).json();
    expect(check.deletes).toMatchObject({ projects: 2, custom_endpoints: 0, organization_memberships: 1 });
    expect((await t.request('DELETE', '/v0/user/delete-account', { key: leaving.apiKey, json: { confirm_email: leaving.email } })).statusCode).toBe(200);

    // The organization keeps the project, its rows and the endpoint, now without a creator.
    expect((await t.request('GET', '/v0/projects', { key: org.ownerKey })).json()).toContain('team-runs');
    const rows = (await t.request('GET', '/v0/project/team-runs/contexts/results/logs', { key: org.ownerKey })).json();
    expect(rows.count).toBe(1);
    expect((await t.request('GET', '/v0/custom_endpoint/list', { key: org.ownerKey })).json().map((e: { name: string }) => e.name)).toEqual(['team@custom']);
    const kept = await t.db.selectFrom('projects').select(['name', 'user_id']).where('name', '=', 'team-runs').execute();
    expect(kept).toEqual([{ name: 'team-runs', user_id: null }]);
    // What was personal is gone.
    expect(await t.db.selectFrom('projects').select('name').where('scope_key', '=', `u:${leaving.userId}`).execute()).toEqual([]);
  });
});
