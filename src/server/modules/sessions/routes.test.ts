import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { hashApiKey } from '../../auth/keys.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

const setCookieOf = (res: { headers: Record<string, unknown> }): string | undefined => [res.headers['set-cookie'] ?? []].flat()[0] as string | undefined;

/** The link of the last queued mail to `to`, and its token. */
async function mailedLink(t: TestApp, to: string) {
  const mail = await t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const match = /(http\S+\/sign-in\/link(?:\?next=\S+)?#token=([\w-]+))/.exec(mail.text_body);
  return { mail, link: match?.[1] ?? null, token: match?.[2] ?? null };
}

const newProject = (t: TestApp, session: string, name: string) => t.request('POST', '/v0/project', { session, json: { name } });

describe('sign-in link by e-mail', () => {
  it('returns to the page asked for (?next= before the fragment), and refuses a next that leaves the site', async () => {
    const t = await makeTestApp({ publicUrl: 'https://roster.example.com' });
    const u = await t.user({ email: 'nia@example.com' });
    const next = '/invite?token=abc_123';
    expect((await t.request('POST', '/v0/sessions/email-link', { json: { email: u.email, next } })).statusCode).toBe(202);
    const { link } = await mailedLink(t, u.email);
    expect(link).toMatch(/^https:\/\/roster\.example\.com\/sign-in\/link\?next=%2Finvite%3Ftoken%3Dabc_123#token=[\w-]{43}$/);
    for (const bad of ['//evil.example.com/x', '/\\evil.example.com', 'https://evil.example.com', 'relative', '/with space']) {
      const res = await t.request('POST', '/v0/sessions/email-link', { json: { email: u.email, next: bad } });
      expect(res.statusCode, bad).toBe(422);
      expect(JSON.stringify(res.json().detail)).toMatch(/single \\"\/\\"/);
    }
  });

  it('mails a one-time link whose token is only in the fragment and stored only as a hash; always 202', async () => {
    const t = await makeTestApp({ publicUrl: 'https://roster.example.com' });
    const u = await t.user({ email: 'ann@example.com' });
    for (const email of ['Ann@Example.com', 'nobody@example.com']) {
      const res = await t.request('POST', '/v0/sessions/email-link', { json: { email } });
      expect(res.statusCode).toBe(202);
      expect(res.json().message).toMatch(/If .* can sign in here, a sign-in link is on its way/);
    }
    const { mail, link, token } = await mailedLink(t, u.email);
    expect(mail.subject).toBe('Your Roster sign-in link');
    expect(link).toMatch(/^https:\/\/roster\.example\.com\/sign-in\/link#token=[\w-]{43}$/);
    expect(mail.text_body).toContain('works once, for 15 minutes');
    const rows = await t.db.selectFrom('login_tokens').selectAll().execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashApiKey(token!));
    expect(JSON.stringify(rows)).not.toContain(token!);
    // Open sign-up (the default): an unknown address gets a sign-up link, the same answer to the caller.
    expect((await mailedLink(t, 'nobody@example.com')).mail.subject).toBe('Your Roster sign-up link');
    expect((await t.request('POST', '/v0/sessions/email-link', { json: { email: 'not an address' } })).statusCode).toBe(422);
  });

  it('limits links per address and per client address (429 with Retry-After), before any mail is queued', async () => {
    const t = await makeTestApp();
    for (let i = 0; i < 5; i += 1) expect((await t.request('POST', '/v0/sessions/email-link', { json: { email: 'target@example.com' } })).statusCode).toBe(202);
    const limited = await t.request('POST', '/v0/sessions/email-link', { json: { email: 'Target@example.com' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/sign-in links to this e-mail address/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The refused sixth request counted for the client too: 24 more reach its 30.
    for (let i = 0; i < 24; i += 1) expect((await t.request('POST', '/v0/sessions/email-link', { json: { email: `spray${i}@example.com` } })).statusCode).toBe(202);
    const sprayed = await t.request('POST', '/v0/sessions/email-link', { json: { email: 'one-more@example.com' } });
    expect(sprayed.statusCode).toBe(429);
    expect(sprayed.json().detail).toMatch(/sign-in links asked from this address/);
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(29);
    t.clock.advance(60 * MINUTE);
    expect((await t.request('POST', '/v0/sessions/email-link', { json: { email: 'target@example.com' } })).statusCode).toBe(202);
  });
});

describe('exchanging the token for a session', () => {
  it('sets an HttpOnly SameSite=Lax cookie, proves the address, and the session acts as the person', async () => {
    const t = await makeTestApp();
    const u = await t.user({ email: 'ann@example.com' });
    await t.request('POST', '/v0/sessions/email-link', { json: { email: u.email } });
    const { token } = await mailedLink(t, u.email);
    const { res, cookie } = await t.signIn(token!);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ user_id: u.userId, email: 'ann@example.com', account_created: false });
    const set = setCookieOf(res)!;
    expect(set).toMatch(/^roster_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);
    const user = await t.db.selectFrom('users').select('email_verified_at').where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect(user.email_verified_at).toBe(t.clock.now().toISOString());
    // Only the hash of the session id is stored.
    const raw = cookie!.split('=')[1];
    const rows = await t.db.selectFrom('sessions').selectAll().execute();
    expect(rows.map((r) => r.id_hash)).toEqual([hashApiKey(raw)]);

    const me = await t.request('GET', '/v0/user/basic-info', { session: cookie! });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user_id: u.userId, key: { kind: 'session', prefix: null, organization_id: null } });
    // Personal resources and account operations, like the personal key.
    expect((await newProject(t, cookie!, 'by-session')).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/projects', { key: u.apiKey })).json()).toContain('by-session');
    expect((await t.request('PUT', '/v0/user/spending-limit', { session: cookie!, json: { monthly_spending_cap: 25 } })).statusCode).toBe(200);
    const current = await t.request('GET', '/v0/sessions/current', { session: cookie! });
    expect(current.json()).toMatchObject({
      user_id: u.userId,
      email: u.email,
      idle_expires_at: new Date(t.clock.now().getTime() + 7 * DAY).toISOString(),
      expires_at: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(),
    });
    expect((await t.request('GET', '/v0/sessions/current', { key: u.apiKey })).statusCode).toBe(404);
  });

  it('a cookie is Secure and __Host- prefixed over HTTPS (public URL or a trusted proxy’s X-Forwarded-Proto)', async () => {
    const https = await makeTestApp({ publicUrl: 'https://roster.example.com' });
    const a = await https.user();
    const { res } = await https.signIn(await https.signInToken(a.email));
    expect(setCookieOf(res)).toMatch(/^__Host-roster_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);

    const proxied = await makeTestApp({ trustProxy: true });
    const b = await proxied.user();
    const headers = { origin: 'https://localhost', 'x-forwarded-proto': 'https', host: 'localhost', 'x-roster-csrf': '1' };
    const signed = await proxied.request('POST', '/v0/sessions', { headers, json: { token: await proxied.signInToken(b.email) } });
    expect(signed.statusCode, signed.body).toBe(201);
    expect(setCookieOf(signed)).toMatch(/^__Host-roster_session=.*; Secure$/);
  });

  it('a token works once, for 15 minutes, for its own address only', async () => {
    const t = await makeTestApp();
    const ann = await t.user({ email: 'ann@example.com' });
    const bob = await t.user({ email: 'bob@example.com' });
    const token = await t.signInToken(ann.email);
    const first = await t.signIn(token);
    expect(first.res.json().user_id).toBe(ann.userId);
    const reuse = await t.signIn(token);
    expect(reuse.res.statusCode).toBe(400);
    expect(reuse.res.json().detail).toMatch(/already used/);
    expect(reuse.cookie).toBeNull();

    const late = await t.signInToken(ann.email);
    t.clock.advance(15 * MINUTE);
    const expired = await t.signIn(late);
    expect(expired.res.statusCode).toBe(400);
    expect(expired.res.json().detail).toMatch(/expired/);
    const unknown = await t.signIn('x'.repeat(43));
    expect(unknown.res.statusCode).toBe(400);
    expect(unknown.res.json().detail).toMatch(/not valid/);

    // Bob's browser opening Ann's link signs in Ann, never Bob, and Bob's session ends (no mixing).
    const bobs = await t.session(bob);
    const crossed = await t.signIn(await t.signInToken(ann.email), bobs);
    expect(crossed.res.json().user_id).toBe(ann.userId);
    expect((await t.request('GET', '/v0/user/basic-info', { session: crossed.cookie! })).json().user_id).toBe(ann.userId);
    expect((await t.request('GET', '/v0/user/basic-info', { session: bobs })).statusCode).toBe(401);
    const bobUser = await t.db.selectFrom('users').select('email_verified_at').where('id', '=', bob.userId).executeTakeFirstOrThrow();
    expect(bobUser.email_verified_at).not.toBeNull();
  });

  it('rotates at every sign-in: a new id each time, and the cookie presented at sign-in is revoked (fixation)', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const planted = await t.session(u);
    const again = await t.signIn(await t.signInToken(u.email), planted);
    expect(again.cookie).not.toBe(planted);
    expect((await t.request('GET', '/v0/user/basic-info', { session: planted })).statusCode).toBe(401);
    expect((await t.request('GET', '/v0/user/basic-info', { session: again.cookie! })).statusCode).toBe(200);
    // An unknown cookie presented at sign-in changes nothing for the new session.
    const third = await t.signIn(await t.signInToken(u.email), `roster_session=${'a'.repeat(43)}`);
    expect(third.res.statusCode).toBe(201);
    expect(third.cookie).not.toBe(again.cookie);
  });

  it('signup modes: open creates the account; invite and closed refuse unknown addresses with 403 and mail no link', async () => {
    const open = await makeTestApp({ signupCredits: 7 });
    const created = await open.signIn(await open.signInToken('new@example.com'));
    expect(created.res.statusCode).toBe(201);
    expect(created.res.json()).toMatchObject({ email: 'new@example.com', account_created: true });
    const me = (await open.request('GET', '/v0/user/basic-info', { session: created.cookie! })).json();
    expect(me).toMatchObject({ email: 'new@example.com', credits: 7 });

    for (const mode of ['invite', 'closed'] as const) {
      const t = await makeTestApp({ signup: mode });
      const member = await t.user({ email: 'member@example.com' });
      expect((await t.request('POST', '/v0/sessions/email-link', { json: { email: 'stranger@example.com' } })).statusCode).toBe(202);
      const notice = await mailedLink(t, 'stranger@example.com');
      expect(notice.token, mode).toBeNull();
      expect(notice.mail.text_body).toMatch(mode === 'invite' ? /by invitation/ : /does not accept new sign-ups/);
      const refused = await t.signIn(await t.signInToken('stranger@example.com'));
      expect(refused.res.statusCode).toBe(403);
      expect(refused.res.json().detail).toMatch(mode === 'invite' ? /by invitation only/ : /does not accept new sign-ups/);
      expect(await t.db.selectFrom('users').select('id').where('email', '=', 'stranger@example.com').executeTakeFirst()).toBeUndefined();
      // People with an account still sign in.
      expect((await t.signIn(await t.signInToken(member.email))).res.statusCode).toBe(201);
    }
  });
});

describe('cookies that open nothing', () => {
  it('a malformed, unknown or other-named cookie is a 401, never a 5xx; only a well-formed unknown session is cleared', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const live = (await t.session(u)).split('=')[1];
    const cases: [string, string, boolean][] = [
      ['roster_session=short', 'Not authenticated', false],
      ['roster_session=../../etc/passwd', 'Not authenticated', false],
      [`roster_session=${'z'.repeat(43)}`, 'Your session has ended. Sign in again.', true],
      // The HTTPS name over plain HTTP is not this server's cookie.
      [`__Host-roster_session=${live}`, 'Not authenticated', false],
      [`session=${live}; other=1`, 'Not authenticated', false],
      ['roster_session', 'Not authenticated', false],
    ];
    for (const [cookie, detail, cleared] of cases) {
      const res = await t.request('GET', '/v0/user/basic-info', { headers: { cookie } });
      expect(res.statusCode, cookie).toBe(401);
      expect(res.json().detail, cookie).toBe(detail);
      expect(setCookieOf(res) !== undefined, cookie).toBe(cleared);
    }
    // The live session among other cookies still works.
    expect((await t.request('GET', '/v0/user/basic-info', { headers: { cookie: `theme=dark; roster_session=${live}; x=y` } })).statusCode).toBe(200);
  });
});

