import type { FastifyReply } from 'fastify';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../shared/roles.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/types.ts';
import { multipart, PNG, WAV } from '../modules/assistants/test-helpers.ts';
import { addCredits, accountOf, toMicros } from '../modules/credits/repository.ts';
import { makeTestApp, type TestApp } from '../testing/harness.ts';
import { IN_FLIGHT_LEASE_MS, IdempotentRequest, KEY_LIFETIME_MS } from './idempotency.ts';

// Every side-effecting POST of issue 8 against a real database (SQLite here; PostgreSQL with
// TEST_DATABASE_URL): replay, reuse with another body, concurrency, per-caller keys, expiry, bad keys.

type Res = Awaited<ReturnType<TestApp['request']>>;
type Variant = 'a' | 'b';

interface Subject {
  /** Sends variant `v` of the request as caller 0 or 1 (each allowed to make it). */
  send(caller: 0 | 1, v: Variant, headers?: Record<string, string>): Promise<Res>;
  /** How many times the side effect has happened. */
  effects(): Promise<number>;
}

interface Case {
  name: string;
  status: number;
  setup(t: TestApp): Promise<Subject>;
}

/** Any table, any column: `count` takes the table by name, so its columns cannot be checked. */
type Untyped = Record<string, Record<string, unknown>>;

async function count(t: TestApp, table: keyof Database, where?: (eb: ExpressionBuilder<Untyped, string>) => Expression<SqlBool>): Promise<number> {
  let query = (t.db as unknown as Kysely<Untyped>).selectFrom(table).select(sql<number>`count(*)`.as('n'));
  if (where) query = query.where(where);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

async function ok(res: Res, status = 200) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
}

const withKey = (key: string) => ({ 'idempotency-key': key });

