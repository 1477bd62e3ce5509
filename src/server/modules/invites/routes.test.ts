import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { hashApiKey } from '../../auth/keys.ts';
import { deliverDueMail } from '../../mail/worker.ts';
import { fileTransport } from '../../mail/transports.ts';

const DAY = 86_400_000;

async function setup(t: TestApp) {
  const owner = await t.user({ first: 'Olga', last: 'Owner' });
  const org = await t.org(owner, 'Acme');
  const invitee = await t.user({ email: 'Invitee@Example.com', verified: true });
  return { owner, org, invitee, url: `/v0/organizations/${org.organizationId}/invites` };
}

describe('12. invite user', () => {
  it('creates an invite with its token once, lower-cased e-mail, default Member and 7 days; stores only the hash', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const res = await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: '  INVITEE@example.COM ' } });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(inv).toMatchObject({
      organization_id: s.org.organizationId,
      organization_name: 'Acme',
      invitee_email: 'invitee@example.com',
      invited_by_user_id: s.owner.userId,
      invited_by_name: 'Olga Owner',
      role_id: 3,
      role_name: 'Member',
    });
    expect(inv.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(inv.expires_at).getTime() - new Date(inv.created_at).getTime()).toBe(7 * DAY);
    const row = await t.db.selectFrom('invites').selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashApiKey(inv.token));
    expect(JSON.stringify(row)).not.toContain(inv.token);
    // Lists never show the token.
    const list = await t.request('GET', s.url, { key: s.org.ownerKey });
    expect(list.json().invites).toEqual([{ ...inv, token: null }]);
  });

  it('role_id wins over role_name; unknown role 422; Owner 400; expiry 1–30; bad e-mail 422', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const k = s.org.ownerKey;
    const both = await t.request('POST', s.url, { key: k, json: { email: 'a@example.com', role_id: 4, role_name: 'Admin', expires_in_days: 30 } });
    expect(both.json()).toMatchObject({ role_id: 4, role_name: 'Viewer' });
    const byName = await t.request('POST', s.url, { key: k, json: { email: 'b@example.com', role_name: 'admin', role_id: null, expires_in_days: 1 } });
    expect(byName.json()).toMatchObject({ role_id: 2 });
    expect((await t.request('POST', s.url, { key: k, json: { email: 'c@example.com', role_name: 'Boss' } })).statusCode).toBe(422);
    expect((await t.request('POST', s.url, { key: k, json: { email: 'c@example.com', role_id: 7 } })).statusCode).toBe(422);
    const owner = await t.request('POST', s.url, { key: k, json: { email: 'c@example.com', role_id: 1 } });
    expect(owner.statusCode).toBe(400);
    expect(owner.json()).toEqual({ detail: 'Cannot assign Owner role via invite. Use ownership transfer instead.' });
    for (const days of [0, 31, 2.5, '7']) {
      const r = await t.request('POST', s.url, { key: k, json: { email: 'c@example.com', expires_in_days: days } });
      expect(r.statusCode, String(days)).toBe(422);
      expect(r.json().detail[0].loc).toEqual(['body', 'expires_in_days']);
    }
    for (const email of ['nope', '', 'a@b', 'x'.repeat(250) + '@example.com', 'a\u0000@example.com']) {
      const r = await t.request('POST', s.url, { key: k, json: { email } });
      expect(r.statusCode, email).toBe(422);
    }
    expect((await t.request('POST', s.url, { key: k, payload: '{bad', headers: { 'content-type': 'application/json' } })).statusCode).toBe(422);
  });

  it('already a member → 409', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const res = await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.owner.email.toUpperCase() } });
    expect(res.statusCode).toBe(409);
  });

  it('re-inviting rotates the token (old link dies), keeps the id, refreshes role and expiry', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const first = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.invitee.email, expires_in_days: 1 } })).json();
    t.clock.advance(3_600_000);
    const second = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.invitee.email, role_id: 4, expires_in_days: 3 } })).json();
    expect(second.id).toBe(first.id);
    expect(second.token).not.toBe(first.token);
    expect(second.role_id).toBe(4);
    expect(new Date(second.expires_at).getTime()).toBe(t.clock.now().getTime() + 3 * DAY);
    const old = await t.request('POST', `/v0/invites/${first.token}/accept`, { key: s.invitee.apiKey });
    expect(old.statusCode).toBe(404);
    const list = (await t.request('GET', s.url, { key: s.org.ownerKey })).json().invites;
    expect(list).toHaveLength(1);
    const ok = await t.request('POST', `/v0/invites/${second.token}/accept`, { key: s.invitee.apiKey });
    expect(ok.statusCode).toBe(200);
  });

  it('concurrent invites for one e-mail leave one pending invite', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.request('POST', s.url, { key: s.org.ownerKey, json: { email: 'same@example.com' } })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
    const rows = await t.db.selectFrom('invites').selectAll().execute();
    expect(rows).toHaveLength(1);
    // Only the last token issued works.
    const tokens = results.map((r) => r.json().token as string);
    const live = tokens.filter((tk) => hashApiKey(tk) === rows[0].token_hash);
    expect(live).toHaveLength(1);
  });

  it('at most 50 invites per organization per hour (429 with Retry-After); the next hour is open again', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    for (let i = 0; i < 50; i++) {
      const r = await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: `p${i}@example.com` } });
      expect(r.statusCode).toBe(201);
    }
    const over = await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: 'p50@example.com' } });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.db.selectFrom('invites').select('id').where('email', '=', 'p50@example.com').execute()).toEqual([]);
    // Another organization is not affected.
    const other = await t.org(s.owner, 'Other');
    expect((await t.request('POST', `/v0/organizations/${other.organizationId}/invites`, { key: other.ownerKey, json: { email: 'p50@example.com' } })).statusCode).toBe(
      201,
    );
    t.clock.advance(3_600_001);
    expect((await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: 'p50@example.com' } })).statusCode).toBe(201);
  });

  it('throwaway organizations cannot flood one inbox: at most 5 invite mails to an address per hour, and one waiting mail per invite (security review, medium 5)', async () => {
    const t = await makeTestApp();
    const sender = await t.user();
    const orgs: Awaited<ReturnType<typeof t.org>>[] = [];
    for (let i = 0; i < 6; i++) orgs.push(await t.org(sender, `Throwaway ${i}`));
    const invite = (org: (typeof orgs)[number]) =>
      t.request('POST', `/v0/organizations/${org.organizationId}/invites`, { key: sender.apiKey, json: { email: 'victim@example.com' } });
    for (const org of orgs.slice(0, 5)) expect((await invite(org)).statusCode).toBe(201);
    const over = await invite(orgs[5]);
    expect(over.statusCode).toBe(429);
    expect(over.json().detail).toBe('At most 5 invites to one address per hour. Try again later.');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Re-inviting while the first mail still waits replaces it: still one mail per organization and address.
    expect((await invite(orgs[0])).statusCode).toBe(201);
    const mails = await t.db.selectFrom('mail_outbox').select('reference').where('to_address', '=', 'victim@example.com').execute();
    expect(mails).toHaveLength(5);
    t.clock.advance(3_600_001);
    expect((await invite(orgs[5])).statusCode).toBe(201);
  });

  it('a Viewer or Member cannot invite; an admin’s personal key may', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const viewer = await t.user();
    const vk = await t.member(s.org.organizationId, viewer, ROLE_IDS.Viewer);
    for (const key of [vk, viewer.apiKey]) {
      const r = await t.request('POST', s.url, { key, json: { email: 'x@example.com' } });
      expect(r.statusCode).toBe(403);
      expect(r.json()).toEqual({ detail: `Missing permission org:write in organization ${s.org.organizationId}.` });
    }
    const admin = await t.user();
    await t.member(s.org.organizationId, admin, ROLE_IDS.Admin);
    expect((await t.request('POST', s.url, { key: admin.apiKey, json: { email: 'x@example.com' } })).statusCode).toBe(201);
  });
});