describe('expiry and renewal', () => {
  it('renews on use, writing last_used at most once a minute and re-sending the cookie then', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const cookie = await t.session(u);
    const lastUsed = async () => (await t.db.selectFrom('sessions').select('last_used_at').executeTakeFirstOrThrow()).last_used_at;
    const signedInAt = await lastUsed();
    t.clock.advance(30_000);
    const soon = await t.request('GET', '/v0/user/basic-info', { session: cookie });
    expect(setCookieOf(soon)).toBeUndefined();
    expect(await lastUsed()).toBe(signedInAt);
    t.clock.advance(31_000);
    const later = await t.request('GET', '/v0/user/basic-info', { session: cookie });
    expect(setCookieOf(later)).toBe(`${cookie}; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800`);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });

  it('ends after 7 idle days, and after 30 days however much it is used; an ended session is 401 and its cookie cleared', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const idle = await t.session(u);
    const used = await t.session(u);
    t.clock.advance(7 * DAY - MINUTE);
    expect((await t.request('GET', '/v0/user/basic-info', { session: used })).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    const ended = await t.request('GET', '/v0/user/basic-info', { session: idle });
    expect(ended.statusCode).toBe(401);
    expect(ended.json().detail).toBe('Your session has ended. Sign in again.');
    expect(setCookieOf(ended)).toBe('roster_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    // Used every six days, it lives to its absolute expiry (30 days after sign-in), not a minute more.
    for (let day = 7; day < 30; day += 6) {
      t.clock.advance(6 * DAY);
      const res = await t.request('GET', '/v0/user/basic-info', { session: used });
      expect(res.statusCode, `day ${day + 6}`).toBe(day + 6 < 30 ? 200 : 401);
    }
    expect(await t.db.selectFrom('sessions').select('id_hash').execute()).toEqual([]);
  });
});

