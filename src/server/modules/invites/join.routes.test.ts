import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../auth/keys.ts';
import type { Config } from '../../config.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// Joining by invitation without an account (issue 19): the invite link's token proves the address.

const DAY = 86_400_000;
const NEWCOMER = 'newcomer@example.com';

const setCookieOf = (res: { headers: Record<string, unknown> }): string | undefined => [res.headers['set-cookie'] ?? []].flat()[0] as string | undefined;

async function setup(overrides: Partial<Config> = {}) {
  const t = await makeTestApp(overrides);
  const owner = await t.user({ first: 'Olga', last: 'Owner' });
  const org = await t.org(owner, 'Acme');
  const invite = async (email = NEWCOMER, extra: Record<string, unknown> = {}) => {
    const res = await t.request('POST', `/v0/organizations/${org.organizationId}/invites`, { key: org.ownerKey, json: { email, ...extra } });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; token: string };
  };
  return { t, owner, org, invite };
}

/** POST …/join as the dashboard sends it: same origin, the CSRF header, optionally a cookie it already had. */
const join = (t: TestApp, token: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  t.request('POST', `/v0/invites/${token}/join`, { json: body, headers: { origin: t.app.deps.config.publicUrl, 'x-roster-csrf': '1', ...headers } });

/** Everything a join writes, to compare before and after a refused one. */
async function footprint(t: TestApp) {
  const [users, memberships, sessions, invites, ledger] = await Promise.all([
    t.db.selectFrom('users').select(['id', 'email']).execute(),
    t.db.selectFrom('memberships').select(['organization_id', 'user_id', 'role_id']).execute(),
    t.db.selectFrom('sessions').select('id_hash').execute(),
    t.db.selectFrom('invites').select(['id', 'status']).execute(),
    t.db.selectFrom('projects').select('id').execute(),
  ]);
  return { users, memberships, sessions, invites, ledger };
}

describe('preview of an invite link (signed out)', () => {
  it('shows organization, address, role and whether the address has an account; never the token', async () => {
    const { t, invite } = await setup();
    const inv = await invite(NEWCOMER, { role_name: 'Admin' });
    const res = await t.request('GET', `/v0/invites/${inv.token}/preview`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      organization_id: expect.any(Number),
      organization_name: 'Acme',
      invitee_email: NEWCOMER,
      invited_by_name: 'Olga Owner',
      role_id: 2,
      role_name: 'Admin',
      expires_at: expect.any(String),
      account_exists: false,
      can_join: true,
    });
    await t.user({ email: 'known@example.com' });
    const known = await invite('known@example.com');
    expect((await t.request('GET', `/v0/invites/${known.token}/preview`)).json()).toMatchObject({ account_exists: true });
    expect((await t.request('GET', '/v0/invites/not-a-token/preview')).statusCode).toBe(404);
  });
});