describe('13. pending invites and cancel', () => {
  it('lists pending only: not expired, accepted, declined or cancelled; newest first', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const k = s.org.ownerKey;
    const short = (await t.request('POST', s.url, { key: k, json: { email: 'short@example.com', expires_in_days: 1 } })).json();
    t.clock.advance(1000);
    const cancelled = (await t.request('POST', s.url, { key: k, json: { email: 'cancel@example.com' } })).json();
    t.clock.advance(1000);
    const keep = (await t.request('POST', s.url, { key: k, json: { email: 'keep@example.com' } })).json();
    t.clock.advance(1000);
    const accepted = (await t.request('POST', s.url, { key: k, json: { email: s.invitee.email } })).json();
    expect((await t.request('POST', `/v0/invites/${accepted.token}/accept`, { key: s.invitee.apiKey })).statusCode).toBe(200);
    const del = await t.request('DELETE', `${s.url}/${cancelled.id}`, { key: k });
    expect(del.statusCode).toBe(204);
    expect((await t.request('DELETE', `${s.url}/${cancelled.id}`, { key: k })).statusCode).toBe(404);
    let list = (await t.request('GET', s.url, { key: k })).json().invites.map((i: { id: string }) => i.id);
    expect(list).toEqual([keep.id, short.id]);
    t.clock.advance(DAY);
    list = (await t.request('GET', s.url, { key: k })).json().invites.map((i: { id: string }) => i.id);
    expect(list).toEqual([keep.id]);
    // A cancelled invite's link is dead, and the address may be invited again.
    const cancelledUser = await t.user({ email: 'cancel@example.com' });
    expect((await t.request('POST', `/v0/invites/${cancelled.token}/accept`, { key: cancelledUser.apiKey })).statusCode).toBe(404);
    expect((await t.request('POST', s.url, { key: k, json: { email: 'cancel@example.com' } })).statusCode).toBe(201);
  });
});

