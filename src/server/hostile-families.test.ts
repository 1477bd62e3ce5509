/**
 * Hostile suite by endpoint family (SECURITY.md, threat model): malformed, oversized and foreign input to
 * the families hostile.test.ts reaches least (assistants, voices, custom endpoints, organizations,
 * invites, account, idempotency keys), then concurrent requests racing for one thing. Every answer is
 * below 500 with a `detail`, and a refused request changes nothing: the caller's world is read back.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../shared/roles.ts';
import { multipart, WAV } from './modules/assistants/test-helpers.ts';
import { makeTestApp, type TestApp, type TestUser } from './testing/harness.ts';
import { wellFormed } from './testing/hostile.ts';

type Method = NonNullable<InjectOptions['method']>;

interface World {
  t: TestApp;
  a: TestUser;
  /** Another tenant, with a cloned voice of its own. */
  b: TestUser;
  bVoiceId: string;
  org: number;
  assistantId: string;
}

let w: World;

beforeAll(async () => {
  const t = await makeTestApp({}, { shared: true });
  const a = await t.user({ credits: 100 });
  const b = await t.user({ credits: 100 });
  const { organizationId: org } = await t.org(a, 'Family Org');
  await t.member(org, b, ROLE_IDS.Member);
  const hired = await t.request('POST', '/v0/assistant', { key: a.apiKey, json: { first_name: 'Ada' } });
  const sample = multipart({ name: 'B voice' }, { filename: 'sample.wav', contentType: 'audio/wav', content: WAV });
  const voice = await t.request('POST', '/v0/assistant/voice/clone', { key: b.apiKey, headers: sample.headers, payload: sample.payload });
  const endpoint = await t.request('POST', '/v0/custom_endpoint', {
    key: a.apiKey,
    json: { name: 'taken@custom', url: 'https://models.example.com/v1', model_arg: 'm' },
  });
  for (const res of [hired, voice, endpoint]) if (res.statusCode >= 300) throw new Error(`setup: ${res.statusCode} ${res.body}`);
  w = { t, a, b, bVoiceId: voice.json().info.voice_id, org, assistantId: hired.json().info.agent_id };
});

afterAll(async () => {
  await w?.t.close();
});

/** What A could lose to a refused request, as A reads it. */
async function worldOfA(): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const url of [
    '/v0/assistant',
    '/v0/assistant/voice',
    '/v0/custom_endpoint/list',
    '/v0/credits',
    '/v0/user/spending-limit',
    '/v0/organizations',
    `/v0/organizations/${w.org}/members`,
    `/v0/organizations/${w.org}/invites`,
  ]) {
    const res = await w.t.request('GET', url, { key: w.a.apiKey });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    state[url] = res.json();
  }
  return state;
}

type Case = [name: string, method: Method, url: () => string, body: unknown, status: number];
const named = (cases: Case[]) => cases.map((c): [string, Case] => [`${c[0]} → ${c[4]}`, c]);

async function refusedForA([, method, url, body, status]: Case, headers: Record<string, string> = {}) {
  const before = await worldOfA();
  const res = await w.t.request(method, url(), { key: w.a.apiKey, headers, ...(body !== undefined ? { json: body } : {}) });
  wellFormed(res);
  expect(res.statusCode, `${method} ${url()}: ${res.body}`).toBe(status);
  expect(res.body).not.toContain('B voice');
  expect(await worldOfA()).toEqual(before);
}

describe('assistants and voices', () => {
  const cases: Case[] = [
    ['a negative age', 'POST', () => '/v0/assistant', { age: -1 }, 422],
    ['an age in words', 'POST', () => '/v0/assistant', { age: 'ten' }, 422],
    ['an about text of 100 000 characters', 'POST', () => '/v0/assistant', { about: 'a'.repeat(100_000) }, 422],
    ['a javascript: profile photo', 'POST', () => '/v0/assistant', { profile_photo: 'javascript:alert(1)' }, 422],
    ['a timezone that does not exist', 'POST', () => '/v0/assistant', { timezone: 'Mars/Olympus_Mons' }, 422],
    ['an e-mail with a header injected', 'POST', () => '/v0/assistant', { email: 'ada@example.com\r\nBcc: all@example.com' }, 422],
    ['max_parallel above its bound', 'POST', () => '/v0/assistant', { max_parallel: 1001 }, 422],
    ['a pre-hire chat of 501 messages', 'POST', () => '/v0/assistant', { pre_hire_chat: Array.from({ length: 501 }, () => ({ role: 'user', msg: 'hi' })) }, 422],
    ['another tenant’s cloned voice', 'POST', () => '/v0/assistant', { voice_id: 'VOICE_OF_B' }, 422],
    ['a weekly limit of 10 000 hours in a config change', 'PATCH', () => `/v0/assistant/${w.assistantId}/config`, { weekly_limit: 10_000 }, 422],
    ['a config change of an assistant id that is not a number', 'PATCH', () => '/v0/assistant/abc/config', { about: 'x' }, 422],
    ['a config change of an assistant that does not exist', 'PATCH', () => '/v0/assistant/999999/config', { about: 'x' }, 404],
    ['deleting another tenant’s voice', 'DELETE', () => `/v0/assistant/voice/${w.bVoiceId}`, undefined, 404],
    ['deleting a voice with an unknown provider', 'DELETE', () => `/v0/assistant/voice/${w.bVoiceId}?provider=nonsense`, undefined, 422],
  ];
  it.each(named(cases))('%s', async (_name, [n, method, url, body, status]) => {
    const resolved = JSON.parse(JSON.stringify(body ?? null).replace('VOICE_OF_B', w.bVoiceId)) as unknown;
    await refusedForA([n, method, url, body === undefined ? undefined : resolved, status]);
  });
});

