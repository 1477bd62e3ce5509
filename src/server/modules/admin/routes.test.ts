import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fillPath, type AnyOperation } from '../../../shared/operation.ts';
import { OPERATIONS } from '../../../shared/operations/index.ts';
import { makeTestApp, type TestApp, type TestUser } from '../../testing/harness.ts';

const ADMIN_OPERATIONS = OPERATIONS.filter((op) => op.access.kind === 'instance-admin');

/** A request each admin operation accepts from an administrator (the list is checked to cover them all). */
function exampleFor(op: AnyOperation, target: TestUser): { url: string; json?: unknown } {
  const examples: Record<string, { params?: Record<string, unknown>; json?: unknown }> = {
    listAdminUsers: {},
    disableUser: { params: { user_id: target.userId } },
    enableUser: { params: { user_id: target.userId } },
    listAdminOrganizations: {},
    listCreditGrants: {},
    grantCredits: { json: { user_id: target.userId, amount: 1, reason: 'example' } },
  };
  const example = examples[op.operationId];
  if (!example) throw new Error(`no example for ${op.operationId}`);
  return { url: fillPath(op.path, example.params), json: example.json };
}

async function world() {
  const t = await makeTestApp();
  const admin = await t.user({ first: 'Ada', last: 'Admin' }); // the first user administers the instance
  const person = await t.user({ first: 'Pat', last: 'Person' });
  return { t, admin, person };
}

const grants = (t: TestApp) => t.db.selectFrom('credit_grants').selectAll().execute();
const ledger = (t: TestApp) => t.db.selectFrom('credit_ledger').selectAll().execute();
const balances = (t: TestApp) => t.db.selectFrom('billing_accounts').select(['id', 'credits_micros']).orderBy('id').execute();

describe('admin operations are for instance administrators only', () => {
  it('covers every admin operation', () => {
    expect(ADMIN_OPERATIONS.map((op) => op.operationId).sort()).toEqual(
      ['disableUser', 'enableUser', 'grantCredits', 'listAdminOrganizations', 'listAdminUsers', 'listCreditGrants'].sort(),
    );
  });

  it('answers 403 to a person who is not an administrator (key or session), and to an administrator’s organization key; writes nothing', async () => {
    const { t, admin, person } = await world();
    const org = await t.org(admin, 'Admin Org');
    const session = await t.session(person);
    const before = { grants: await grants(t), balances: await balances(t) };
    for (const op of ADMIN_OPERATIONS) {
      const { url, json } = exampleFor(op, admin);
      for (const [who, credentials] of [
        ['personal key', { key: person.apiKey }],
        ['session', { session }],
        ['admin’s organization key', { key: org.ownerKey }],
      ] as const) {
        const res = await t.request(op.method, url, { ...credentials, ...(json !== undefined ? { json } : {}) });
        expect(res.statusCode, `${op.operationId} by ${who}`).toBe(403);
        expect(res.json().detail, `${op.operationId} by ${who}`).toMatch(/instance administrators|organization key/);
      }
    }
    expect(await grants(t)).toEqual(before.grants);
    expect(await balances(t)).toEqual(before.balances);
    expect((await t.db.selectFrom('users').select('disabled_at').where('id', '=', admin.userId).executeTakeFirstOrThrow()).disabled_at).toBeNull();
  });

  it('lets an administrator (key or session) do each of them', async () => {
    const { t, admin, person } = await world();
    const session = await t.session(admin);
    for (const op of ADMIN_OPERATIONS) {
      const { url, json } = exampleFor(op, person);
      for (const credentials of [{ key: admin.apiKey }, { session }]) {
        const res = await t.request(op.method, url, { ...credentials, ...(json !== undefined ? { json } : {}) });
        expect(res.statusCode, op.operationId).toBe(op.status ?? 200);
      }
    }
  });
});