describe('signing out', () => {
  it('sign out ends this session only and clears its cookie; an API key cannot sign out', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const here = await t.session(u);
    const there = await t.session(u);
    const out = await t.request('DELETE', '/v0/sessions/current', { session: here });
    expect(out.statusCode).toBe(204);
    expect(setCookieOf(out)).toMatch(/^roster_session=; .*Max-Age=0$/);
    expect((await t.request('GET', '/v0/user/basic-info', { session: here })).statusCode).toBe(401);
    expect((await t.request('GET', '/v0/user/basic-info', { session: there })).statusCode).toBe(200);
    const byKey = await t.request('DELETE', '/v0/sessions/current', { key: u.apiKey });
    expect(byKey.statusCode).toBe(400);
    expect(byKey.json().detail).toMatch(/API key, not a session/);
  });

  it('sign out everywhere ends every session of the person, not their keys or anyone else’s sessions', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const other = await t.user();
    const sessions = [await t.session(u), await t.session(u), await t.session(u)];
    const theirs = await t.session(other);
    const res = await t.request('DELETE', '/v0/sessions', { session: sessions[0] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sessions_ended: 3 });
    expect(setCookieOf(res)).toMatch(/Max-Age=0$/);
    for (const s of sessions) expect((await t.request('GET', '/v0/user/basic-info', { session: s })).statusCode).toBe(401);
    expect((await t.request('GET', '/v0/user/basic-info', { session: theirs })).statusCode).toBe(200);
    expect((await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).statusCode).toBe(200);
    // A personal key may end the person's browser sessions too; an organization key may not.
    const again = await t.session(u);
    const org = await t.org(u);
    expect((await t.request('DELETE', '/v0/sessions', { key: org.ownerKey })).statusCode).toBe(403);
    expect((await t.request('DELETE', '/v0/sessions', { key: u.apiKey })).json()).toMatchObject({ sessions_ended: 1 });
    expect((await t.request('GET', '/v0/user/basic-info', { session: again })).statusCode).toBe(401);
  });
});