describe('custom endpoints, organizations, invites and the account', () => {
  const cases: Case[] = [
    ['an endpoint name with spaces', 'POST', () => '/v0/custom_endpoint', { name: 'my model', url: 'https://m.example.com', model_arg: 'm' }, 422],
    ['an endpoint at a file: URL', 'POST', () => '/v0/custom_endpoint', { name: 'local@custom', url: 'file:///etc/passwd', model_arg: 'm' }, 422],
    ['an endpoint name of 300 characters', 'POST', () => '/v0/custom_endpoint', { name: 'n'.repeat(300), url: 'https://m.example.com', model_arg: 'm' }, 422],
    ['an endpoint name already taken', 'POST', () => '/v0/custom_endpoint', { name: 'taken@custom', url: 'https://other.example.com', model_arg: 'm' }, 409],
    ['deleting an endpoint without its name', 'DELETE', () => '/v0/custom_endpoint', undefined, 422],
    ['an organization without a name', 'POST', () => '/v0/organizations', { name: '' }, 422],
    ['an organization name with a NUL', 'POST', () => '/v0/organizations', { name: 'evil\u0000org' }, 422],
    ['an organization name of 10 000 characters', 'POST', () => '/v0/organizations', { name: 'o'.repeat(10_000) }, 422],
    ['adding a user that does not exist', 'POST', () => `/v0/organizations/${w.org}/members`, { user_id: 'no-such-user' }, 404],
    ['adding a user id of 10 000 characters', 'POST', () => `/v0/organizations/${w.org}/members`, { user_id: 'u'.repeat(10_000) }, 422],
    ['adding a member twice', 'POST', () => `/v0/organizations/${w.org}/members`, { user_id: 'USER_B' }, 409],
    ['a role id that does not exist', 'PATCH', () => `/v0/organizations/${w.org}/members/USER_B`, { role_id: 99 }, 422],
    ['an invite address with a header injected', 'POST', () => `/v0/organizations/${w.org}/invites`, { email: 'x@example.com\r\nBcc: all@example.com' }, 422],
    ['an invite valid for 31 days', 'POST', () => `/v0/organizations/${w.org}/invites`, { email: 'x@example.com', expires_in_days: 31 }, 422],
    ['an invite token of 201 characters', 'POST', () => `/v0/invites/${'t'.repeat(201)}/accept`, undefined, 422],
    ['a negative spending limit', 'PUT', () => '/v0/user/spending-limit', { monthly_spending_cap: -5 }, 422],
    ['deleting the account with someone else’s address', 'DELETE', () => '/v0/user/delete-account', { confirm_email: 'someone-else@example.com' }, 400],
  ];
  it.each(named(cases))('%s', async (_name, [n, method, url, body, status]) => {
    const resolved = JSON.parse(JSON.stringify(body ?? null).replace('USER_B', w.b.userId)) as unknown;
    await refusedForA([n, method, () => url().replace('USER_B', w.b.userId), body === undefined ? undefined : resolved, status]);
  });
});

describe('idempotency keys', () => {
  it('a key of 300 characters → 422, nothing hired', async () => {
    await refusedForA(['', 'POST', () => '/v0/assistant', {}, 422], { 'idempotency-key': 'k'.repeat(300) });
  });

  it('a key with a control character → 422, nothing hired', async () => {
    await refusedForA(['', 'POST', () => '/v0/assistant', {}, 422], { 'idempotency-key': 'abc\u0007def' });
  });

  it('a key reused with another body → 422, the first answer kept, nothing hired twice', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 100 });
    const first = await t.request('POST', '/v0/assistant', { key: u.apiKey, headers: { 'idempotency-key': 'same-key' }, json: { first_name: 'One' } });
    expect(first.statusCode, first.body).toBe(200);
    const second = await t.request('POST', '/v0/assistant', { key: u.apiKey, headers: { 'idempotency-key': 'same-key' }, json: { first_name: 'Two' } });
    wellFormed(second);
    expect(second.statusCode, second.body).toBe(422);
    expect((await t.request('GET', '/v0/assistant', { key: u.apiKey })).json().info).toHaveLength(1);
  });

  it('another tenant replaying a key → its own request, never the first tenant’s answer', async () => {
    const t = await makeTestApp();
    const [u, v] = await Promise.all([t.user({ credits: 100 }), t.user({ credits: 100 })]);
    const mine = await t.request('POST', '/v0/assistant', { key: u.apiKey, headers: { 'idempotency-key': 'shared-key' }, json: { first_name: 'Mine' } });
    const theirs = await t.request('POST', '/v0/assistant', { key: v.apiKey, headers: { 'idempotency-key': 'shared-key' }, json: { first_name: 'Mine' } });
    expect([mine.statusCode, theirs.statusCode]).toEqual([200, 200]);
    expect(theirs.json().info.agent_id).not.toBe(mine.json().info.agent_id);
  });
});

