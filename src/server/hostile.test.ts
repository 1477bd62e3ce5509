/**
 * Hostile input (issue 8): malformed, oversized, foreign and concurrent requests against the real app
 * on a real database. Every case must answer with the intended 4xx (never 5xx), keep tenants apart and
 * write nothing half-way. Read-only cases share one world; cases that write build their own. The other
 * hostile-*.test.ts files take the threat model's actors (SECURITY.md) and the endpoint families one by one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp, type TestUser } from './testing/harness.ts';
import { wellFormed } from './testing/hostile.ts';
import { rotatePersonalKey } from './modules/users/repository.ts';
import { multipart, PNG, pngBomb, WAV } from './modules/assistants/test-helpers.ts';

type Method = NonNullable<InjectOptions['method']>;

interface World {
  t: TestApp;
  a: TestUser;
  b: TestUser;
  revokedKey: string;
  orgId: number;
  orgKey: string;
  interfaceId: string;
  tabId: string;
  tileId: string;
  inviteId: string;
  commitHash: string;
  logId: string;
}

let w: World;

beforeAll(async () => {
  const t = await makeTestApp({}, { shared: true });
  const a = await t.user({ credits: 100 });
  const b = await t.user();
  const old = await t.user();
  const revokedKey = old.apiKey;
  await rotatePersonalKey(t.db, old.userId, t.clock.now());
  const { organizationId, ownerKey } = await t.org(a, 'Alpha Org');
  const call = async (method: Method, url: string, json?: unknown) => {
    const res = await t.request(method, url, { key: a.apiKey, json });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
    return res.json();
  };
  await call('POST', '/v0/project', { name: 'alpha', description: 'secret project of A' });
  await call('POST', '/v0/project/alpha/contexts', { name: 'ctx', is_versioned: true, unique_keys: { run: 'int' } });
  const { ids } = await call('POST', '/v0/project/alpha/contexts/ctx/logs', { entries: [{ run: 1, note: 'A-private' }] });
  const { commit_hash } = await call('POST', '/v0/project/alpha/contexts/ctx/commit', { commit_message: 'first' });
  const iface = (await call('POST', '/v0/project/alpha/interfaces', { name: 'Board' })).info;
  const tab = (await call('POST', `/v0/interface/${iface.id}/tabs`, { name: 'Main' })).info;
  const tile = (
    await call('POST', `/v0/tab/${tab.id}/tiles`, {
      name: 'Runs',
      position: { x: 0, y: 0, width: 4, height: 3 },
      context: 'ctx',
      table_tile: { table_type: 'table', column_order: ['run'] },
    })
  ).info;
  const invite = await call('POST', `/v0/organizations/${organizationId}/invites`, { email: 'friend@example.com' });
  w = {
    t,
    a,
    b,
    revokedKey,
    orgId: organizationId,
    orgKey: ownerKey,
    interfaceId: iface.id,
    tabId: tab.id,
    tileId: tile.id,
    inviteId: invite.id ?? invite.invite?.id,
    commitHash: commit_hash,
    logId: String(ids[0]),
  };
});

afterAll(async () => {
  await w?.t.close();
});

function raw(method: Method, url: string, headers: Record<string, string>, payload?: string | Buffer) {
  return w.t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
}

// Operations that need a key, with a body that would be valid for A.
const protectedOps = (): [Method, string, unknown?][] => [
  ['GET', '/v0/user/basic-info'],
  ['GET', '/v0/projects'],
  ['POST', '/v0/project', { name: 'x1' }],
  ['GET', '/v0/project/alpha/contexts'],
  ['POST', '/v0/project/alpha/contexts/ctx/rollback', { commit_hash: w.commitHash }],
  ['GET', '/v0/credits'],
  ['GET', '/v0/organizations'],
  ['GET', '/v0/organizations/members'],
  ['GET', `/v0/organizations/${w.orgId}/invites`],
  ['POST', '/v0/tile/export_template', { tile_id: w.tileId }],
  ['PUT', '/v0/user/spending-limit', { monthly_spending_cap: 5 }],
  ['GET', '/v0/user/can-delete-account'],
];

describe('auth', () => {
  const invalid = 'Invalid API key.';
  const missing = 'Not authenticated';
  const variants: [string, (key: string) => Record<string, string>, string][] = [
    ['no Authorization header', () => ({}), missing],
    ['Basic scheme', (k) => ({ authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}` }), missing],
    ['Bearer without a key', () => ({ authorization: 'Bearer ' }), missing],
    ['key in the query string only', () => ({}), missing],
    ['revoked key', () => ({ authorization: `Bearer ${w.revokedKey}` }), invalid],
    ['unknown well-formed key', () => ({ authorization: `Bearer rk_${'A'.repeat(43)}` }), invalid],
    ['key with a character appended', (k) => ({ authorization: `Bearer ${k}x` }), invalid],
    ['10 000-character key', () => ({ authorization: `Bearer ${'k'.repeat(10_000)}` }), missing],
    ['key with a NUL in it', (k) => ({ authorization: `Bearer ${k.slice(0, 5)}\u0000${k.slice(5)}` }), missing],
  ];

  for (const [name, headers, detail] of variants) {
    it(`${name} → 401 on every protected operation`, async () => {
      for (const [method, url, body] of protectedOps()) {
        const query = name.startsWith('key in the query') ? `${url.includes('?') ? '&' : '?'}api_key=${w.a.apiKey}` : '';
        const res = await raw(
          method,
          url + query,
          { ...headers(w.a.apiKey), ...(body ? { 'content-type': 'application/json' } : {}) },
          body ? JSON.stringify(body) : undefined,
        );
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(401);
        expect(res.json()).toEqual({ detail });
        if (detail === 'Not authenticated') expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    });
  }

  it('accepts the scheme in any case (RFC 9110: schemes are case-insensitive)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      const res = await raw('GET', '/v0/user/basic-info', { authorization: `${scheme} ${w.a.apiKey}` });
      expect(res.statusCode).toBe(200);
    }
  });

  it('never echoes the key back in an error', async () => {
    const res = await raw('GET', '/v0/user/basic-info', { authorization: `Bearer ${w.revokedKey}` });
    expect(res.body).not.toContain(w.revokedKey);
  });
});

describe('tenant isolation: B asks for A’s resources', () => {
  const foreign = (): [Method, string, unknown?][] => [
    ['GET', '/v0/project/alpha'],
    ['DELETE', '/v0/project/alpha'],
    ['GET', '/v0/project/alpha/contexts'],
    ['POST', '/v0/project/alpha/contexts', { name: 'intruder' }],
    ['DELETE', '/v0/project/alpha/contexts/ctx'],
    ['GET', '/v0/project/alpha/contexts/ctx/logs'],
    ['POST', '/v0/project/alpha/contexts/ctx/logs', { entries: [{ run: 9 }] }],
    ['PATCH', `/v0/project/alpha/contexts/ctx/logs/${w.logId}`, { entries: { run: 9 } }],
    ['DELETE', `/v0/project/alpha/contexts/ctx/logs/${w.logId}`],
    ['POST', '/v0/project/alpha/contexts/ctx/commit', {}],
    ['GET', '/v0/project/alpha/contexts/ctx/commits'],
    ['POST', '/v0/project/alpha/contexts/ctx/rollback', { commit_hash: w.commitHash }],
    ['GET', '/v0/project/alpha/interfaces'],
    ['POST', '/v0/project/alpha/interfaces', { name: 'x' }],
    ['DELETE', `/v0/interface/${w.interfaceId}`],
    ['POST', `/v0/interface/${w.interfaceId}/tabs`, { name: 'x' }],
    ['DELETE', `/v0/tab/${w.tabId}`],
    ['POST', `/v0/tab/${w.tabId}/tiles`, { name: 'x', position: { x: 0, y: 0, width: 1, height: 1 } }],
    ['PATCH', `/v0/tile/${w.tileId}`, { name: 'stolen' }],
    ['DELETE', `/v0/tile/${w.tileId}`],
    ['POST', `/v0/tile/${w.tileId}/checkpoint`, {}],
    ['POST', '/v0/tile/export_template', { tile_id: w.tileId }],
    ['GET', `/v0/organizations/${w.orgId}/members`],
    ['GET', `/v0/organizations/${w.orgId}/invites`],
    ['POST', `/v0/organizations/${w.orgId}/invites`, { email: 'b-friend@example.com' }],
    ['DELETE', `/v0/organizations/${w.orgId}/invites/${w.inviteId}`],
    ['POST', `/v0/organizations/${w.orgId}/members`, { user_id: w.b.userId }],
    ['PATCH', `/v0/organizations/${w.orgId}/members/${w.a.userId}`, { role_id: 4 }],
    ['DELETE', `/v0/organizations/${w.orgId}/members/${w.a.userId}`],
    ['GET', `/v0/organizations/${w.orgId}/roles`],
  ];

  it.each(Array.from({ length: 30 }, (_, i) => i))('case %i: 404, nothing of A’s in the answer, nothing changed', async (i) => {
    const [method, url, body] = foreign()[i]!;
    const res = await w.t.request(method, url, { key: w.b.apiKey, ...(body !== undefined ? { json: body } : {}) });
    wellFormed(res);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    expect(res.body).not.toMatch(/A-private|secret project of A|friend@example\.com|Alpha Org/);
    // A's world is intact.
    const logs = await w.t.request('GET', '/v0/project/alpha/contexts/ctx/logs', { key: w.a.apiKey });
    expect(logs.json().count).toBe(1);
    const members = await w.t.request('GET', `/v0/organizations/${w.orgId}/members`, { key: w.a.apiKey });
    expect(members.json().members ?? members.json()).toHaveLength(1);
  });

  it('B’s lists never contain A’s data', async () => {
    for (const url of ['/v0/projects', '/v0/organizations', '/v0/organizations/members', '/v0/custom_endpoint/list', '/v0/invites/pending']) {
      const res = await w.t.request('GET', url, { key: w.b.apiKey });
      wellFormed(res);
      expect(res.body, url).not.toMatch(/alpha|Alpha Org|A-private/);
    }
  });

  it('an org key reads the org’s data, not its owner’s personal projects', async () => {
    const res = await w.t.request('GET', '/v0/project/alpha', { key: w.orgKey });
    expect(res.statusCode).toBe(404);
  });
});

describe('validation of JSON bodies', () => {
  const huge = 2 ** 53 + 1;
  const bodies: [string, Method, string, number, string][] = [
    ['malformed JSON', 'POST', '/v0/project', 422, '{"name": "x",'],
    ['a JSON array instead of an object', 'POST', '/v0/project', 422, '["x"]'],
    ['a bare string', 'POST', '/v0/project', 422, '"alpha"'],
    ['null', 'POST', '/v0/project', 422, 'null'],
    ['an empty body', 'POST', '/v0/project', 422, ''],
    ['1e309 (Infinity) as a name', 'POST', '/v0/project', 422, '{"name": 1e309}'],
    ['1e309 as a spending cap', 'PUT', '/v0/user/spending-limit', 422, '{"monthly_spending_cap": 1e309}'],
    ['-1e309 as a spending cap', 'PUT', '/v0/user/spending-limit', 422, '{"monthly_spending_cap": -1e309}'],
    ['2^53+1 as a spending cap', 'PUT', '/v0/user/spending-limit', 422, `{"monthly_spending_cap": ${huge}}`],
    ['2^53+1 as a role id', 'POST', '/v0/organizations/1/members', 422, `{"user_id": "x", "role_id": ${huge}}`],
    ['a string as a spending cap', 'PUT', '/v0/user/spending-limit', 422, '{"monthly_spending_cap": "5"}'],
    ['NUL in a name', 'POST', '/v0/project', 422, '{"name": "a\\u0000b"}'],
    ['NUL in a description', 'POST', '/v0/project', 422, '{"name": "nul-desc", "description": "x\\u0000"}'],
    ['a lone high surrogate', 'POST', '/v0/project', 422, '{"name": "ok", "description": "\\ud800"}'],
    ['a lone low surrogate in a context name', 'POST', '/v0/project/alpha/contexts', 422, '{"name": "\\udc00"}'],
    ['__proto__ as a body field', 'POST', '/v0/project', 422, '{"__proto__": {"isAdmin": true}, "name": "p r o t o"}'],
    ['constructor.prototype pollution', 'POST', '/v0/project', 422, '{"constructor": {"prototype": {"polluted": 1}}}'],
    ['a name with path traversal', 'POST', '/v0/project', 422, '{"name": "../../etc/passwd"}'],
    ['a 256-character project name', 'POST', '/v0/project', 422, JSON.stringify({ name: 'n'.repeat(256) })],
    ['a 257-character description', 'POST', '/v0/project', 422, JSON.stringify({ name: 'long-desc', description: 'd'.repeat(257) })],
    [
      'a row with 501 columns',
      'POST',
      '/v0/project/alpha/contexts/ctx/logs',
      422,
      JSON.stringify({ entries: [Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`c${i}`, i]))] }),
    ],
    ['deeply nested JSON (100 000 levels)', 'POST', '/v0/project', 422, `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['deeply nested row entries', 'POST', '/v0/project/alpha/contexts/ctx/logs', 422, `{"entries": [{"run": 5, "deep": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}]}`],
    ['a 20 MB JSON body', 'POST', '/v0/project', 413, JSON.stringify({ name: 'big', description: 'x'.repeat(20 * 1024 * 1024) })],
    ['an invalid e-mail in an invite', 'POST', '/v0/organizations/ORG/invites', 422, '{"email": "not-an-email"}'],
    ['expires_in_days of 0', 'POST', '/v0/organizations/ORG/invites', 422, '{"email": "x@example.com", "expires_in_days": 0}'],
    ['expires_in_days of 1.5', 'POST', '/v0/organizations/ORG/invites', 422, '{"email": "x@example.com", "expires_in_days": 1.5}'],
    ['an unknown role name', 'POST', '/v0/organizations/ORG/invites', 422, '{"email": "x@example.com", "role_name": "Emperor"}'],
    ['a rollback without a hash', 'POST', '/v0/project/alpha/contexts/ctx/rollback', 422, '{}'],
    ['a rollback to an unknown hash', 'POST', '/v0/project/alpha/contexts/ctx/rollback', 400, `{"commit_hash": "${'0'.repeat(64)}"}`],
    ['rows that are not objects', 'POST', '/v0/project/alpha/contexts/ctx/logs', 422, '{"entries": [1, 2]}'],
    ['zero rows', 'POST', '/v0/project/alpha/contexts/ctx/logs', 422, '{"entries": []}'],
    ['1001 rows', 'POST', '/v0/project/alpha/contexts/ctx/logs', 422, JSON.stringify({ entries: Array.from({ length: 1001 }, (_, i) => ({ run: 1000 + i })) })],
    ['a template that is not an object', 'POST', '/v0/tile/import_template', 422, '{"project": "alpha", "template": "nope"}'],
    ['a tile with a negative size', 'POST', '/v0/tab/TAB/tiles', 422, '{"name": "x", "position": {"x": 0, "y": 0, "width": -1, "height": 1}}'],
    ['a tile with NaN-like position', 'POST', '/v0/tab/TAB/tiles', 422, '{"name": "x", "position": {"x": "NaN", "y": 0, "width": 1, "height": 1}}'],
    ['business account without business info', 'POST', '/v0/user/create-with-business-info', 422, '{"account_type": "business"}'],
    ['an unknown account type', 'POST', '/v0/user/create-with-business-info', 422, '{"account_type": "alien"}'],
  ];

  it.each(bodies)('%s → %s %s → %i', async (_name, method, url, status, payload) => {
    const path = url.replace('ORG', String(w.orgId)).replace('TAB', w.tabId);
    const before = (await w.t.request('GET', '/v0/projects', { key: w.a.apiKey })).body;
    const res = await raw(method, path, { authorization: `Bearer ${w.a.apiKey}`, 'content-type': 'application/json' }, payload);
    wellFormed(res);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
    if (status === 422) {
      const detail = res.json().detail;
      expect(Array.isArray(detail) || typeof detail === 'string').toBe(true);
    }
    expect((await w.t.request('GET', '/v0/projects', { key: w.a.apiKey })).body).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  const contentTypes: [string, number, Record<string, string>, string][] = [
    ['text/plain body', 415, { 'content-type': 'text/plain' }, '{"name": "plain"}'],
    ['form-encoded body', 415, { 'content-type': 'application/x-www-form-urlencoded' }, 'name=form'],
    ['JSON in latin-1 bytes', 415, { 'content-type': 'application/json; charset=latin1' }, '{"name": "latin"}'],
    ['no content type at all', 415, {}, '{"name": "untyped"}'],
    // Multipart is parsed for the two upload routes only.
    ['a multipart form', 415, { 'content-type': 'multipart/form-data; boundary=b' }, '--b\r\ncontent-disposition: form-data; name="name"\r\n\r\nformed\r\n--b--\r\n'],
  ];
  it.each(contentTypes)('%s → %i, nothing created', async (_name, status, headers, payload) => {
    const res = await raw('POST', '/v0/project', { authorization: `Bearer ${w.a.apiKey}`, ...headers }, payload);
    wellFormed(res);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().detail).toMatch(/Send the body as application\/json/);
    expect((await w.t.request('GET', '/v0/projects', { key: w.a.apiKey })).json()).not.toContain(payload.slice(10, 15));
  });

  it('reports a field of the wrong type as a type error, and only a missing one as "Field required"', async () => {
    const wrong = await w.t.request('POST', '/v0/project', { key: w.a.apiKey, json: { name: 5 } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail).toEqual([{ type: 'string_type', loc: ['body', 'name'], msg: expect.not.stringMatching(/required/i) }]);
    const missing = await w.t.request('POST', '/v0/project', { key: w.a.apiKey, json: {} });
    expect(missing.json().detail).toEqual([{ type: 'missing', loc: ['body', 'name'], msg: 'Field required' }]);
  });

  it('treats names that differ only by Unicode normalisation as one name (stored as NFC)', async () => {
    const composed = 'Caf\u00e9 board';
    const decomposed = 'Cafe\u0301 board';
    const first = await w.t.request('POST', '/v0/project/alpha/interfaces', { key: w.a.apiKey, json: { name: decomposed } });
    expect(first.statusCode).toBe(201);
    expect(first.json().info.name).toBe(composed);
    expect((await w.t.request('POST', '/v0/project/alpha/interfaces', { key: w.a.apiKey, json: { name: composed } })).statusCode).toBe(409);
  });

  it('tolerates Content-Type: application/json on a GET and a DELETE without a body', async () => {
    const get = await raw('GET', '/v0/projects', { authorization: `Bearer ${w.a.apiKey}`, 'content-type': 'application/json' });
    expect(get.statusCode).toBe(200);
    const del = await raw('DELETE', '/v0/project/does-not-exist', { authorization: `Bearer ${w.a.apiKey}`, 'content-type': 'application/json' });
    expect(del.statusCode).toBe(404);
  });

  it('ignores unknown fields instead of storing them (no mass assignment)', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'mass', user_id: w.a.userId, organization_id: w.orgId, id: 1 } });
    expect(res.statusCode).toBe(200);
    expect((await t.request('GET', '/v0/project/mass', { key: u.apiKey })).statusCode).toBe(200);
  });
});

describe('paths and query strings', () => {
  const paths: [string, Method, string, number][] = [
    ['an encoded traversal in a project name', 'GET', '/v0/project/..%2F..%2Fetc/contexts', 404],
    ['a NUL in a path segment', 'GET', '/v0/project/al%00pha/contexts', 422],
    ['a malformed percent-encoding', 'GET', '/v0/project/%E0%A4%A/contexts', 400],
    ['a 600-character project name', 'GET', `/v0/project/${'p'.repeat(600)}/contexts`, 414],
    ['a non-numeric organization id', 'GET', '/v0/organizations/abc/members', 422],
    ['a negative organization id', 'GET', '/v0/organizations/-1/members', 422],
    ['2^53+1 as an organization id', 'GET', `/v0/organizations/${2 ** 53 + 1}/members`, 422],
    ['1e3 as an organization id', 'GET', '/v0/organizations/1e3/members', 422],
    ['a log id that is not a number', 'PATCH', '/v0/project/alpha/contexts/ctx/logs/abc', 422],
    ['an SQL wildcard prefix', 'GET', '/v0/project/alpha/contexts?prefix=%25', 200],
    ['a quote in the prefix', 'GET', "/v0/project/alpha/contexts?prefix='%20OR%201=1--", 200],
    ['a NUL in the prefix', 'GET', '/v0/project/alpha/contexts?prefix=%00', 422],
    ['a negative offset', 'GET', '/v0/project/alpha/contexts/ctx/logs?offset=-1', 422],
    ['a limit of a million', 'GET', '/v0/project/alpha/contexts/ctx/logs?limit=1000000', 422],
    ['a repeated query parameter', 'GET', '/v0/project/alpha/contexts?prefix=a&prefix=b', 422],
    ['an unknown route', 'GET', '/v0/nothing/here', 404],
    ['a wrong method', 'PATCH', '/v0/projects', 405],
    ['a tile id that is not a UUID', 'DELETE', '/v0/tile/not-a-uuid', 404],
    ['an invite token of garbage', 'GET', '/v0/invites/%3Cscript%3E', 404],
    ['a trailing slash', 'GET', '/v0/projects/', 200],
    ['a 9 000-character query string', 'GET', `/v0/projects?x=${'a'.repeat(9000)}`, 414],
    ['a 9 000-character path', 'GET', `/v0/${'a'.repeat(9000)}`, 414],
    ['a 9 000-character path with a wrong method', 'PATCH', `/v0/projects/${'a'.repeat(9000)}`, 414],
  ];
  it.each(paths)('%s → %s %s → %i', async (_name, method, url, status) => {
    const res = await raw(
      method,
      url,
      { authorization: `Bearer ${w.a.apiKey}`, ...(method === 'PATCH' ? { 'content-type': 'application/json' } : {}) },
      method === 'PATCH' ? '{"entries": {"run": 1}}' : undefined,
    );
    wellFormed(res);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
    if (status === 200 && url.includes('prefix')) expect(res.json()).toEqual([]);
  });
});

describe('concurrency: double submits', () => {
  it('two creates of the same project: one 200, one 400 "already exists", one row', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await Promise.all([1, 2, 3].map(() => t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'twin' } })));
    expect(res.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    expect((await t.request('GET', '/v0/projects', { key: u.apiKey })).json().filter((n: string) => n === 'twin')).toHaveLength(1);
  });

  it('two rows with the same unique key at once: one stored, one 409', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'p' } });
    await t.request('POST', '/v0/project/p/contexts', { key: u.apiKey, json: { name: 'c', unique_keys: { run: 'int' } } });
    const res = await Promise.all([1, 2].map(() => t.request('POST', '/v0/project/p/contexts/c/logs', { key: u.apiKey, json: { entries: [{ run: 7 }] } })));
    expect(res.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await t.request('GET', '/v0/project/p/contexts/c/logs', { key: u.apiKey })).json().count).toBe(1);
  });

  it('two commits at once make a chain, not a fork with a lost HEAD', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'p' } });
    await t.request('POST', '/v0/project/p/contexts', { key: u.apiKey, json: { name: 'c', is_versioned: true } });
    await t.request('POST', '/v0/project/p/contexts/c/logs', { key: u.apiKey, json: { entries: [{ v: 1 }] } });
    const res = await Promise.all([1, 2].map((i) => t.request('POST', '/v0/project/p/contexts/c/commit', { key: u.apiKey, json: { commit_message: `c${i}` } })));
    res.forEach(wellFormed);
    const commits = (await t.request('GET', '/v0/project/p/contexts/c/commits', { key: u.apiKey })).json();
    const list = commits.commits ?? commits;
    expect(list.filter((c: { is_head: boolean }) => c.is_head)).toHaveLength(1);
  });

  it('two organizations accepting one invite twice: one member, one 4xx', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const guest = await t.user({ email: 'guest@example.com' });
    const { organizationId } = await t.org(owner);
    const invite = (await t.request('POST', `/v0/organizations/${organizationId}/invites`, { key: owner.apiKey, json: { email: 'guest@example.com' } })).json();
    const token = invite.token;
    const res = await Promise.all([1, 2].map(() => t.request('POST', `/v0/invites/${token}/accept`, { key: guest.apiKey })));
    res.forEach(wellFormed);
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const members = (await t.request('GET', `/v0/organizations/${organizationId}/members`, { key: owner.apiKey })).json();
    expect(members.members ?? members).toHaveLength(2);
  });

  it('a spending limit set twice at once ends as one of the two values', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await Promise.all([3, 7].map((cap) => t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: { monthly_spending_cap: cap } })));
    res.forEach((r) => expect(r.statusCode).toBe(200));
    expect([3, 7]).toContain((await t.request('GET', '/v0/user/spending-limit', { key: u.apiKey })).json().monthly_spending_cap);
  });
});

describe('uploads', () => {
  const png = PNG;
  const upload = (url: string, body: { headers: Record<string, string>; payload: Buffer | NodeJS.ReadableStream }) =>
    w.t.request('POST', url, { key: w.a.apiKey, headers: body.headers, payload: body.payload as Buffer });
  const photo = (content: Buffer, filename = 'me.png', contentType = 'image/png') => multipart({}, { filename, contentType, content });
  const stored = () => fs.readdirSync(path.join(w.t.dataDir, 'files', 'photos')).length;

  const refused: [string, number, () => { headers: Record<string, string>; payload: Buffer | NodeJS.ReadableStream }][] = [
    ['a zero-byte photo', 422, () => photo(Buffer.alloc(0))],
    ['text named .png', 415, () => photo(Buffer.from('just some text, not an image at all'))],
    ['HTML named .png with an image content type', 415, () => photo(Buffer.from('<!doctype html><script>alert(1)</script>'), 'x.png')],
    ['an SVG (script-capable) photo', 415, () => photo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg', 'image/svg+xml')],
    ['a photo truncated to its first 4 bytes', 415, () => photo(png.subarray(0, 4))],
    ['a photo cut off after its header (sniffs as PNG, does not decode)', 422, () => photo(png.subarray(0, 40))],
    ['a decompression bomb (1 KB PNG declaring 100000×100000 pixels)', 422, () => photo(pngBomb(100_000, 100_000))],
    ['a PNG declaring the largest dimensions PNG allows', 422, () => photo(pngBomb(0x7fffffff, 0x7fffffff))],
    [
      'a multipart body cut off mid-file',
      400,
      () => {
        const full = photo(png);
        const payload = full.payload as Buffer;
        return { headers: full.headers, payload: payload.subarray(0, payload.length - 30) };
      },
    ],
    ['a multipart body without any file part', 422, () => multipart({ assistant_id: '1' })],
    [
      'a multipart boundary of 300 characters',
      400,
      () => {
        const b = 'x'.repeat(300);
        const payload = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc\r\n--${b}--\r\n`);
        return { headers: { 'content-type': `multipart/form-data; boundary=${b}` }, payload };
      },
    ],
    [
      'a multipart body with a bogus boundary',
      400,
      () => ({ headers: { 'content-type': 'multipart/form-data; boundary=nothing-matches' }, payload: photo(png).payload }),
    ],
    ['multipart without a boundary parameter', 400, () => ({ headers: { 'content-type': 'multipart/form-data' }, payload: photo(png).payload })],
    ['JSON sent to the upload endpoint', 422, () => ({ headers: { 'content-type': 'application/json' }, payload: Buffer.from('{"file":"iVBORw0KGgo="}') })],
    ['a WAV sent as a photo', 415, () => photo(WAV, 'voice.png')],
    ['an assistant id that is not a number', 422, () => multipart({ assistant_id: '1 OR 1=1' }, { filename: 'me.png', contentType: 'image/png', content: png })],
    ['another tenant’s assistant id', 404, () => multipart({ assistant_id: '999999' }, { filename: 'me.png', contentType: 'image/png', content: png })],
  ];
  it.each(refused)('%s → %i, nothing stored', async (_name, status, body) => {
    const before = fs.existsSync(path.join(w.t.dataDir, 'files', 'photos')) ? stored() : 0;
    const res = await upload('/v0/assistant/photo/upload', body());
    wellFormed(res);
    expect(res.statusCode, res.body).toBe(status);
    expect(fs.existsSync(path.join(w.t.dataDir, 'files', 'photos')) ? stored() : 0).toBe(before);
    expect(fs.readdirSync(path.join(w.t.dataDir, 'files', '.tmp'))).toEqual([]);
  });

  it('a traversal file name is ignored: the file gets a random name under photos/', async () => {
    const res = await upload('/v0/assistant/photo/upload', photo(png, '../../../../etc/passwd.png'));
    expect(res.statusCode, res.body).toBe(201);
    expect(new URL(res.json().info.url).pathname).toMatch(/^\/v0\/files\/photos\/[\w-]{8,80}\.png$/);
    expect(fs.existsSync(path.join(w.t.dataDir, 'etc'))).toBe(false);
  });

  it('a PNG/HTML/ZIP polyglot is stored re-encoded without its tail and served only as a sandboxed image', async () => {
    const polyglot = Buffer.concat([png, Buffer.from('<html><script>alert(document.cookie)</script></html>PK\x03\x04evil.js')]);
    const res = await upload('/v0/assistant/photo/upload', photo(polyglot, 'poly.html', 'text/html'));
    expect(res.statusCode, res.body).toBe(201);
    const file = await w.t.request('GET', new URL(res.json().info.url).pathname);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.rawPayload.includes('<script')).toBe(false);
    expect(file.rawPayload.includes('PK\x03\x04')).toBe(false);
  });

  it('the same photo uploaded twice at once makes two independent files', async () => {
    const res = await Promise.all([1, 2].map(() => upload('/v0/assistant/photo/upload', photo(png))));
    expect(res.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(res[0]!.json().info.url).not.toBe(res[1]!.json().info.url);
  });

  it('a voice clone with a zero-byte sample, a text sample or no name → 4xx and nothing kept', async () => {
    const voices = async () => (await w.t.request('GET', '/v0/assistant/voice', { key: w.a.apiKey })).json();
    const before = JSON.stringify(await voices());
    for (const [fields, content, status] of [
      [{ name: 'Empty' }, Buffer.alloc(0), 422],
      [{ name: 'Text' }, Buffer.from('not audio, just text'), 415],
      [{}, WAV, 422],
      [{ name: 'x'.repeat(10_000) }, WAV, 422],
    ] as const) {
      const body = multipart(fields as Record<string, string>, { filename: 'sample.wav', contentType: 'audio/wav', content });
      const res = await upload('/v0/assistant/voice/clone', body);
      wellFormed(res);
      expect(res.statusCode, `${JSON.stringify(fields).slice(0, 40)}: ${res.body}`).toBe(status);
    }
    expect(JSON.stringify(await voices())).toBe(before);
  });
});
