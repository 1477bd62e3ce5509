/**
 * Hostile suite by actor (SECURITY.md, threat model): members of each role reaching past their role, holders
 * of a leaked key of each kind reaching past the key, a removed member, another tenant and anonymous
 * callers. The generated authorization matrix checks the status of every operation for every key and
 * role; these cases check what a refusal must also guarantee: no 5xx, nothing of any tenant in the answer,
 * and nothing changed (the whole world is read back before and after each refused request).
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../shared/roles.ts';
import { multipart, WAV } from './modules/assistants/test-helpers.ts';
import { makeTestApp, type TestApp, type TestUser } from './testing/harness.ts';
import { wellFormed } from './testing/hostile.ts';

type Method = NonNullable<InjectOptions['method']>;

/** Text only stored data holds (never a path or a query), so finding it in an answer is a leak. */
const MARKERS = [
  'O-private',
  'omega secret description',
  'Org Omega',
  'omega-friend@example.com',
  'X-private',
  'x secret description',
  'Quebec Org',
  'q-friend@example.com',
  'M-private',
];

interface World {
  t: TestApp;
  owner: TestUser;
  ownerOrgKey: string;
  admin: TestUser;
  adminOrgKey: string;
  member: TestUser;
  memberOrgKey: string;
  viewer: TestUser;
  viewerOrgKey: string;
  /** The org key of a member removed from O. */
  removedOrgKey: string;
  outsider: TestUser;
  o: number;
  /** Owned by the viewer of O: reached with the viewer's O key, it must not exist. */
  q: number;
  oInvite: string;
  qInvite: string;
  logId: number;
  interfaceId: string;
  tileId: string;
  commitHash: string;
  assistantId: string;
  voiceId: string;
}

let w: World;

beforeAll(async () => {
  const t = await makeTestApp({}, { shared: true });
  const owner = await t.user({ credits: 100 });
  const [admin, member, viewer, removed, outsider] = await Promise.all([t.user(), t.user(), t.user(), t.user(), t.user()]);
  const { organizationId: o, ownerKey: ownerOrgKey } = await t.org(owner, 'Org Omega');
  const adminOrgKey = await t.member(o, admin, ROLE_IDS.Admin);
  const memberOrgKey = await t.member(o, member, ROLE_IDS.Member);
  const viewerOrgKey = await t.member(o, viewer, ROLE_IDS.Viewer);
  const removedOrgKey = await t.member(o, removed, ROLE_IDS.Member);
  const { organizationId: q, ownerKey: qKey } = await t.org(viewer, 'Quebec Org');

  const call = async (key: string, method: Method, url: string, json?: unknown) => {
    const res = await t.request(method, url, { key, json });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.body ? res.json() : null;
  };
  // O's workspace, made with the owner's organization key.
  await call(ownerOrgKey, 'POST', '/v0/project', { name: 'o-proj', description: 'omega secret description' });
  await call(ownerOrgKey, 'POST', '/v0/project/o-proj/contexts', { name: 'ctx', is_versioned: true });
  const { ids } = await call(ownerOrgKey, 'POST', '/v0/project/o-proj/contexts/ctx/logs', { entries: [{ run: 1, note: 'O-private' }] });
  const { commit_hash: commitHash } = await call(ownerOrgKey, 'POST', '/v0/project/o-proj/contexts/ctx/commit', { commit_message: 'first' });
  const iface = (await call(ownerOrgKey, 'POST', '/v0/project/o-proj/interfaces', { name: 'Board' })).info;
  const tab = (await call(ownerOrgKey, 'POST', `/v0/interface/${iface.id}/tabs`, { name: 'Main' })).info;
  const tile = (
    await call(ownerOrgKey, 'POST', `/v0/tab/${tab.id}/tiles`, {
      name: 'Runs',
      position: { x: 0, y: 0, width: 4, height: 3 },
      context: 'ctx',
      table_tile: { table_type: 'table', column_order: ['run'] },
    })
  ).info;
  await call(ownerOrgKey, 'POST', '/v0/custom_endpoint', { name: 'omega@custom', url: 'https://models.example.com/v1', model_arg: 'omega' });
  const oInvite = (await call(ownerOrgKey, 'POST', `/v0/organizations/${o}/invites`, { email: 'omega-friend@example.com' })).id;
  // The owner's personal assistant and voice.
  const assistantId = (await call(owner.apiKey, 'POST', '/v0/assistant', {})).info.agent_id;
  const sample = multipart({ name: 'Owner voice' }, { filename: 'sample.wav', contentType: 'audio/wav', content: WAV });
  const voice = await t.request('POST', '/v0/assistant/voice/clone', { key: owner.apiKey, headers: sample.headers, payload: sample.payload });
  if (voice.statusCode !== 201) throw new Error(`voice clone → ${voice.statusCode} ${voice.body}`);
  // The member's personal project; the outsider's workspace; Q, the viewer's own organization.
  await call(member.apiKey, 'POST', '/v0/project', { name: 'm-personal', description: 'M-private' });
  await call(outsider.apiKey, 'POST', '/v0/project', { name: 'x-proj', description: 'x secret description' });
  await call(outsider.apiKey, 'POST', '/v0/project/x-proj/contexts', { name: 'ctx' });
  await call(outsider.apiKey, 'POST', '/v0/project/x-proj/contexts/ctx/logs', { entries: [{ note: 'X-private' }] });
  const qInvite = (await call(qKey, 'POST', `/v0/organizations/${q}/invites`, { email: 'q-friend@example.com' })).id;
  await call(ownerOrgKey, 'DELETE', `/v0/organizations/${o}/members/${removed.userId}`);

  w = {
    t,
    owner,
    ownerOrgKey,
    admin,
    adminOrgKey,
    member,
    memberOrgKey,
    viewer,
    viewerOrgKey,
    removedOrgKey,
    outsider,
    o,
    q,
    oInvite,
    qInvite,
    logId: ids[0],
    interfaceId: iface.id,
    tileId: tile.id,
    commitHash,
    assistantId,
    voiceId: voice.json().info.voice_id,
  };
});

