import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { deliverDueMail } from '../../mail/worker.ts';
import { fileTransport } from '../../mail/transports.ts';
import { accountOf, addCredits, toMicros } from './repository.ts';
import { SPENDING_NOTICE_RECORDED } from './routes.ts';

// Spend reads (logs-api.md §9) from the credit ledger: deductions and hires, per month, per tenant.

const get = (t: TestApp, key: string, url: string) => t.request('GET', url, { key });
const deduct = (t: TestApp, key: string, json: object) => t.request('POST', '/v0/credits/deduct', { key, json });

async function hire(t: TestApp, key: string) {
  const res = await t.request('POST', '/v0/assistant', { key, json: { first_name: 'Ada', create_infra: false } });
  expect(res.statusCode).toBe(200);
  return Number(res.json().info.agent_id);
}

describe('GET /v0/user/spend', () => {
  it('sums this month’s charges, hires included, per category', async () => {
    const t = await makeTestApp();
    t.clock.current = new Date('2026-11-15T12:00:00.000Z');
    const u = await t.user({ credits: 50 });
    await hire(t, u.apiKey); // 10
    expect((await deduct(t, u.apiKey, { amount: 1.25, category: 'llm' })).statusCode).toBe(200);
    expect((await deduct(t, u.apiKey, { amount: 0.75, category: 'llm' })).statusCode).toBe(200);
    expect((await deduct(t, u.apiKey, { amount: 2 })).statusCode).toBe(200);
    const res = await get(t, u.apiKey, '/v0/user/spend');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ month: '2026-11', currency: 'credits', total: 14, by_category: { assistant_hire: 10, llm: 2, other: 2 }, charges: 4 });
    expect((await get(t, u.apiKey, '/v0/user/spend?month=2026-11')).json()).toEqual(res.json());
  });

  it('counts a charge in the UTC month it was made in', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 50 });
    t.clock.current = new Date('2026-10-31T23:59:59.999Z');
    await deduct(t, u.apiKey, { amount: 3 });
    t.clock.current = new Date('2026-11-01T00:00:00.000Z');
    await deduct(t, u.apiKey, { amount: 4 });
    t.clock.current = new Date('2026-12-31T23:00:00.000Z');
    await deduct(t, u.apiKey, { amount: 5 });
    const total = async (month: string) => (await get(t, u.apiKey, `/v0/user/spend?month=${month}`)).json().total;
    expect([await total('2026-10'), await total('2026-11'), await total('2026-12'), await total('2027-01'), await total('2025-11')]).toEqual([3, 4, 5, 0, 0]);
    const empty = await get(t, u.apiKey, '/v0/user/spend?month=2027-01');
    expect(empty.json()).toEqual({ month: '2027-01', currency: 'credits', total: 0, by_category: {}, charges: 0 });
    // The default is the month of now.
    expect((await get(t, u.apiKey, '/v0/user/spend')).json().month).toBe('2026-12');
  });

  it.each(['2026-13', '2026-00', '2026-1', '26-11', 'nov', '2026-11-01', ''])('refuses month=%s with 422', async (month) => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await get(t, u.apiKey, `/v0/user/spend?month=${month}`);
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json().detail)).toMatch(/YYYY-MM/);
  });

  it('is the person’s own account only: not another person’s, not an organization’s, not a transfer', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 50 });
    const other = await t.user({ credits: 50 });
    const org = await t.org(u);
    await deduct(t, other.apiKey, { amount: 7 });
    // Moving credits to one's organization is not spending them.
    expect((await t.request('POST', `/v0/organizations/${org.organizationId}/credits`, { key: u.apiKey, json: { amount: 20 } })).statusCode).toBe(200);
    await deduct(t, org.ownerKey, { amount: 6 }); // the organization's
    await deduct(t, u.apiKey, { amount: 1 });
    expect((await get(t, u.apiKey, '/v0/user/spend')).json()).toMatchObject({ total: 1, charges: 1 });
    // An organization key asks about the person, too.
    expect((await get(t, org.ownerKey, '/v0/user/spend')).json()).toMatchObject({ total: 1, charges: 1 });
  });
});

