import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { ORGANIZATION_HEADER } from '../../../shared/workspace-header.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { accountOf, addCredits, toMicros } from './repository.ts';

// POST /v0/credits/deduct (logs-api.md §9): the real app and database, every tenant rule over HTTP.

const deduct = (t: TestApp, key: string, json: unknown, headers: Record<string, string> = {}) => t.request('POST', '/v0/credits/deduct', { key, json, headers });
const balance = async (t: TestApp, key: string, headers: Record<string, string> = {}) =>
  (await t.request('GET', '/v0/credits', { key, headers })).json().credits as number;

/** Every deduction row of an account, oldest first. */
async function deductions(t: TestApp, scope: { userId: string; organizationId: number | null }) {
  const account = await accountOf(t.db, scope);
  return t.db.selectFrom('credit_ledger').selectAll().where('account_id', '=', account.id).where('reason', '=', 'deduct').orderBy('id').execute();
}

async function hire(t: TestApp, key: string, headers: Record<string, string> = {}) {
  const res = await t.request('POST', '/v0/assistant', { key, json: { first_name: 'Ada', create_infra: false }, headers });
  expect(res.statusCode).toBe(200);
  return Number(res.json().info.agent_id);
}

describe('POST /v0/credits/deduct', () => {
  it('takes the amount from the personal balance and ledgers it with what it was for', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 50 });
    const assistantId = await hire(t, u.apiKey); // 50 − 10
    const res = await deduct(t, u.apiKey, { amount: 2.5, category: 'llm', assistant_id: assistantId, description: 'gpt call', detail: { tokens: 1200, model: 'x' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ previous_credits: 40, deducted: 2.5, current_credits: 37.5 });
    expect(await balance(t, u.apiKey)).toBe(37.5);
    const rows = await deductions(t, { userId: u.userId, organizationId: null });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      delta_micros: -2_500_000,
      category: 'llm',
      assistant_id: assistantId,
      user_id: u.userId,
      description: 'gpt call',
      created_at: t.clock.now().toISOString(),
    });
    expect(JSON.parse(rows[0].detail!)).toEqual({ tokens: 1200, model: 'x' });
  });

  it('needs neither description nor detail (the 2026-04 SDK sends neither), and counts them as "other" without a category', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 5 });
    const res = await deduct(t, u.apiKey, { amount: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ previous_credits: 5, deducted: 1, current_credits: 4 });
    // null is "not given", as the SDK's omitted keys.
    expect((await deduct(t, u.apiKey, { amount: 1, description: null, detail: null, category: null })).statusCode).toBe(200);
    const rows = await deductions(t, { userId: u.userId, organizationId: null });
    expect(rows.map((r) => [r.category, r.description, r.detail])).toEqual([
      ['other', null, null],
      ['other', null, null],
    ]);
  });

  it('may take the balance below zero', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 3 });
    const res = await deduct(t, u.apiKey, { amount: 5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ previous_credits: 3, deducted: 5, current_credits: -2 });
    expect(await balance(t, u.apiKey)).toBe(-2);
    // A hire still needs the balance to cover it.
    expect((await t.request('POST', '/v0/assistant', { key: u.apiKey, json: { create_infra: false } })).statusCode).toBe(402);
  });

  it.each([
    ['zero', { amount: 0 }],
    ['negative', { amount: -1 }],
    ['missing', {}],
    ['a string', { amount: '5' }],
    ['finer than a millionth', { amount: 0.0000001 }],
    ['more than 6 decimals', { amount: 1.1234567 }],
    ['too large', { amount: 1e12 }],
    ['detail not an object', { amount: 1, detail: [1, 2] }],
    ['assistant_id not an integer', { amount: 1, assistant_id: 'abc' }],
  ])('refuses an amount or field that is %s with 422, and changes nothing', async (_what, body) => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 10 });
    const res = await deduct(t, u.apiKey, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBeTruthy();
    expect(await balance(t, u.apiKey)).toBe(10);
    expect(await deductions(t, { userId: u.userId, organizationId: null })).toHaveLength(0);
  });

  it('counts every one of many concurrent deductions, each seeing its own before and after', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 20 });
    const results = await Promise.all(Array.from({ length: 25 }, () => deduct(t, u.apiKey, { amount: 1.5, category: 'burst' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(25).fill(200));
    const bodies = results.map((r) => r.json() as { previous_credits: number; current_credits: number });
    expect(await balance(t, u.apiKey)).toBe(20 - 25 * 1.5);
    // Each one's before is another's after: a chain from 20 down to −17.5, no step seen twice.
    const befores = bodies.map((b) => b.previous_credits).sort((a, b) => b - a);
    expect(befores).toEqual(Array.from({ length: 25 }, (_, i) => 20 - i * 1.5));
    for (const b of bodies) expect(b.current_credits).toBe(b.previous_credits - 1.5);
    expect(await deductions(t, { userId: u.userId, organizationId: null })).toHaveLength(25);
  });

  it('answers a repeated Idempotency-Key with the first answer and deducts once', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 10 });
    const headers = { 'idempotency-key': 'deduct-once-1' };
    const first = await deduct(t, u.apiKey, { amount: 4 }, headers);
    const again = await deduct(t, u.apiKey, { amount: 4 }, headers);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(t, u.apiKey)).toBe(6);
  });
});