const cases: Case[] = [
  {
    name: 'POST /v0/assistant (create assistant)',
    status: 200,
    async setup(t) {
      const users = [await t.user({ credits: 50 }), await t.user({ credits: 50 })];
      const bodies = { a: { first_name: 'Ada' }, b: { first_name: 'Bob' } };
      return {
        send: (c, v, headers) => t.request('POST', '/v0/assistant', { key: users[c].apiKey, json: bodies[v], headers }),
        effects: () => count(t, 'credit_ledger', (eb) => eb('reason', '=', 'assistant_create')),
      };
    },
  },
  {
    name: 'POST /v0/assistant/photo/upload (multipart)',
    status: 201,
    async setup(t) {
      const users = [await t.user(), await t.user()];
      const files = { a: PNG, b: Buffer.concat([PNG, Buffer.from('other bytes')]) };
      return {
        send: (c, v, headers) => {
          const body = multipart({}, { filename: 'me.png', contentType: 'image/png', content: files[v] });
          return t.request('POST', '/v0/assistant/photo/upload', { key: users[c].apiKey, headers: { ...body.headers, ...headers }, payload: body.payload });
        },
        effects: () => count(t, 'stored_files', (eb) => eb('kind', '=', 'photo')),
      };
    },
  },
  {
    name: 'POST /v0/assistant/voice/clone (multipart)',
    status: 201,
    async setup(t) {
      const users = [await t.user(), await t.user()];
      return {
        send: (c, v, headers) => {
          const body = multipart({ name: v === 'a' ? 'Voice A' : 'Voice B' }, { filename: 'sample.wav', contentType: 'audio/wav', content: WAV });
          return t.request('POST', '/v0/assistant/voice/clone', { key: users[c].apiKey, headers: { ...body.headers, ...headers }, payload: body.payload });
        },
        effects: () => count(t, 'voices'),
      };
    },
  },
  {
    name: 'POST /v0/organizations/{id}/invites (invite, sends a mail)',
    status: 201,
    async setup(t) {
      const owner = await t.user();
      const admin = await t.user();
      const { organizationId } = await t.org(owner);
      await t.member(organizationId, admin, ROLE_IDS.Admin);
      const users = [owner, admin];
      return {
        send: (c, v, headers) =>
          t.request('POST', `/v0/organizations/${organizationId}/invites`, { key: users[c].apiKey, json: { email: `invitee-${v}@example.com` }, headers }),
        effects: () => count(t, 'mail_outbox'),
      };
    },
  },
  {
    name: 'POST /v0/organizations/{id}/members (add member, creates a key)',
    status: 201,
    async setup(t) {
      const owner = await t.user();
      const admin = await t.user();
      const targets = { a: await t.user(), b: await t.user() };
      const { organizationId } = await t.org(owner);
      await t.member(organizationId, admin, ROLE_IDS.Admin);
      const users = [owner, admin];
      return {
        send: (c, v, headers) =>
          t.request('POST', `/v0/organizations/${organizationId}/members`, { key: users[c].apiKey, json: { user_id: targets[v].userId }, headers }),
        effects: () => count(t, 'api_keys', (eb) => eb('kind', '=', 'organization')),
      };
    },
  },
  {
    name: 'POST /v0/user/create-with-business-info (create user)',
    status: 200,
    async setup(t) {
      // Creating accounts for others is for instance administrators: both callers are.
      const users = [await t.user({ admin: true }), await t.user({ admin: true })];
      const bodies = {
        a: { account_type: 'individual', email: 'created-a@example.com', name: 'Ann' },
        b: {
          account_type: 'business',
          email: 'created-b@example.com',
          business_info: { business_name: 'B Ltd', business_type: 'llc', business_address: { address_line1: '1 Main St', city: 'Springfield', country: 'US' } },
        },
      };
      return {
        send: (c, v, headers) => t.request('POST', '/v0/user/create-with-business-info', { key: users[c].apiKey, json: bodies[v], headers }),
        effects: () => count(t, 'users', (eb) => eb('email', 'like', 'created-%')),
      };
    },
  },
  {
    name: 'POST /v0/project/{p}/contexts/{c}/rollback (roll back, auto-saves pending rows)',
    status: 200,
    async setup(t) {
      const callers: { call: (url: string, json: unknown, headers?: Record<string, string>) => Promise<Res>; commits: Record<Variant, string> }[] = [];
      for (let i = 0; i < 2; i++) {
        const u = await t.user();
        const call = (url: string, json: unknown, headers?: Record<string, string>) => t.request('POST', url, { key: u.apiKey, json, headers });
        await ok(await call('/v0/project', { name: 'demo' }));
        await ok(await call('/v0/project/demo/contexts', { name: 'runs', is_versioned: true }));
        const commits: Record<Variant, string> = { a: '', b: '' };
        for (const v of ['a', 'b'] as const) {
          await ok(await call('/v0/project/demo/contexts/runs/logs', { entries: [{ v }] }));
          commits[v] = (await ok(await call('/v0/project/demo/contexts/runs/commit', { commit_message: v }))).commit_hash;
        }
        callers.push({ call, commits });
      }
      return {
        // A pending row first: each real rollback then auto-saves it, a commit we can count.
        async send(c, v, headers) {
          await ok(await callers[c].call('/v0/project/demo/contexts/runs/logs', { entries: [{ v: 'pending' }] }));
          return callers[c].call('/v0/project/demo/contexts/runs/rollback', { commit_hash: callers[c].commits[v] }, headers);
        },
        effects: () => count(t, 'commits', (eb) => eb('message', 'like', 'Auto-saved before rollback%')),
      };
    },
  },
  {
    name: 'POST /v0/tile/import_template (import a tile)',
    status: 200,
    async setup(t) {
      const callers: { key: string; tabId: string }[] = [];
      for (let i = 0; i < 2; i++) {
        const u = await t.user();
        const call = (url: string, json: unknown, status = 200) => t.request('POST', url, { key: u.apiKey, json }).then((r) => ok(r, status));
        await call('/v0/project', { name: 'demo' });
        await call('/v0/project/demo/contexts', { name: 'Tasks' });
        await call('/v0/project/demo/contexts/Tasks/logs', { entries: [{ title: 'Write', status: 'open' }] });
        const iface = (await call('/v0/project/demo/interfaces', { name: 'Main' }, 201)).info;
        const tab = (await call(`/v0/interface/${iface.id}/tabs`, { name: 'Overview' }, 201)).info;
        callers.push({ key: u.apiKey, tabId: tab.id as string });
      }
      const template = (name: string) => ({
        name,
        type: 'Table',
        position: { x: 0, y: 0, width: 6, height: 4 },
        context: 'Tasks',
        table_tile: { table_type: 'default', column_order: ['status', 'title'] },
        template_version: '1.0',
        description: null,
        tags: [],
      });
      return {
        send: (c, v, headers) =>
          t.request('POST', '/v0/tile/import_template', {
            key: callers[c].key,
            json: { project: 'demo', tab_id: callers[c].tabId, template: template(`Imported ${v}`) },
            headers,
          }),
        effects: () => count(t, 'tiles'),
      };
    },
  },
];