describe('GET /v0/assistant/{assistant_id}/spend', () => {
  it('sums the assistant’s hire and the deductions naming it, in the key’s scope only', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 50 });
    const stranger = await t.user({ credits: 50 });
    const a = await hire(t, u.apiKey);
    const b = await hire(t, u.apiKey);
    await deduct(t, u.apiKey, { amount: 1.5, assistant_id: a, category: 'voice' });
    await deduct(t, u.apiKey, { amount: 2, assistant_id: b });
    await deduct(t, u.apiKey, { amount: 3 });
    const res = await get(t, u.apiKey, `/v0/assistant/${a}/spend`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 11.5, by_category: { assistant_hire: 10, voice: 1.5 }, charges: 2 });
    const hidden = await get(t, stranger.apiKey, `/v0/assistant/${a}/spend`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe('Assistant not found.');
    expect((await get(t, u.apiKey, '/v0/assistant/abc/spend')).statusCode).toBe(422);
    expect((await get(t, u.apiKey, `/v0/assistant/${a}/spend?month=bad`)).statusCode).toBe(422);
  });
});

describe('organization and member spend', () => {
  async function world() {
    const t = await makeTestApp();
    const owner = await t.user({ credits: 50 });
    const admin = await t.user({ credits: 50 });
    const member = await t.user({ credits: 50 });
    const viewer = await t.user({ credits: 50 });
    const stranger = await t.user({ credits: 50 });
    const org = await t.org(owner);
    const account = await accountOf(t.db, { userId: owner.userId, organizationId: org.organizationId });
    await addCredits(t.db, account.id, toMicros(100), 'test', null, t.clock.now());
    const adminKey = await t.member(org.organizationId, admin, ROLE_IDS.Admin);
    const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Member);
    const viewerKey = await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
    return { t, owner, admin, member, viewer, stranger, org, adminKey, memberKey, viewerKey, base: `/v0/organizations/${org.organizationId}` };
  }

  it('an organization’s spend: its charges only, for Owner and Admin; Member and Viewer 403, strangers 404', async () => {
    const { t, owner, admin, member, viewer, stranger, org, adminKey, memberKey, base } = await world();
    await hire(t, memberKey); // 10, by the member
    await deduct(t, adminKey, { amount: 4, category: 'llm' });
    await deduct(t, admin.apiKey, { amount: 9 }); // personal: not the organization's
    await deduct(t, stranger.apiKey, { amount: 8 });
    for (const key of [org.ownerKey, owner.apiKey, adminKey, admin.apiKey]) {
      const res = await get(t, key, `${base}/spend`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ total: 14, by_category: { assistant_hire: 10, llm: 4 }, charges: 2 });
    }
    for (const key of [memberKey, member.apiKey, viewer.apiKey]) expect((await get(t, key, `${base}/spend`)).statusCode).toBe(403);
    const hidden = await get(t, stranger.apiKey, `${base}/spend`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe('Organization not found.');
  });

  it('a member’s spend: the charges they made; themselves, or Owner and Admin; 404 for someone not a member', async () => {
    const { t, owner, admin, member, viewer, stranger, adminKey, memberKey, viewerKey, base } = await world();
    await hire(t, memberKey);
    await deduct(t, adminKey, { amount: 4, category: 'llm' });
    await deduct(t, member.apiKey, { amount: 5 }); // the member's personal account: not the organization's
    const memberSpend = `${base}/members/${member.userId}/spend`;
    for (const key of [memberKey, member.apiKey, adminKey, owner.apiKey]) {
      const res = await get(t, key, memberSpend);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ total: 10, by_category: { assistant_hire: 10 }, charges: 1 });
    }
    expect((await get(t, adminKey, `${base}/members/${admin.userId}/spend`)).json()).toMatchObject({ total: 4, by_category: { llm: 4 } });
    // A Viewer sees their own (nothing), not the member's.
    expect((await get(t, viewerKey, `${base}/members/${viewer.userId}/spend`)).json()).toMatchObject({ total: 0, charges: 0 });
    const refused = await get(t, viewerKey, memberSpend);
    expect(refused.statusCode).toBe(403);
    expect((await get(t, memberKey, `${base}/members/${admin.userId}/spend`)).statusCode).toBe(403);
    // Not a member of this organization (even an existing person) → 404; a stranger asking → 404.
    const notMember = await get(t, adminKey, `${base}/members/${stranger.userId}/spend`);
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json().detail).toBe('Member not found.');
    const hidden = await get(t, stranger.apiKey, memberSpend);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe('Organization not found.');
  });

  it('an organization key asking about another organization gets 404', async () => {
    const { t, stranger, adminKey } = await world();
    const other = await t.org(stranger);
    expect((await get(t, adminKey, `/v0/organizations/${other.organizationId}/spend`)).statusCode).toBe(404);
    expect((await get(t, adminKey, `/v0/organizations/${other.organizationId}/members/${stranger.userId}/spend`)).statusCode).toBe(404);
  });
});