describe('POST /v0/credits/deduct: whose balance', () => {
  async function world() {
    const t = await makeTestApp();
    const owner = await t.user({ credits: 50 });
    const admin = await t.user({ credits: 50 });
    const member = await t.user({ credits: 50 });
    const stranger = await t.user({ credits: 50 });
    const org = await t.org(owner);
    const adminKey = await t.member(org.organizationId, admin, ROLE_IDS.Admin);
    const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Member);
    const other = await t.org(stranger);
    const orgAccount = await accountOf(t.db, { userId: owner.userId, organizationId: org.organizationId });
    await addCredits(t.db, orgAccount.id, toMicros(100), 'test', null, t.clock.now());
    const orgBalance = () => balance(t, org.ownerKey);
    return { t, owner, admin, member, stranger, org, adminKey, memberKey, other, orgBalance };
  }

  it('an organization key (and X-Roster-Organization) takes from the organization, attributed to the person', async () => {
    const { t, admin, org, adminKey, orgBalance } = await world();
    const before = await orgBalance();
    expect((await deduct(t, adminKey, { amount: 2 })).json()).toEqual({ previous_credits: before, deducted: 2, current_credits: before - 2 });
    const header = { [ORGANIZATION_HEADER]: String(org.organizationId) };
    expect((await deduct(t, admin.apiKey, { amount: 1 }, header)).statusCode).toBe(200);
    expect(await orgBalance()).toBe(before - 3);
    expect(await balance(t, admin.apiKey)).toBe(50); // the personal balance is untouched
    const rows = await deductions(t, { userId: admin.userId, organizationId: org.organizationId });
    expect(rows.map((r) => r.user_id)).toEqual([admin.userId, admin.userId]);
  });

  it('organization_id with a personal key: an Owner or Admin there may, a Member may not (403), a stranger gets 404', async () => {
    const { t, admin, member, stranger, org, orgBalance } = await world();
    const before = await orgBalance();
    const res = await deduct(t, admin.apiKey, { amount: 3, organization_id: org.organizationId });
    expect(res.statusCode).toBe(200);
    expect(await orgBalance()).toBe(before - 3);
    expect(await balance(t, admin.apiKey)).toBe(50);

    const refused = await deduct(t, member.apiKey, { amount: 3, organization_id: org.organizationId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/billing:write/);
    const hidden = await deduct(t, stranger.apiKey, { amount: 3, organization_id: org.organizationId });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe('Organization not found.');
    expect(await orgBalance()).toBe(before - 3);
  });

  it('a Member’s organization key cannot deduct at all (billing:write), nor its personal balance through it', async () => {
    const { t, member, memberKey, orgBalance } = await world();
    const before = await orgBalance();
    expect((await deduct(t, memberKey, { amount: 1 })).statusCode).toBe(403);
    expect((await deduct(t, memberKey, { amount: 1, user_id: member.userId })).statusCode).toBe(403);
    expect(await orgBalance()).toBe(before);
    expect(await balance(t, member.apiKey)).toBe(50);
  });

  it('an organization key naming another organization gets 404, even where the person is Owner', async () => {
    const { t, owner, adminKey, other, orgBalance } = await world();
    const before = await orgBalance();
    const otherBefore = await balance(t, other.ownerKey);
    const otherOrgOfOwner = await t.org(owner, 'Second of owner');
    const ownerOrgKey = (await t.org(owner, 'Third')).ownerKey;
    for (const [key, organizationId] of [
      [adminKey, other.organizationId],
      [ownerOrgKey, otherOrgOfOwner.organizationId],
    ] as const) {
      const res = await deduct(t, key, { amount: 1, organization_id: organizationId });
      expect(res.statusCode).toBe(404);
    }
    expect(await orgBalance()).toBe(before);
    expect(await balance(t, other.ownerKey)).toBe(otherBefore);
    expect(await deductions(t, { userId: owner.userId, organizationId: otherOrgOfOwner.organizationId })).toHaveLength(0);
  });

  it('user_id must be the caller: someone else’s is 403 and their balance is untouched', async () => {
    const { t, admin, stranger } = await world();
    const res = await deduct(t, admin.apiKey, { amount: 1, user_id: stranger.userId });
    expect(res.statusCode).toBe(403);
    expect(await balance(t, stranger.apiKey)).toBe(50);
    expect(await balance(t, admin.apiKey)).toBe(50);
    expect((await deduct(t, admin.apiKey, { amount: 1, user_id: admin.userId })).json().current_credits).toBe(49);
  });

  it('assistant_id must be an assistant of the account charged (another tenant’s → 404, nothing taken)', async () => {
    const { t, admin, stranger, org, adminKey } = await world();
    const strangers = await hire(t, stranger.apiKey);
    const orgs = await hire(t, adminKey);
    const res = await deduct(t, admin.apiKey, { amount: 1, assistant_id: strangers });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Assistant not found.');
    // The organization's assistant is not the personal account's either.
    expect((await deduct(t, admin.apiKey, { amount: 1, assistant_id: orgs })).statusCode).toBe(404);
    expect(await balance(t, admin.apiKey)).toBe(50);
    expect((await deduct(t, admin.apiKey, { amount: 1, assistant_id: orgs, organization_id: org.organizationId })).statusCode).toBe(200);
  });
});