describe('joining by invitation without an account', () => {
  it('creates the verified account with the sign-up credits and the invite’s role, and signs the browser in', async () => {
    const { t, org, invite } = await setup({ signupCredits: 30 });
    const inv = await invite(NEWCOMER, { role_name: 'Viewer' });
    const res = await join(t, inv.token, { name: '  Nina  van Dijk ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: NEWCOMER,
      organization_id: org.organizationId,
      organization_name: 'Acme',
      role_name: 'Viewer',
      account_created: true,
      message: 'Welcome to Acme: you joined as Viewer.',
    });
    const set = setCookieOf(res)!;
    expect(set).toMatch(/^roster_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);
    const cookie = set.split(';')[0]!;

    const user = await t.db.selectFrom('users').selectAll().where('email', '=', NEWCOMER).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ id: res.json().user_id, first_name: 'Nina', last_name: 'van Dijk', email_verified_at: t.clock.now().toISOString() });
    const membership = await t.db.selectFrom('memberships').selectAll().where('user_id', '=', user.id).execute();
    expect(membership).toMatchObject([{ organization_id: org.organizationId, role_id: 4 }]);
    expect(await t.db.selectFrom('sessions').select('id_hash').where('user_id', '=', user.id).execute()).toEqual([{ id_hash: hashApiKey(cookie.split('=')[1]!) }]);
    expect((await t.db.selectFrom('invites').select('status').where('id', '=', inv.id).executeTakeFirstOrThrow()).status).toBe('accepted');

    // The session works: the person's organizations, the organization itself by membership (Viewer reads, not writes).
    const mine = await t.request('GET', '/v0/organizations', { session: cookie });
    expect(mine.json().organizations).toEqual([expect.objectContaining({ id: org.organizationId, name: 'Acme' })]);
    const inOrg = { session: cookie, headers: { 'x-roster-organization': String(org.organizationId) } };
    const members = await t.request('GET', `/v0/organizations/${org.organizationId}/members`, inOrg);
    expect(members.statusCode).toBe(200);
    expect(JSON.stringify(members.json())).toContain(NEWCOMER);
    expect((await t.request('GET', '/v0/projects', inOrg)).statusCode).toBe(200);
    expect((await t.request('POST', '/v0/project', { ...inOrg, json: { name: 'nope' } })).statusCode).toBe(403);
    // The sign-up credits, in the personal account.
    const me = await t.request('GET', '/v0/user/basic-info', { session: cookie });
    expect(me.json()).toMatchObject({ user_id: user.id, email: NEWCOMER, credits: 30 });
  });

  it('the name is optional; a name longer than 100 characters is 422 and writes nothing', async () => {
    const { t, invite } = await setup();
    const inv = await invite();
    const before = await footprint(t);
    const long = await join(t, inv.token, { name: 'x'.repeat(101) });
    expect(long.statusCode).toBe(422);
    expect(long.json().detail[0].loc).toEqual(['body', 'name']);
    expect(await footprint(t)).toEqual(before);
    const res = await join(t, inv.token, {});
    expect(res.statusCode).toBe(201);
    const user = await t.db.selectFrom('users').select(['first_name', 'last_name']).where('email', '=', NEWCOMER).executeTakeFirstOrThrow();
    expect(user).toEqual({ first_name: null, last_name: null });
  });

  it('is single use: the same link again is 404 and creates nothing more', async () => {
    const { t, invite } = await setup();
    const inv = await invite();
    expect((await join(t, inv.token)).statusCode).toBe(201);
    const after = await footprint(t);
    const again = await join(t, inv.token);
    expect(again.statusCode).toBe(404);
    expect(again.json().detail).toBe('Invite not found or no longer valid.');
    expect(setCookieOf(again)).toBeUndefined();
    expect(await footprint(t)).toEqual(after);
    expect((await t.request('GET', `/v0/invites/${inv.token}/preview`)).statusCode).toBe(404);
  });

  it('concurrent joins with one link create one account and one session', async () => {
    const { t, invite } = await setup();
    const inv = await invite();
    const results = await Promise.all(Array.from({ length: 4 }, () => join(t, inv.token)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.every((r) => [201, 404, 409].includes(r.statusCode))).toBe(true);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', NEWCOMER).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('sessions').select('id_hash').execute()).toHaveLength(1);
  });

  it('an expired invite is 400; a cancelled one 404; neither writes anything', async () => {
    const { t, org, invite } = await setup();
    const expiring = await invite(NEWCOMER, { expires_in_days: 1 });
    const cancelled = await invite('other@example.com');
    expect((await t.request('DELETE', `/v0/organizations/${org.organizationId}/invites/${cancelled.id}`, { key: org.ownerKey })).statusCode).toBe(204);
    t.clock.advance(DAY);
    const before = await footprint(t);
    const expired = await join(t, expiring.token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ detail: 'Invite has expired' });
    expect((await t.request('GET', `/v0/invites/${expiring.token}/preview`)).statusCode).toBe(400);
    const gone = await join(t, cancelled.token);
    expect(gone.statusCode).toBe(404);
    expect(await footprint(t)).toEqual(before);
  });

  it('an address that has an account is told to sign in and accept: 409, no second account, the invite still works for it', async () => {
    const { t, org, invite } = await setup();
    const known = await t.user({ email: NEWCOMER });
    const inv = await invite(NEWCOMER);
    const before = await footprint(t);
    const res = await join(t, inv.token, { name: 'Someone Else' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`${NEWCOMER} already has an account: sign in with it, then accept the invitation.`);
    expect(setCookieOf(res)).toBeUndefined();
    expect(await footprint(t)).toEqual(before);
    // Signed in as that account, the same link is accepted as always.
    const cookie = await t.session(known);
    const accepted = await t.request('POST', `/v0/invites/${inv.token}/accept`, { session: cookie });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ organization_id: org.organizationId });
  });

  it('ROSTER_SIGNUP=invite allows it; closed refuses it with 403 and writes nothing', async () => {
    const invited = await setup({ signup: 'invite' });
    expect((await join(invited.t, (await invited.invite()).token)).statusCode).toBe(201);

    const { t, invite } = await setup({ signup: 'closed' });
    const inv = await invite();
    expect((await t.request('GET', `/v0/invites/${inv.token}/preview`)).json()).toMatchObject({ account_exists: false, can_join: false });
    const before = await footprint(t);
    const res = await join(t, inv.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(
      `This instance does not create accounts, not even by invitation: ask its operator to create an account for ${NEWCOMER}, then sign in and accept the invitation.`,
    );
    expect(await footprint(t)).toEqual(before);
  });

  it('is refused cross-site or without the CSRF header (it sets a session cookie)', async () => {
    const { t, invite } = await setup();
    const inv = await invite();
    const before = await footprint(t);
    const crossSite = await join(t, inv.token, {}, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().detail).toMatch(/^Cross-site request refused: joining by invitation/);
    const noHeader = await t.request('POST', `/v0/invites/${inv.token}/join`, { json: {}, headers: { origin: t.app.deps.config.publicUrl } });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().detail).toMatch(/X-Roster-CSRF/);
    expect(await footprint(t)).toEqual(before);
    expect((await join(t, inv.token)).statusCode).toBe(201);
  });

  it('ends a session cookie the browser presented (fixation), like a sign-in', async () => {
    const { t, invite } = await setup();
    const other = await t.user();
    const planted = await t.session(other);
    const inv = await invite();
    const res = await join(t, inv.token, {}, { cookie: planted });
    expect(res.statusCode).toBe(201);
    expect((await t.request('GET', '/v0/sessions/current', { session: planted })).statusCode).toBe(401);
    const fresh = setCookieOf(res)!.split(';')[0]!;
    expect((await t.request('GET', '/v0/sessions/current', { session: fresh })).json()).toMatchObject({ email: NEWCOMER });
  });

  it('a failure at its last step (the session) rolls everything back: no account, membership or session; the invite still pending', async () => {
    const { t, invite } = await setup();
    const inv = await invite();
    const before = await footprint(t);
    // Fault injection in the database, not in our code: the session row cannot be written.
    if (t.app.deps.dialect === 'sqlite') {
      await sql`CREATE TRIGGER refuse_sessions BEFORE INSERT ON sessions BEGIN SELECT RAISE(ABORT, 'injected failure'); END`.execute(t.db);
    } else {
      await sql`CREATE FUNCTION refuse_sessions() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`.execute(t.db);
      await sql`CREATE TRIGGER refuse_sessions BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION refuse_sessions()`.execute(t.db);
    }
    const failed = await join(t, inv.token, { name: 'Nina' });
    expect(failed.statusCode).toBe(500);
    expect(setCookieOf(failed)).toBeUndefined();
    expect(await footprint(t)).toEqual(before);
    await sql`DROP TRIGGER refuse_sessions${sql.raw(t.app.deps.dialect === 'sqlite' ? '' : ' ON sessions')}`.execute(t.db);
    expect((await join(t, inv.token)).statusCode).toBe(201);
  });
});