describe('CSRF', () => {
  it('refuses a cookie request that could change something unless it is same-origin and sends the dashboard’s header', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const cookie = await t.session(u);
    const refusals: [Record<string, string>, RegExp][] = [
      [{ origin: 'https://evil.example' }, /Origin https:\/\/evil\.example is not/],
      [{ origin: '' }, /must carry an Origin header/],
      [{ origin: 'null' }, /Cross-site request refused/],
      [{ 'sec-fetch-site': 'cross-site' }, /Sec-Fetch-Site is cross-site/],
      [{ 'x-roster-csrf': '' }, /X-Roster-CSRF: 1/],
      [{ 'x-roster-csrf': '0' }, /X-Roster-CSRF: 1/],
    ];
    for (const [headers, detail] of refusals) {
      const sent = Object.fromEntries(Object.entries({ cookie, origin: t.app.deps.config.publicUrl, 'x-roster-csrf': '1', ...headers }).filter(([, v]) => v !== ''));
      const res = await t.request('POST', '/v0/project', { headers: sent, json: { name: 'csrf-victim' } });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().detail, JSON.stringify(headers)).toMatch(detail);
    }
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await t.request(method, method === 'PUT' ? '/v0/user/spending-limit' : '/v0/project/csrf-victim', {
        headers: { cookie, origin: 'https://evil.example' },
        ...(method === 'PUT' ? { json: { monthly_spending_cap: 0 } } : {}),
      });
      expect(res.statusCode).toBe(403);
    }
    expect((await t.request('GET', '/v0/projects', { key: u.apiKey })).json()).not.toContain('csrf-victim');
    // Without Origin, Sec-Fetch-Site: same-origin vouches for the page; reads need neither check.
    const sameSite = await t.request('POST', '/v0/project', {
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'x-roster-csrf': '1' },
      json: { name: 'same-site-ok' },
    });
    expect(sameSite.statusCode).toBe(200);
    expect((await t.request('GET', '/v0/projects', { headers: { cookie } })).statusCode).toBe(200);
    // Bearer requests are unaffected, whatever the headers (a cookie sent along is ignored).
    const bearer = await t.request('POST', '/v0/project', { key: u.apiKey, headers: { cookie, origin: 'https://evil.example' }, json: { name: 'by-key' } });
    expect(bearer.statusCode).toBe(200);
  });

  it('refuses a cross-site sign-in (login CSRF) without using the token up', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const token = await t.signInToken(u.email);
    const forged = await t.request('POST', '/v0/sessions', { headers: { origin: 'https://evil.example', 'x-roster-csrf': '1' }, json: { token } });
    expect(forged.statusCode).toBe(403);
    expect(setCookieOf(forged)).toBeUndefined();
    const noHeader = await t.request('POST', '/v0/sessions', { headers: { origin: t.app.deps.config.publicUrl }, json: { token } });
    expect(noHeader.statusCode).toBe(403);
    expect((await t.signIn(token)).res.statusCode).toBe(201);
  });
});