describe('POST /v0/user/spending-limit-reached', () => {
  it('records the caller’s object in the audit log of their workspace and answers {info}', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const notice = { limit: 10, spent: 12.5, assistant_id: '7', nested: { a: [1, 2] } };
    const res = await t.request('POST', '/v0/user/spending-limit-reached', { key: u.apiKey, json: notice });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: SPENDING_NOTICE_RECORDED });
    const audit = (await get(t, u.apiKey, '/v0/user/audit')).json();
    expect(audit.events[0]).toMatchObject({ action: 'spending_limit.reached', detail: notice, actor: { user_id: u.userId } });
  });

  it('keeps every key of the object, __proto__ included', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    // JSON text: in an object literal, __proto__ would set the prototype instead of naming a key.
    const notice = '{"limit":10,"__proto__":{"spent":12.5}}';
    const res = await t.request('POST', '/v0/user/spending-limit-reached', { key: u.apiKey, payload: notice, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(200);
    const audit = (await get(t, u.apiKey, '/v0/user/audit')).json();
    expect(audit.events[0].detail).toEqual(JSON.parse(notice));
    expect(Object.keys(audit.events[0].detail)).toEqual(['limit', '__proto__']);
  });

  it('goes to the organization’s log for an organization key', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    expect((await t.request('POST', '/v0/user/spending-limit-reached', { key: org.ownerKey, json: { limit: 1 } })).statusCode).toBe(200);
    const events = (await get(t, owner.apiKey, `/v0/organizations/${org.organizationId}/audit?action=spending_limit.reached`)).json().events;
    expect(events).toHaveLength(1);
    expect(events[0].detail).toEqual({ limit: 1 });
    expect((await get(t, owner.apiKey, '/v0/user/audit?action=spending_limit.reached')).json().events).toHaveLength(0);
  });

  it('e-mails the person once a day, quoting the report and linking to the spending limit', async () => {
    const t = await makeTestApp();
    t.clock.current = new Date('2026-11-15T09:00:00.000Z');
    const u = await t.user({ email: 'payer@example.com' });
    const mails = () => t.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();
    const notice = (json: object) => t.request('POST', '/v0/user/spending-limit-reached', { key: u.apiKey, json });
    expect((await notice({ limit: 10, spent: 12.5 })).statusCode).toBe(200);
    expect(await mails()).toMatchObject([{ to_address: 'payer@example.com', subject: 'Your spending limit was reached on Roster', status: 'pending' }]);
    // The client reports again (it may, on every call past its limit): logged, not e-mailed again that day.
    t.clock.advance(6 * 3600_000);
    expect((await notice({ limit: 10, spent: 14 })).statusCode).toBe(200);
    expect(await mails()).toHaveLength(1);
    expect((await get(t, u.apiKey, '/v0/user/audit?action=spending_limit.reached')).json().events).toHaveLength(2);
    const dir = path.join(t.dataDir, 'mail');
    expect(await deliverDueMail(t.app.deps, fileTransport(dir))).toEqual({ sent: 1, failed: 0 });
    const eml = fs
      .readFileSync(path.join(dir, fs.readdirSync(dir)[0]!), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(eml).toContain('{"limit":10,"spent":12.5}');
    expect(eml).toContain(`${t.app.deps.config.publicUrl}/account`);
    // The next day, the next report is e-mailed.
    t.clock.advance(18 * 3600_000);
    expect((await notice({ limit: 10, spent: 20 })).statusCode).toBe(200);
    expect(await mails()).toHaveLength(2);
  });

  it('e-mails once however many reports arrive at the same moment', async () => {
    const t = await makeTestApp();
    const u = await t.user({ email: 'payer@example.com' });
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => t.request('POST', '/v0/user/spending-limit-reached', { key: u.apiKey, json: { spent: i } })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(24).fill(200));
    expect(await t.db.selectFrom('mail_outbox').select('to_address').execute()).toEqual([{ to_address: 'payer@example.com' }]);
    expect((await get(t, u.apiKey, '/v0/user/audit?action=spending_limit.reached')).json().events).toHaveLength(24);
  });

  it('e-mails an organization’s Owner and Admins, not its Members and Viewers', async () => {
    const t = await makeTestApp();
    const owner = await t.user({ email: 'owner@example.com' });
    const admin = await t.user({ email: 'admin@example.com' });
    const member = await t.user({ email: 'member@example.com' });
    const viewer = await t.user({ email: 'viewer@example.com' });
    const org = await t.org(owner, 'Acme');
    await t.member(org.organizationId, admin, ROLE_IDS.Admin);
    const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Member);
    await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
    const res = await t.request('POST', '/v0/user/spending-limit-reached', { key: memberKey, json: { limit: 5, note: 'x'.repeat(2000) } });
    expect(res.statusCode).toBe(200);
    const queued = await t.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();
    expect(queued.map((m) => m.to_address)).toEqual(['owner@example.com', 'admin@example.com']);
    expect(queued[0]).toMatchObject({ subject: 'Acme reached its spending limit on Roster', organization_id: org.organizationId });
    expect(queued[0]!.text_body).toContain(`${t.app.deps.config.publicUrl}/o/${org.organizationId}/activity`);
    // The report is quoted in part (the audit log keeps it whole).
    expect(queued[0]!.text_body.length).toBeLessThan(1500);
    // The person's own workspace is another one: their own notice goes to them alone.
    expect((await t.request('POST', '/v0/user/spending-limit-reached', { key: member.apiKey, json: { limit: 1 } })).statusCode).toBe(200);
    expect((await t.db.selectFrom('mail_outbox').select('to_address').orderBy('id').execute()).map((m) => m.to_address)).toEqual([
      'owner@example.com',
      'admin@example.com',
      'member@example.com',
    ]);
  });

  it('refuses a body over 16 KiB (413) or one that is not an object (422), recording nothing', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const big = await t.request('POST', '/v0/user/spending-limit-reached', { key: u.apiKey, json: { note: 'x'.repeat(17 * 1024) } });
    expect(big.statusCode).toBe(413);
    const list = await t.request('POST', '/v0/user/spending-limit-reached', { key: u.apiKey, json: [1, 2] });
    expect(list.statusCode).toBe(422);
    expect((await get(t, u.apiKey, '/v0/user/audit?action=spending_limit.reached')).json().events).toHaveLength(0);
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(0);
  });
});