describe('concurrent requests racing for one thing', () => {
  it('ten hires at once with credits for one: one assistant, the balance never below zero', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 10 });
    const res = await Promise.all(Array.from({ length: 10 }, (_, i) => t.request('POST', '/v0/assistant', { key: u.apiKey, json: { first_name: `Racer${i}` } })));
    res.forEach(wellFormed);
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(res.filter((r) => r.statusCode !== 200).every((r) => r.statusCode === 402)).toBe(true);
    expect((await t.request('GET', '/v0/assistant', { key: u.apiKey })).json().info).toHaveLength(1);
    expect((await t.request('GET', '/v0/credits', { key: u.apiKey })).json().credits).toBe(0);
  });

  it('two deletes of one project at once: each 200 or 404 (a delete is idempotent), the other project kept', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    for (const name of ['doomed', 'kept']) await t.request('POST', '/v0/project', { key: u.apiKey, json: { name } });
    const res = await Promise.all([1, 2].map(() => t.request('DELETE', '/v0/project/doomed', { key: u.apiKey })));
    res.forEach(wellFormed);
    expect(res.map((r) => r.statusCode)).toContain(200);
    res.forEach((r) => expect([200, 404]).toContain(r.statusCode));
    const projects = (await t.request('GET', '/v0/projects', { key: u.apiKey })).json();
    expect(projects).toContain('kept');
    expect(projects).not.toContain('doomed');
  });

  it('two role changes of one member at once: the member ends with one of the two roles', async () => {
    const t = await makeTestApp();
    const [owner, member] = await Promise.all([t.user(), t.user()]);
    const { organizationId, ownerKey } = await t.org(owner);
    await t.member(organizationId, member, ROLE_IDS.Member);
    const url = `/v0/organizations/${organizationId}/members/${member.userId}`;
    const res = await Promise.all([ROLE_IDS.Admin, ROLE_IDS.Viewer].map((role_id) => t.request('PATCH', url, { key: ownerKey, json: { role_id } })));
    res.forEach((r) => expect(r.statusCode, r.body).toBe(200));
    const members = (await t.request('GET', `/v0/organizations/${organizationId}/members`, { key: ownerKey })).json();
    const list = (members.members ?? members) as { user_id: string; role_id: number }[];
    expect([ROLE_IDS.Admin, ROLE_IDS.Viewer]).toContain(list.find((m) => m.user_id === member.userId)?.role_id);
  });

  it('an invite accepted and declined at once: one wins, never a member and a declined invite', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const guest = await t.user({ email: 'racer@example.com' });
    const { organizationId, ownerKey } = await t.org(owner);
    const { token } = (await t.request('POST', `/v0/organizations/${organizationId}/invites`, { key: ownerKey, json: { email: 'racer@example.com' } })).json();
    const res = await Promise.all(['accept', 'decline'].map((action) => t.request('POST', `/v0/invites/${token}/${action}`, { key: guest.apiKey })));
    res.forEach(wellFormed);
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const members = (await t.request('GET', `/v0/organizations/${organizationId}/members`, { key: ownerKey })).json();
    const joined = (members.members ?? members).length === 2;
    expect(joined).toBe(res[0]!.statusCode === 200);
  });

  it('a member removed while their key adds rows: no row lands after the removal answered', async () => {
    const t = await makeTestApp();
    const [owner, member] = await Promise.all([t.user(), t.user()]);
    const { organizationId, ownerKey } = await t.org(owner);
    const memberKey = await t.member(organizationId, member, ROLE_IDS.Member);
    await t.request('POST', '/v0/project', { key: ownerKey, json: { name: 'p' } });
    await t.request('POST', '/v0/project/p/contexts', { key: ownerKey, json: { name: 'c' } });
    const writes = Array.from({ length: 5 }, (_, i) => t.request('POST', '/v0/project/p/contexts/c/logs', { key: memberKey, json: { entries: [{ i }] } }));
    const removal = t.request('DELETE', `/v0/organizations/${organizationId}/members/${member.userId}`, { key: ownerKey });
    const [removed, ...written] = await Promise.all([removal, ...writes]);
    expect(removed.statusCode).toBe(204);
    written.forEach(wellFormed);
    const stored = (await t.request('GET', '/v0/project/p/contexts/c/logs', { key: ownerKey })).json().count;
    expect(stored).toBe(written.filter((r) => r.statusCode === 200).length);
    expect((await t.request('POST', '/v0/project/p/contexts/c/logs', { key: memberKey, json: { entries: [{ late: true }] } })).statusCode).toBe(401);
  });
});