afterAll(async () => {
  await w?.t.close();
});

/** Everything a refused request could change, read with keys that may read it. */
async function world(): Promise<Record<string, unknown>> {
  const reads: [string, string, string][] = [
    ['owner’s O key', w.ownerOrgKey, '/v0/projects'],
    ['owner’s O key', w.ownerOrgKey, '/v0/project/o-proj'],
    ['owner’s O key', w.ownerOrgKey, '/v0/project/o-proj/contexts'],
    ['owner’s O key', w.ownerOrgKey, '/v0/project/o-proj/contexts/ctx/logs'],
    ['owner’s O key', w.ownerOrgKey, '/v0/project/o-proj/contexts/ctx/commits'],
    ['owner’s O key', w.ownerOrgKey, '/v0/project/o-proj/interfaces'],
    ['owner’s O key', w.ownerOrgKey, '/v0/custom_endpoint/list'],
    ['owner’s O key', w.ownerOrgKey, '/v0/credits'],
    ['owner’s O key', w.ownerOrgKey, `/v0/organizations/${w.o}/members`],
    ['owner’s O key', w.ownerOrgKey, `/v0/organizations/${w.o}/invites`],
    ['owner', w.owner.apiKey, '/v0/assistant'],
    ['owner', w.owner.apiKey, '/v0/assistant/voice'],
    ['owner', w.owner.apiKey, '/v0/user/spending-limit'],
    ['owner', w.owner.apiKey, '/v0/credits'],
    ['member', w.member.apiKey, '/v0/projects'],
    ['member', w.member.apiKey, '/v0/user/spending-limit'],
    ['viewer', w.viewer.apiKey, '/v0/organizations'],
    ['viewer', w.viewer.apiKey, `/v0/organizations/${w.q}/members`],
    ['viewer', w.viewer.apiKey, `/v0/organizations/${w.q}/invites`],
    ['outsider', w.outsider.apiKey, '/v0/projects'],
    ['outsider', w.outsider.apiKey, '/v0/project/x-proj/contexts/ctx/logs'],
  ];
  const state: Record<string, unknown> = {};
  for (const [who, key, url] of reads) {
    const res = await w.t.request('GET', url, { key });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    state[`${who}: ${url}`] = res.json();
  }
  for (const user of [w.owner, w.admin, w.member, w.viewer]) {
    state[`${user.email} exists`] = (await w.t.request('GET', '/v0/user/basic-info', { key: user.apiKey })).statusCode;
  }
  return state;
}

type Case = [name: string, key: () => string | undefined, method: Method, url: () => string, body: (() => unknown) | null, status: number];