describe.each(cases)('Idempotency-Key on $name', ({ status, setup: prepare }) => {
  /** The subject, with effects counted from zero (fixtures may have made some: starter tiles, owner keys). */
  async function setup(t: TestApp): Promise<Subject> {
    const s = await prepare(t);
    const base = await s.effects();
    return { send: s.send, effects: async () => (await s.effects()) - base };
  }

  it('replays the first response byte for byte, marked Idempotent-Replayed, and acts once', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const first = await s.send(0, 'a', withKey('key-1'));
    expect(first.statusCode, first.body).toBe(status);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await s.effects()).toBe(1);
    const again = await s.send(0, 'a', withKey('key-1'));
    expect(again.statusCode).toBe(status);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await s.effects()).toBe(1);
  });

  it('the same key with a different body → 422 naming the header, nothing done', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    expect((await s.send(0, 'a', withKey('key-1'))).statusCode).toBe(status);
    const other = await s.send(0, 'b', withKey('key-1'));
    expect(other.statusCode).toBe(422);
    expect(other.json().detail).toEqual([
      expect.objectContaining({ type: 'idempotency_key_reused', loc: ['header', 'Idempotency-Key'], msg: expect.stringContaining('different request') }),
    ]);
    expect(await s.effects()).toBe(1);
    // A new key for the new request works.
    expect((await s.send(0, 'b', withKey('key-2'))).statusCode).toBe(status);
    expect(await s.effects()).toBe(2);
  });

  it('two concurrent requests with one key: one acts, the other gets 409 + Retry-After or the replay', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const both = await Promise.all([s.send(0, 'a', withKey('same')), s.send(0, 'a', withKey('same'))]);
    const done = both.filter((r) => r.statusCode === status);
    const busy = both.filter((r) => r.statusCode === 409);
    expect(done.length + busy.length, both.map((r) => r.body).join('\n')).toBe(2);
    expect(done.length).toBeGreaterThanOrEqual(1);
    for (const r of busy) {
      expect(r.headers['retry-after']).toBe('1');
      expect(r.json().detail).toContain('still in progress');
    }
    if (done.length === 2) expect(done[0].body).toBe(done[1].body);
    expect(await s.effects()).toBe(1);
    const later = await s.send(0, 'a', withKey('same'));
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.body).toBe(done[0].body);
    expect(await s.effects()).toBe(1);
  });

  it('keys are per caller: another user’s request with the same key is independent', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    expect((await s.send(0, 'a', withKey('shared-key'))).statusCode).toBe(status);
    const theirs = await s.send(1, 'b', withKey('shared-key'));
    expect(theirs.statusCode, theirs.body).toBe(status);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await s.effects()).toBe(2);
  });

  it('an expired key is free again: the request runs anew', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    expect((await s.send(0, 'a', withKey('old-key'))).statusCode).toBe(status);
    // Relative to the app's clock, which stands still: the real one may be seconds ahead under load.
    const now = t.clock.now().getTime();
    const past = new Date(now - KEY_LIFETIME_MS - 1000).toISOString();
    await t.db
      .updateTable('idempotency_keys')
      .set({ created_at: past, claimed_at: past, expires_at: new Date(now - 1000).toISOString() })
      .execute();
    const fresh = await s.send(0, 'b', withKey('old-key'));
    expect(fresh.statusCode, fresh.body).toBe(status);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await s.effects()).toBe(2);
    // …and is then held for the new request.
    expect((await s.send(0, 'b', withKey('old-key'))).headers['idempotent-replayed']).toBe('true');
    expect(await count(t, 'idempotency_keys')).toBe(1);
  });

  it('a malformed key → 422 on the header, nothing done; no key → no record', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    for (const bad of ['x'.repeat(256), 'naïve']) {
      const res = await s.send(0, 'a', withKey(bad));
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual([expect.objectContaining({ loc: ['header', 'Idempotency-Key'], msg: expect.stringContaining('1–255 printable ASCII') })]);
    }
    expect(await s.effects()).toBe(0);
    expect((await s.send(0, 'a', withKey('x'.repeat(255)))).statusCode).toBe(status);
    expect((await s.send(0, 'b')).statusCode).toBe(status);
    expect(await s.effects()).toBe(2);
    expect(await count(t, 'idempotency_keys')).toBe(1);
  });
});