describe('accept / decline / pending for me', () => {
  it('accept creates the member and their org key; the token is single-use', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const inv = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.invitee.email, role_name: 'Viewer' } })).json();
    const mine = await t.request('GET', '/v0/invites/pending', { key: s.invitee.apiKey });
    expect(mine.json().invites).toEqual([{ ...inv, token: null }]);
    const show = await t.request('GET', `/v0/invites/${inv.token}`, { key: s.invitee.apiKey });
    expect(show.json()).toMatchObject({ organization_name: 'Acme', role_name: 'Viewer', token: null });
    const res = await t.request('POST', `/v0/invites/${inv.token}/accept`, { key: s.invitee.apiKey });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ organization_id: s.org.organizationId, organization_name: 'Acme' });
    const info = await t.request('GET', '/v0/user/basic-info', { key: body.api_key });
    expect(info.json().key).toMatchObject({ organization_id: s.org.organizationId, role_name: 'Viewer' });
    const reuse = await t.request('POST', `/v0/invites/${inv.token}/accept`, { key: s.invitee.apiKey });
    expect(reuse.statusCode).toBe(404);
    expect((await t.request('GET', '/v0/invites/pending', { key: s.invitee.apiKey })).json().invites).toEqual([]);
  });

  it('lists invites by address only once the address is proven by a sign-in link (security review, medium 4)', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    // Someone registered under the invitee's address without ever opening a mail sent there.
    const squatter = await t.user({ email: 'squatted@example.com' });
    const inv = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: squatter.email } })).json();
    expect((await t.request('GET', '/v0/invites/pending', { key: squatter.apiKey })).json().invites).toEqual([]);
    // The person who receives mail there signs in by link: the address is proven and the invite listed.
    const cookie = await t.session(squatter);
    expect((await t.request('GET', '/v0/invites/pending', { session: cookie })).json().invites).toEqual([{ ...inv, token: null }]);
    expect((await t.request('GET', '/v0/invites/pending', { key: squatter.apiKey })).json().invites).toHaveLength(1);
  });

  it('concurrent accepts of one token create one membership', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const inv = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.invitee.email } })).json();
    const results = await Promise.all(Array.from({ length: 5 }, () => t.request('POST', `/v0/invites/${inv.token}/accept`, { key: s.invitee.apiKey })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.every((r) => [200, 404, 409].includes(r.statusCode))).toBe(true);
    const keys = await t.db.selectFrom('api_keys').selectAll().where('user_id', '=', s.invitee.userId).where('kind', '=', 'organization').execute();
    expect(keys).toHaveLength(1);
  });

  it('expired → 400 Invite has expired (injectable clock)', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const inv = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.invitee.email, expires_in_days: 2 } })).json();
    t.clock.advance(2 * DAY - 1000);
    expect((await t.request('GET', `/v0/invites/${inv.token}`, { key: s.invitee.apiKey })).statusCode).toBe(200);
    t.clock.advance(1000);
    const res = await t.request('POST', `/v0/invites/${inv.token}/accept`, { key: s.invitee.apiKey });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Invite has expired' });
  });

  it('another account → 403 and nothing changes; decline kills the link', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const inv = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.invitee.email } })).json();
    const stranger = await t.user();
    for (const action of ['accept', 'decline']) {
      const res = await t.request('POST', `/v0/invites/${inv.token}/${action}`, { key: stranger.apiKey });
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toMatch(/different e-mail address/);
    }
    const dec = await t.request('POST', `/v0/invites/${inv.token}/decline`, { key: s.invitee.apiKey });
    expect(dec.statusCode).toBe(200);
    expect(dec.json().message).toMatch(/declined/);
    expect((await t.request('POST', `/v0/invites/${inv.token}/accept`, { key: s.invitee.apiKey })).statusCode).toBe(404);
    expect((await t.request('POST', `/v0/invites/not-a-token/accept`, { key: s.invitee.apiKey })).statusCode).toBe(404);
    expect((await t.request('POST', `/v0/invites/${inv.token}/accept`)).statusCode).toBe(401);
  });
});

describe('invite mail through the outbox', () => {
  it('queues the mail in the invite’s transaction and writes an .eml file when no SMTP is configured', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const inv = (await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.invitee.email, expires_in_days: 3 } })).json();
    const queued = await t.db.selectFrom('mail_outbox').selectAll().execute();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ to_address: 'invitee@example.com', subject: "You've been invited to join Acme", status: 'pending' });
    // A refused invite queues nothing.
    await t.request('POST', s.url, { key: s.org.ownerKey, json: { email: s.owner.email } });
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(1);

    const dir = path.join(t.dataDir, 'mail');
    const result = await deliverDueMail(t.app.deps, fileTransport(dir));
    expect(result).toEqual({ sent: 1, failed: 0 });
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, files[0]), 'utf8');
    expect(eml).toMatch(/^To: invitee@example\.com$/m);
    expect(eml).toMatch(/^Subject: You've been invited to join Acme$/m);
    const decoded = eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(decoded).toContain(`${t.app.deps.config.publicUrl}/invite?token=${inv.token}`);
    expect(decoded).toContain(inv.expires_at);
    expect((await deliverDueMail(t.app.deps, fileTransport(dir))).sent).toBe(0);
  });
});