/** Sends a case, checks the answer, and that a refusal left the world as it was and named nothing stored. */
async function refused([, key, method, url, body, status]: Case) {
  const before = await world();
  const k = key();
  const res = await w.t.request(method, url(), { ...(k ? { key: k } : {}), ...(body ? { json: body() } : {}) });
  wellFormed(res);
  expect(res.statusCode, `${method} ${url()}: ${res.body}`).toBe(status);
  for (const marker of MARKERS) expect(res.body, `${marker} in the answer`).not.toContain(marker);
  expect(await world()).toEqual(before);
}

/** Each case as `name → status`, the title vitest shows. */
const named = (cases: Case[]) => cases.map((c): [string, Case] => [`${c[0]} → ${c[5]}`, c]);

describe('a member reaching past their role', () => {
  const cases: Case[] = [
    ['Viewer key creates a project', () => w.viewerOrgKey, 'POST', () => '/v0/project', () => ({ name: 'viewer-made' }), 403],
    ['Viewer key adds a row', () => w.viewerOrgKey, 'POST', () => '/v0/project/o-proj/contexts/ctx/logs', () => ({ entries: [{ run: 2 }] }), 403],
    ['Viewer key edits a row', () => w.viewerOrgKey, 'PATCH', () => `/v0/project/o-proj/contexts/ctx/logs/${w.logId}`, () => ({ entries: { run: 9 } }), 403],
    ['Viewer key deletes a row', () => w.viewerOrgKey, 'DELETE', () => `/v0/project/o-proj/contexts/ctx/logs/${w.logId}`, null, 403],
    ['Viewer key commits', () => w.viewerOrgKey, 'POST', () => '/v0/project/o-proj/contexts/ctx/commit', () => ({}), 403],
    ['Viewer key rolls back', () => w.viewerOrgKey, 'POST', () => '/v0/project/o-proj/contexts/ctx/rollback', () => ({ commit_hash: w.commitHash }), 403],
    ['Viewer key deletes a context', () => w.viewerOrgKey, 'DELETE', () => '/v0/project/o-proj/contexts/ctx', null, 403],
    ['Viewer key deletes the project', () => w.viewerOrgKey, 'DELETE', () => '/v0/project/o-proj', null, 403],
    ['Viewer key renames a tile', () => w.viewerOrgKey, 'PATCH', () => `/v0/tile/${w.tileId}`, () => ({ name: 'viewer was here' }), 403],
    ['Viewer key deletes a dashboard', () => w.viewerOrgKey, 'DELETE', () => `/v0/interface/${w.interfaceId}`, null, 403],
    [
      'Viewer key registers a custom endpoint',
      () => w.viewerOrgKey,
      'POST',
      () => '/v0/custom_endpoint',
      () => ({ name: 'v@custom', url: 'https://v.example.com', model_arg: 'v' }),
      403,
    ],
    ['Viewer key deletes a custom endpoint', () => w.viewerOrgKey, 'DELETE', () => '/v0/custom_endpoint?name=omega@custom', null, 403],
    ['Viewer key hires an assistant', () => w.viewerOrgKey, 'POST', () => '/v0/assistant', () => ({}), 403],
    ['Viewer key invites', () => w.viewerOrgKey, 'POST', () => `/v0/organizations/${w.o}/invites`, () => ({ email: 'viewer-guest@example.com' }), 403],
    ['Viewer personal key invites into O', () => w.viewer.apiKey, 'POST', () => `/v0/organizations/${w.o}/invites`, () => ({ email: 'viewer-guest@example.com' }), 403],
    ['Viewer personal key revokes an invite of O', () => w.viewer.apiKey, 'DELETE', () => `/v0/organizations/${w.o}/invites/${w.oInvite}`, null, 403],
    [
      'Viewer personal key promotes itself',
      () => w.viewer.apiKey,
      'PATCH',
      () => `/v0/organizations/${w.o}/members/${w.viewer.userId}`,
      () => ({ role_id: ROLE_IDS.Admin }),
      403,
    ],
    ['Member key invites', () => w.memberOrgKey, 'POST', () => `/v0/organizations/${w.o}/invites`, () => ({ email: 'member-guest@example.com' }), 403],
    ['Member key removes the viewer', () => w.memberOrgKey, 'DELETE', () => `/v0/organizations/${w.o}/members/${w.viewer.userId}`, null, 403],
    [
      'Member key promotes itself to Admin',
      () => w.memberOrgKey,
      'PATCH',
      () => `/v0/organizations/${w.o}/members/${w.member.userId}`,
      () => ({ role_id: ROLE_IDS.Admin }),
      403,
    ],
    ['Member key adds the outsider', () => w.memberOrgKey, 'POST', () => `/v0/organizations/${w.o}/members`, () => ({ user_id: w.outsider.userId }), 403],
    ['Member key deletes the project', () => w.memberOrgKey, 'DELETE', () => '/v0/project/o-proj', null, 403],
    ['Member key deletes a context', () => w.memberOrgKey, 'DELETE', () => '/v0/project/o-proj/contexts/ctx', null, 403],
    [
      'Admin key changes the owner’s role',
      () => w.adminOrgKey,
      'PATCH',
      () => `/v0/organizations/${w.o}/members/${w.owner.userId}`,
      () => ({ role_id: ROLE_IDS.Viewer }),
      400,
    ],
    ['Admin key removes the owner', () => w.adminOrgKey, 'DELETE', () => `/v0/organizations/${w.o}/members/${w.owner.userId}`, null, 400],
    ['Admin key makes itself Owner', () => w.adminOrgKey, 'PATCH', () => `/v0/organizations/${w.o}/members/${w.admin.userId}`, () => ({ role_id: ROLE_IDS.Owner }), 400],
    [
      'Admin key adds the outsider as Owner',
      () => w.adminOrgKey,
      'POST',
      () => `/v0/organizations/${w.o}/members`,
      () => ({ user_id: w.outsider.userId, role_id: ROLE_IDS.Owner }),
      400,
    ],
    [
      'Admin key invites an Owner',
      () => w.adminOrgKey,
      'POST',
      () => `/v0/organizations/${w.o}/invites`,
      () => ({ email: 'new-owner@example.com', role_name: 'Owner' }),
      400,
    ],
    ['Owner key removes the owner', () => w.ownerOrgKey, 'DELETE', () => `/v0/organizations/${w.o}/members/${w.owner.userId}`, null, 400],
  ];
  it.each(named(cases))('%s', async (_name, c) => refused(c));
});