describe('Idempotency-Key details', () => {
  it('an error is not stored: after 402 the same key works once credits are there, and charges once', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 5 });
    const send = () => t.request('POST', '/v0/assistant', { key: u.apiKey, json: { first_name: 'Ada' }, headers: withKey('hire-ada') });
    expect((await send()).statusCode).toBe(402);
    expect(await count(t, 'idempotency_keys')).toBe(0);
    const account = await accountOf(t.db, { userId: u.userId, organizationId: null });
    await addCredits(t.db, account.id, toMicros(20), 'test', null, t.clock.now());
    const hired = await send();
    expect(hired.statusCode, hired.body).toBe(200);
    expect((await send()).body).toBe(hired.body);
    expect((await t.request('GET', '/v0/credits', { key: u.apiKey })).json().credits).toBe(15);
  });

  it('the same key and body by another user creates their own assistant, never a copy of the first', async () => {
    const t = await makeTestApp();
    const [a, b] = [await t.user(), await t.user()];
    const mine = await ok(await t.request('POST', '/v0/assistant', { key: a.apiKey, json: { first_name: 'Ada' }, headers: withKey('k') }));
    const theirs = await ok(await t.request('POST', '/v0/assistant', { key: b.apiKey, json: { first_name: 'Ada' }, headers: withKey('k') }));
    expect(theirs.info.user_id).toBe(b.userId);
    expect(theirs.info.agent_id).not.toBe(mine.info.agent_id);
  });

  it('a personal and an organization key of one user keep separate keys (different scopes)', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const { organizationId, ownerKey } = await t.org(u);
    const orgAccount = await accountOf(t.db, { userId: u.userId, organizationId });
    await addCredits(t.db, orgAccount.id, toMicros(50), 'test', null, t.clock.now());
    const personal = await ok(await t.request('POST', '/v0/assistant', { key: u.apiKey, json: {}, headers: withKey('k') }));
    const org = await ok(await t.request('POST', '/v0/assistant', { key: ownerKey, json: {}, headers: withKey('k') }));
    expect(personal.info.organization_id).toBeNull();
    expect(org.info.organization_id).toBe(organizationId);
  });

  it('key order in the JSON body does not matter; the same key on another operation is independent', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const first = await t.request('POST', '/v0/assistant', { key: u.apiKey, json: { first_name: 'Ada', surname: 'L' }, headers: withKey('k') });
    const reordered = await t.request('POST', '/v0/assistant', { key: u.apiKey, json: { surname: 'L', first_name: 'Ada' }, headers: withKey('k') });
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.body).toBe(first.body);
    const voice = multipart({ name: 'V' }, { filename: 's.wav', contentType: 'audio/wav', content: WAV });
    const clone = await t.request('POST', '/v0/assistant/voice/clone', { key: u.apiKey, headers: { ...voice.headers, ...withKey('k') }, payload: voice.payload });
    expect(clone.statusCode).toBe(201);
  });

  it('uploads: the fingerprint is the content, not the boundary or file name; other bytes → 422', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const upload = (payload: Buffer, contentType: string) =>
      t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: { 'content-type': contentType, ...withKey('photo') }, payload });
    const part = (boundary: string, filename: string, bytes: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const first = await upload(part('AAA', 'one.png', PNG), 'multipart/form-data; boundary=AAA');
    expect(first.statusCode).toBe(201);
    const retry = await upload(part('BBBB', 'renamed.png', PNG), 'multipart/form-data; boundary=BBBB');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    const other = await upload(part('AAA', 'one.png', Buffer.concat([PNG, Buffer.from([0])])), 'multipart/form-data; boundary=AAA');
    expect(other.statusCode).toBe(422);
    expect(await count(t, 'stored_files')).toBe(1);
  });

  it('in flight → 409; a claim abandoned past its lease (a crashed server) is taken over', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const send = () => t.request('POST', '/v0/assistant', { key: u.apiKey, json: { first_name: 'Ada' }, headers: withKey('k') });
    // A claim left behind by a server that died before committing its effect.
    await ok(await send());
    await t.db.deleteFrom('assistants').execute();
    await t.db.updateTable('idempotency_keys').set({ state: 'in_flight', status: null, response: null }).execute();
    const busy = await send();
    expect(busy.statusCode).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    t.clock.advance(IN_FLIGHT_LEASE_MS + 1000);
    const taken = await send();
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(t, 'assistants')).toBe(1);
  });

  it('a request that outlived its lease cannot record: its transaction rolls back, the taker’s effect stays', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const principal = { userId: u.userId, organizationId: null } as Principal;
    const reply = {} as FastifyReply; // only used to send replays, which do not happen here
    const slow = new IdempotentRequest(t.app.deps, reply, 200, principal, 'op', 'k');
    expect(await slow.acquire('fp')).toBeNull();
    t.clock.advance(IN_FLIGHT_LEASE_MS + 1000);
    const taker = new IdempotentRequest(t.app.deps, reply, 200, principal, 'op', 'k');
    expect(await taker.acquire('fp')).toBeNull();
    const effect = (who: IdempotentRequest, name: string) =>
      who.transaction(t.db, async (tx) => {
        await tx.updateTable('users').set({ first_name: name }).where('id', '=', u.userId).execute();
        return { name };
      });
    await expect(effect(slow, 'slow')).rejects.toMatchObject({ status: 409 });
    await effect(taker, 'taker');
    await slow.release(); // must not drop the taker's completed row
    const user = await t.db.selectFrom('users').select('first_name').where('id', '=', u.userId).executeTakeFirstOrThrow();
    expect(user.first_name).toBe('taker');
    const again = new IdempotentRequest(t.app.deps, reply, 200, principal, 'op', 'k');
    expect(await again.acquire('fp')).toEqual({ status: 200, body: '{"name":"taker"}' });
  });

  it('stored responses holding secrets (new keys) are sealed: the raw key is not in the table', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const created = await ok(
      await t.request('POST', '/v0/user/create-with-business-info', {
        key: u.apiKey,
        json: { account_type: 'individual', email: 'new@example.com' },
        headers: withKey('secret-key'),
      }),
    );
    expect(created.api_key).toMatch(/^rk_/);
    const rows = await t.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(created.api_key);
    expect(JSON.stringify(rows)).not.toContain('secret-key');
    expect(rows[0]).toMatchObject({ state: 'done', status: 200 });
  });

  it('expired rows are cleaned up lazily by later requests', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    for (const k of ['k1', 'k2']) await ok(await t.request('POST', '/v0/assistant', { key: u.apiKey, json: {}, headers: withKey(k) }));
    t.clock.advance(KEY_LIFETIME_MS + 1000);
    await ok(await t.request('POST', '/v0/assistant', { key: u.apiKey, json: {}, headers: withKey('k3') }));
    expect(await count(t, 'idempotency_keys')).toBe(1);
  });

  it('a repeated header → 422; OpenAPI documents the header on exactly the idempotent operations', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    // Two Idempotency-Key header lines.
    const res = await t.app.inject({
      method: 'POST',
      url: '/v0/assistant',
      headers: { authorization: `Bearer ${u.apiKey}`, 'idempotency-key': ['a', 'b'] },
      payload: {},
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].msg).toContain('Send one Idempotency-Key header');
    const doc = (await t.request('GET', '/v0/openapi.json')).json();
    const documented: string[] = [];
    type DocumentedOperation = { operationId: string; parameters: { in: string; name: string }[]; responses: Record<string, unknown> };
    for (const ops of Object.values(doc.paths) as Record<string, DocumentedOperation>[]) {
      for (const op of Object.values(ops)) {
        if (op.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
          documented.push(op.operationId);
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['409', '422']));
        }
      }
    }
    expect(documented.sort()).toEqual(
      [
        'addMember',
        'cloneVoice',
        'createAssistant',
        'createUserWithBusinessInfo',
        'deductCredits',
        'importTileTemplate',
        'inviteUser',
        'rollbackContext',
        'rollbackProject',
        'uploadAssistantPhoto',
      ].sort(),
    );
  });
});
