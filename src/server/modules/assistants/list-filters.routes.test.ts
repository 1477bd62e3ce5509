import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { ORGANIZATION_HEADER } from '../../../shared/workspace-header.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { accountOf, addCredits, toMicros } from '../credits/repository.ts';

// GET /v0/assistant filters as the SDK sends them (logs-api.md §9): phone, email, agent_id, list_all_org=True.

async function hire(t: TestApp, key: string, json: object, headers: Record<string, string> = {}) {
  const res = await t.request('POST', '/v0/assistant', { key, json: { create_infra: false, ...json }, headers });
  expect(res.statusCode).toBe(200);
  return res.json().info.agent_id as string;
}
const ids = async (t: TestApp, key: string, query = '', headers: Record<string, string> = {}) => {
  const res = await t.request('GET', `/v0/assistant${query}`, { key, headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().info as { agent_id: string }[]).map((a) => a.agent_id);
};

describe('GET /v0/assistant filters', () => {
  it('narrows by phone (exact), email (any case) and agent_id; together they all apply; none given lists all', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 50 });
    const a = await hire(t, u.apiKey, { first_name: 'A', phone: '+15550100001', email: 'Ada@Example.com' });
    const b = await hire(t, u.apiKey, { first_name: 'B', phone: '+15550100002', email: 'bob@example.com' });
    expect(await ids(t, u.apiKey)).toEqual([b, a]);
    expect(await ids(t, u.apiKey, `?phone=${encodeURIComponent('+15550100001')}`)).toEqual([a]);
    expect(await ids(t, u.apiKey, '?email=ada%40example.com')).toEqual([a]);
    expect(await ids(t, u.apiKey, '?email=BOB%40EXAMPLE.COM')).toEqual([b]);
    expect(await ids(t, u.apiKey, `?agent_id=${b}`)).toEqual([b]);
    expect(await ids(t, u.apiKey, `?agent_id=${b}&phone=${encodeURIComponent('+15550100002')}`)).toEqual([b]);
    expect(await ids(t, u.apiKey, `?agent_id=${a}&email=bob%40example.com`)).toEqual([]);
    expect(await ids(t, u.apiKey, '?phone=15550100001')).toEqual([]);
    // An agent_id that is not a whole number is no assistant's.
    expect(await ids(t, u.apiKey, '?agent_id=abc')).toEqual([]);
    expect(await ids(t, u.apiKey, '?agent_id=99999999999999')).toEqual([]);
  });

  it('never finds another tenant’s assistant', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 50 });
    const stranger = await t.user({ credits: 50 });
    const theirs = await hire(t, stranger.apiKey, { phone: '+15550100009', email: 'x@example.com' });
    expect(await ids(t, u.apiKey, `?agent_id=${theirs}`)).toEqual([]);
    expect(await ids(t, u.apiKey, `?phone=${encodeURIComponent('+15550100009')}`)).toEqual([]);
    expect(await ids(t, u.apiKey, '?email=x%40example.com')).toEqual([]);
  });

  it('list_all_org=True in an organization lists every assistant of it, whoever hired it', async () => {
    const t = await makeTestApp();
    const owner = await t.user({ credits: 50 });
    const member = await t.user({ credits: 50 });
    const org = await t.org(owner);
    const account = await accountOf(t.db, { userId: owner.userId, organizationId: org.organizationId });
    await addCredits(t.db, account.id, toMicros(100), 'test', null, t.clock.now());
    const memberKey = await t.member(org.organizationId, member, ROLE_IDS.Member);
    const byOwner = await hire(t, org.ownerKey, { first_name: 'O' });
    const byMember = await hire(t, memberKey, { first_name: 'M' });
    const personal = await hire(t, member.apiKey, { first_name: 'P' });
    for (const value of ['True', 'true', 'TRUE', '1']) expect(await ids(t, memberKey, `?list_all_org=${value}`)).toEqual([byMember, byOwner]);
    expect(await ids(t, member.apiKey, '?list_all_org=True', { [ORGANIZATION_HEADER]: String(org.organizationId) })).toEqual([byMember, byOwner]);
    expect(await ids(t, memberKey, `?list_all_org=True&agent_id=${byOwner}`)).toEqual([byOwner]);
    // False (or leaving it out) is the workspace's list as always.
    expect(await ids(t, memberKey, '?list_all_org=False')).toEqual([byMember, byOwner]);
    expect(await ids(t, member.apiKey, '?list_all_org=False')).toEqual([personal]);
  });

  it('list_all_org=True where the caller acts in no organization is 400, an unreadable value 422', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await t.request('GET', '/v0/assistant?list_all_org=True', { key: u.apiKey });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/organization API key|X-Roster-Organization/);
    expect((await t.request('GET', '/v0/assistant?list_all_org=maybe', { key: u.apiKey })).statusCode).toBe(422);
  });

  it('needs assistant:read in the workspace, as before (an organization key limited to projects → 403)', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    const made = await t.request('POST', `/v0/organizations/${org.organizationId}/keys`, {
      key: owner.apiKey,
      json: { name: 'projects only', permissions: ['project:read'] },
    });
    expect(made.statusCode).toBe(201);
    const res = await t.request('GET', '/v0/assistant?list_all_org=True', { key: made.json().api_key });
    expect(res.statusCode).toBe(403);
  });
});