describe('a leaked organization key reaching past its organization', () => {
  const cases: Case[] = [
    ['O key of Q’s owner lists Q’s members', () => w.viewerOrgKey, 'GET', () => `/v0/organizations/${w.q}/members`, null, 404],
    ['O key of Q’s owner lists Q’s invites', () => w.viewerOrgKey, 'GET', () => `/v0/organizations/${w.q}/invites`, null, 404],
    ['O key of Q’s owner lists Q’s roles', () => w.viewerOrgKey, 'GET', () => `/v0/organizations/${w.q}/roles`, null, 404],
    ['O key of Q’s owner invites into Q', () => w.viewerOrgKey, 'POST', () => `/v0/organizations/${w.q}/invites`, () => ({ email: 'leak@example.com' }), 404],
    ['O key of Q’s owner revokes Q’s invite', () => w.viewerOrgKey, 'DELETE', () => `/v0/organizations/${w.q}/invites/${w.qInvite}`, null, 404],
    ['O key of Q’s owner adds a member to Q', () => w.viewerOrgKey, 'POST', () => `/v0/organizations/${w.q}/members`, () => ({ user_id: w.outsider.userId }), 404],
    ['O key of Q’s owner removes Q’s owner', () => w.viewerOrgKey, 'DELETE', () => `/v0/organizations/${w.q}/members/${w.viewer.userId}`, null, 404],
    ['owner’s O key deletes the owner’s account', () => w.ownerOrgKey, 'DELETE', () => '/v0/user/delete-account', () => ({ confirm_email: w.owner.email }), 403],
    ['member’s O key deletes the member’s account', () => w.memberOrgKey, 'DELETE', () => '/v0/user/delete-account', () => ({ confirm_email: w.member.email }), 403],
    ['member’s O key raises the personal spending limit', () => w.memberOrgKey, 'PUT', () => '/v0/user/spending-limit', () => ({ monthly_spending_cap: 1000 }), 403],
    [
      'admin’s O key signs up a business',
      () => w.adminOrgKey,
      'POST',
      () => '/v0/user/create-with-business-info',
      () => ({ email: null, account_type: 'individual' }),
      403,
    ],
    [
      'owner’s O key creates a user',
      () => w.ownerOrgKey,
      'POST',
      () => '/v0/user/create-with-business-info',
      () => ({ email: 'minted@example.com', account_type: 'individual' }),
      403,
    ],
    ['member’s O key reads the member’s personal project', () => w.memberOrgKey, 'GET', () => '/v0/project/m-personal', null, 404],
    ['owner’s O key deletes the owner’s assistant', () => w.ownerOrgKey, 'DELETE', () => `/v0/assistant/${w.assistantId}`, null, 404],
    ['owner’s O key reads the owner’s assistant', () => w.ownerOrgKey, 'GET', () => `/v0/assistant/${w.assistantId}`, null, 404],
    ['owner’s O key deletes the owner’s cloned voice', () => w.ownerOrgKey, 'DELETE', () => `/v0/assistant/voice/${w.voiceId}`, null, 404],
  ];
  it.each(named(cases))('%s', async (_name, c) => refused(c));
});