describe('disabling an account', () => {
  it('refuses the person’s key and session at once, with a clear detail, and no longer sends or accepts sign-in links', async () => {
    const { t, admin, person } = await world();
    const session = await t.session(person);
    const pendingToken = await t.signInToken(person.email);
    // Both work, and the key's principal is now cached.
    expect((await t.request('GET', '/v0/user/basic-info', { key: person.apiKey })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/user/basic-info', { session })).statusCode).toBe(200);

    const disabled = await t.request('POST', `/v0/admin/users/${person.userId}/disable`, { key: admin.apiKey });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ user_id: person.userId, disabled_at: expect.any(String) });

    for (const credentials of [{ key: person.apiKey }, { session }]) {
      const res = await t.request('GET', '/v0/user/basic-info', credentials);
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toMatch(/disabled by an instance administrator/);
    }
    // A link mailed before is refused; asking for a new one mails why instead of a link.
    const signIn = await t.signIn(pendingToken);
    expect(signIn.res.statusCode).toBe(403);
    expect(signIn.res.json().detail).toMatch(/disabled/);
    expect(signIn.cookie).toBeNull();
    expect((await t.request('POST', '/v0/sessions/email-link', { json: { email: person.email } })).statusCode).toBe(202);
    const mails = await t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', person.email).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0].text_body).toMatch(/has been disabled/);
    expect(mails[0].text_body).not.toMatch(/sign-in\/link/);

    const listed = await t.request('GET', `/v0/admin/users?search=${encodeURIComponent(person.email)}`, { key: admin.apiKey });
    expect(listed.json().items[0].disabled_at).not.toBeNull();

    // Enabled again: the same key and session work at once.
    expect((await t.request('POST', `/v0/admin/users/${person.userId}/enable`, { key: admin.apiKey })).json().disabled_at).toBeNull();
    expect((await t.request('GET', '/v0/user/basic-info', { key: person.apiKey })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/user/basic-info', { session })).statusCode).toBe(200);
  });

  it('refuses an organization key of a disabled person too', async () => {
    const { t, admin, person } = await world();
    const org = await t.org(person, 'Person Org');
    expect((await t.request('GET', '/v0/credits', { key: org.ownerKey })).statusCode).toBe(200);
    await t.request('POST', `/v0/admin/users/${person.userId}/disable`, { key: admin.apiKey });
    const res = await t.request('GET', '/v0/credits', { key: org.ownerKey });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toMatch(/disabled/);
  });

  it('does not let an administrator disable themselves, and answers 404 for an unknown person', async () => {
    const { t, admin } = await world();
    const self = await t.request('POST', `/v0/admin/users/${admin.userId}/disable`, { key: admin.apiKey });
    expect(self.statusCode).toBe(409);
    expect(self.json().detail).toMatch(/cannot disable your own account/);
    expect((await t.request('GET', '/v0/user/basic-info', { key: admin.apiKey })).statusCode).toBe(200);
    expect((await t.request('POST', '/v0/admin/users/nobody/disable', { key: admin.apiKey })).statusCode).toBe(404);
  });
});

describe('credit grants', () => {
  it('adds to a person’s balance and records the grant (who, to whom, amount, reason, balance after) with its ledger row; listed newest first', async () => {
    const { t, admin, person } = await world();
    const org = await t.org(person, 'Funded Org');
    const first = await t.request('POST', '/v0/admin/credit-grants', { key: admin.apiKey, json: { user_id: person.userId, amount: 25, reason: ' Welcome bonus ' } });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      granted_by: admin.email,
      user_id: person.userId,
      organization_id: null,
      recipient: person.email,
      amount: 25,
      reason: 'Welcome bonus',
      balance_after: 75,
    });
    t.clock.advance(1000);
    const second = await t.request('POST', '/v0/admin/credit-grants', {
      key: admin.apiKey,
      json: { organization_id: org.organizationId, amount: 12.5, reason: 'Pilot' },
    });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ organization_id: org.organizationId, recipient: 'Funded Org', amount: 12.5, balance_after: 12.5 });

    expect((await t.request('GET', '/v0/credits', { key: person.apiKey })).json().credits).toBe(75);
    expect((await t.request('GET', '/v0/credits', { key: org.ownerKey })).json().credits).toBe(12.5);
    expect((await ledger(t)).filter((row) => row.reason === 'grant').map((row) => Number(row.delta_micros))).toEqual([25_000_000, 12_500_000]);

    const list = await t.request('GET', '/v0/admin/credit-grants', { key: admin.apiKey });
    expect(list.json()).toMatchObject({ total: 2, page: 1 });
    expect(list.json().items.map((g: { reason: string }) => g.reason)).toEqual(['Pilot', 'Welcome bonus']);
    expect((await t.request('GET', '/v0/admin/credit-grants?search=welcome', { key: admin.apiKey })).json().items).toHaveLength(1);
  });

  it('writes nothing for a refused grant: unknown person or organization, zero, negative or missing amount, missing reason, two recipients or none', async () => {
    const { t, admin, person } = await world();
    const before = { grants: await grants(t), ledger: await ledger(t), balances: await balances(t) };
    const refused: [unknown, number, RegExp][] = [
      [{ organization_id: 999, amount: 5, reason: 'x' }, 404, /Organization 999 not found/],
      [{ user_id: 'nobody', amount: 5, reason: 'x' }, 404, /User not found/],
      [{ user_id: person.userId, amount: 0, reason: 'x' }, 422, /at least/],
      [{ user_id: person.userId, amount: -5, reason: 'x' }, 422, /at least/],
      [{ user_id: person.userId, reason: 'x' }, 422, /amount/],
      [{ user_id: person.userId, amount: 5 }, 422, /reason/],
      [{ user_id: person.userId, amount: 5, reason: '   ' }, 422, /reason/],
      [{ user_id: person.userId, organization_id: 1, amount: 5, reason: 'x' }, 422, /exactly one/],
      [{ amount: 5, reason: 'x' }, 422, /exactly one/],
    ];
    for (const [json, status, detail] of refused) {
      const res = await t.request('POST', '/v0/admin/credit-grants', { key: admin.apiKey, json });
      expect(res.statusCode, JSON.stringify(json)).toBe(status);
      expect(res.body, JSON.stringify(json)).toMatch(detail);
    }
    expect(await grants(t)).toEqual(before.grants);
    expect(await ledger(t)).toEqual(before.ledger);
    expect(await balances(t)).toEqual(before.balances);
  });

  it('rolls the balance back when the grant cannot be recorded (one transaction)', async () => {
    const { t, admin, person } = await world();
    const before = { ledger: await ledger(t), balances: await balances(t) };
    // The record's table gone: the balance change before it must not stay.
    await sql`drop table credit_grants`.execute(t.db);
    const res = await t.request('POST', '/v0/admin/credit-grants', { key: admin.apiKey, json: { user_id: person.userId, amount: 5, reason: 'x' } });
    expect(res.statusCode).toBe(500);
    expect(await ledger(t)).toEqual(before.ledger);
    expect(await balances(t)).toEqual(before.balances);
  });
});