describe('sessions in organizations', () => {
  it('acts by the person’s current membership role and loses access when removed', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const person = await t.user();
    const org = await t.org(owner, 'Session Org');
    await t.member(org.organizationId, person, ROLE_IDS.Member);
    const cookie = await t.session(person);
    const base = `/v0/organizations/${org.organizationId}`;
    expect((await t.request('GET', `${base}/members`, { session: cookie })).statusCode).toBe(200);
    const invite = await t.request('POST', `${base}/invites`, { session: cookie, json: { email: 'x@example.com' } });
    expect(invite.statusCode).toBe(403);
    expect(invite.json().detail).toMatch(/Missing permission org:write/);
    // Promoted: the next request has the new role, no new sign-in.
    await t.request('PATCH', `${base}/members/${person.userId}`, { key: org.ownerKey, json: { role_id: ROLE_IDS.Admin } });
    expect((await t.request('POST', `${base}/invites`, { session: cookie, json: { email: 'x@example.com' } })).statusCode).toBe(201);
    await t.request('DELETE', `${base}/members/${person.userId}`, { key: org.ownerKey });
    const gone = await t.request('GET', `${base}/members`, { session: cookie });
    expect(gone.statusCode).toBe(404);
    // Removed from the organization, still signed in as themselves.
    expect((await t.request('GET', '/v0/user/basic-info', { session: cookie })).statusCode).toBe(200);
  });

  it('counts requests per session against the request limit', async () => {
    const t = await makeTestApp({ rateLimit: { perKey: 2, perIp: 100, windowSeconds: 60 } });
    const u = await t.user();
    const cookie = await t.session(u);
    expect((await t.request('GET', '/v0/user/basic-info', { session: cookie })).headers['ratelimit-policy']).toBe('"per-session";q=2;w=60');
    await t.request('GET', '/v0/user/basic-info', { session: cookie });
    const limited = await t.request('GET', '/v0/user/basic-info', { session: cookie });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/for this session/);
    expect((await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).statusCode).toBe(200);
  });
});