describe('a removed member’s key', () => {
  const cases: Case[] = [
    ['lists O’s projects', () => w.removedOrgKey, 'GET', () => '/v0/projects', null, 401],
    ['adds a row to O', () => w.removedOrgKey, 'POST', () => '/v0/project/o-proj/contexts/ctx/logs', () => ({ entries: [{ run: 3 }] }), 401],
    ['lists O’s members', () => w.removedOrgKey, 'GET', () => `/v0/organizations/${w.o}/members`, null, 401],
  ];
  it.each(named(cases))('%s', async (_name, c) => refused(c));
});

describe('another tenant naming O’s and the owner’s things', () => {
  const cases: Case[] = [
    ['reads the owner’s assistant', () => w.outsider.apiKey, 'GET', () => `/v0/assistant/${w.assistantId}`, null, 404],
    ['reconfigures the owner’s assistant', () => w.outsider.apiKey, 'PATCH', () => `/v0/assistant/${w.assistantId}/config`, () => ({ about: 'hijacked' }), 404],
    ['deletes the owner’s assistant', () => w.outsider.apiKey, 'DELETE', () => `/v0/assistant/${w.assistantId}`, null, 404],
    ['deletes the owner’s voice', () => w.outsider.apiKey, 'DELETE', () => `/v0/assistant/voice/${w.voiceId}`, null, 404],
    ['deletes O’s custom endpoint by name', () => w.outsider.apiKey, 'DELETE', () => '/v0/custom_endpoint?name=omega@custom', null, 404],
    ['checkpoints O’s tile', () => w.outsider.apiKey, 'POST', () => `/v0/tile/${w.tileId}/checkpoint`, () => ({}), 404],
    ['reads O’s log page at a commit of O', () => w.outsider.apiKey, 'GET', () => `/v0/project/o-proj/contexts/ctx/logs?commit=${w.commitHash}`, null, 404],
    ['accepts an invite by its id instead of its token', () => w.outsider.apiKey, 'POST', () => `/v0/invites/${w.oInvite}/accept`, null, 404],
    ['declines an invite by its id instead of its token', () => w.outsider.apiKey, 'POST', () => `/v0/invites/${w.oInvite}/decline`, null, 404],
  ];
  it.each(named(cases))('%s', async (_name, c) => refused(c));
});

describe('anonymous callers', () => {
  const cases: Case[] = [
    ['read O’s project by name', () => undefined, 'GET', () => '/v0/project/o-proj', null, 401],
    ['read a project that does not exist', () => undefined, 'GET', () => '/v0/project/nothing-here', null, 401],
    ['delete O’s tile', () => undefined, 'DELETE', () => `/v0/tile/${w.tileId}`, null, 401],
    ['accept an invite', () => undefined, 'POST', () => `/v0/invites/${w.oInvite}/accept`, null, 401],
    ['read a stored file that does not exist', () => undefined, 'GET', () => '/v0/files/photos/not-a-real-name.png', null, 404],
  ];
  it.each(named(cases))('%s', async (_name, c) => refused(c));

  it('get the same 401 whether or not what they name exists', async () => {
    const exists = await w.t.request('GET', '/v0/project/o-proj');
    const missing = await w.t.request('GET', '/v0/project/nothing-here');
    expect([exists.statusCode, exists.body]).toEqual([missing.statusCode, missing.body]);
  });

  it('learn no stored data and no secret from the health check and the OpenAPI document', async () => {
    for (const url of ['/v0/health', '/v0/openapi.json']) {
      const res = await w.t.request('GET', url);
      expect(res.statusCode).toBe(200);
      for (const marker of MARKERS) expect(res.body).not.toContain(marker);
      expect(res.body).not.toMatch(/rk_[\w-]{20,}|@example\.com/);
      expect(res.headers.server).toBeUndefined();
    }
  });
});