describe('admin lists', () => {
  it('finds people by part of the e-mail or name, ignoring case, with wildcards taken literally, a page at a time', async () => {
    const { t, admin } = await world();
    for (let i = 0; i < 5; i += 1) await t.user({ email: `crew${i}@ship.example`, first: 'Crew', last: `Member${i}` });
    const search = (q: string) => t.request('GET', `/v0/admin/users?${q}`, { key: admin.apiKey }).then((r) => r.json());
    expect((await search('search=SHIP.example')).total).toBe(5);
    expect((await search('search=member3')).items.map((u: { email: string }) => u.email)).toEqual(['crew3@ship.example']);
    expect((await search('search=ada%20admin')).items.map((u: { user_id: string }) => u.user_id)).toEqual([admin.userId]);
    expect((await search('search=%25')).total).toBe(0);
    expect((await search('search=_')).total).toBe(0);
    const page1 = await search('search=ship&per_page=2');
    const page3 = await search('search=ship&per_page=2&page=3');
    expect(page1).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(page1.items).toHaveLength(2);
    expect(page3.items).toHaveLength(1);
    expect((await search('search=member0')).items[0]).toMatchObject({ is_admin: false, credits: 50, organization_count: 0, disabled_at: null });
    expect((await t.request('GET', '/v0/admin/users?per_page=500', { key: admin.apiKey })).statusCode).toBe(422);
  });

  it('lists organizations with owner, member count and credits, found by name or owner', async () => {
    const { t, admin, person } = await world();
    const org = await t.org(person, 'Blue Team');
    await t.member(org.organizationId, admin, 3);
    await t.org(admin, 'Red Team');
    const search = (q: string) => t.request('GET', `/v0/admin/organizations?search=${encodeURIComponent(q)}`, { key: admin.apiKey }).then((r) => r.json());
    const blue = await search('blue');
    expect(blue.items).toEqual([
      expect.objectContaining({
        id: org.organizationId,
        name: 'Blue Team',
        owner_id: person.userId,
        owner_email: person.email,
        owner_name: 'Pat Person',
        member_count: 2,
        credits: 0,
      }),
    ]);
    expect((await search(person.email)).items.map((o: { name: string }) => o.name)).toEqual(['Blue Team']);
    expect((await search('team')).total).toBe(2);
  });
});
