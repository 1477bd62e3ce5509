import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { PHOTO_MAX_BYTES } from '../../../shared/assistants.ts';
import { makeTestApp, type TestApp, type TestUser } from '../../testing/harness.ts';
import { accountOf, addCredits, toMicros } from '../credits/repository.ts';
import { multipart, PNG, WAV, zeros } from './test-helpers.ts';

async function create(t: TestApp, key: string, json: object = {}) {
  return t.request('POST', '/v0/assistant', { key, json });
}
async function balance(t: TestApp, key: string) {
  return (await t.request('GET', '/v0/credits', { key })).json().credits as number;
}
async function uploadPhoto(t: TestApp, key: string, content: Buffer, fields: Record<string, string> = {}, filename = 'me.png') {
  const body = multipart(fields, { filename, contentType: 'image/png', content });
  return t.request('POST', '/v0/assistant/photo/upload', { key, headers: body.headers, payload: body.payload });
}
async function cloneVoice(t: TestApp, key: string, fields: Record<string, string> = { name: 'My voice' }, content: Buffer = WAV) {
  const body = multipart(fields, { filename: 'sample.wav', contentType: 'audio/wav', content });
  return t.request('POST', '/v0/assistant/voice/clone', { key, headers: body.headers, payload: body.payload });
}
const tempFiles = (t: TestApp) => fs.readdirSync(path.join(t.dataDir, 'files', '.tmp'));

describe('assistants: create and credits', () => {
  it('creates with every field present, defaults, allocated infrastructure, and charges the user', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 50 });
    const res = await create(t, u.apiKey, {
      first_name: ' Ada ',
      surname: 'Lovelace',
      age: 36,
      weekly_limit: 37.5,
      max_parallel: 3,
      about: 'Analyst',
      timezone: 'Europe/London',
      pre_hire_chat: [
        { role: 'user', msg: 'Hi' },
        { role: 'assistant', msg: 'Hello' },
      ],
      unknown_field: 'ignored',
    });
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({
      agent_id: expect.stringMatching(/^\d+$/),
      first_name: 'Ada',
      surname: 'Lovelace',
      age: 36,
      weekly_limit: 37.5,
      max_parallel: 3,
      country: 'US',
      timezone: 'Europe/London',
      voice_id: null,
      voice_provider: null,
      create_infra: true,
      email: `ada.lovelace-${info.agent_id}@assistants.roster.local`,
      phone: expect.stringMatching(/^\+1\d{3}55501\d{2}$/),
      phone_country: 'US',
      monthly_spending_cap: null,
      user_id: u.userId,
      organization_id: null,
      pre_hire_chat: [
        { role: 'user', msg: 'Hi' },
        { role: 'assistant', msg: 'Hello' },
      ],
    });
    expect(info).not.toHaveProperty('unknown_field');
    expect(Object.keys(info)).toHaveLength(34);
    expect(await balance(t, u.apiKey)).toBe(40);
    const ledger = await t.db.selectFrom('credit_ledger').selectAll().where('reason', '=', 'assistant_create').execute();
    expect(ledger).toEqual([expect.objectContaining({ delta_micros: -toMicros(10), reference: `assistant:${info.agent_id}` })]);

    const noInfra = (await create(t, u.apiKey, { create_infra: false, phone: '+1 555 0100' })).json().info;
    expect(noInfra).toMatchObject({ email: null, phone: '+1 555 0100', create_infra: false });
    expect((await t.request('GET', '/v0/assistant', { key: u.apiKey })).json().info.map((a: { agent_id: string }) => a.agent_id)).toEqual([
      noInfra.agent_id,
      info.agent_id,
    ]);
    expect((await t.request('GET', `/v0/assistant/${info.agent_id}`, { key: u.apiKey })).json().info).toEqual(info);
  });

  it('gives the assistant a fictional number of its country where one is known, a US one elsewhere', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 100 });
    const hire = async (country: string) => (await create(t, u.apiKey, { first_name: 'Ada', country })).json().info;
    expect(await hire('GB')).toMatchObject({ country: 'GB', phone: expect.stringMatching(/^\+447700900\d{3}$/), phone_country: 'GB' });
    expect(await hire('CA')).toMatchObject({ country: 'CA', phone: expect.stringMatching(/^\+1(416|514|604)55501\d{2}$/), phone_country: 'CA' });
    expect(await hire('DE')).toMatchObject({ country: 'DE', phone: expect.stringMatching(/^\+1\d{3}55501\d{2}$/), phone_country: 'US' });
  });

  it('short of credits → 402 and nothing written', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 9 });
    const res = await create(t, u.apiKey, { first_name: 'Ada' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ detail: 'Insufficient credits to create an assistant.' });
    expect(await t.db.selectFrom('assistants').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('credit_ledger').selectAll().where('reason', '=', 'assistant_create').execute()).toEqual([]);
    expect(await balance(t, u.apiKey)).toBe(9);
  });

  it('50 concurrent creates with credits for exactly 10 → exactly 10 created and balance 0', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 100 });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => create(t, u.apiKey, { first_name: `A${i}` })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 402)).toHaveLength(40);
    expect(await balance(t, u.apiKey)).toBe(0);
    expect(await t.db.selectFrom('assistants').selectAll().execute()).toHaveLength(10);
    expect(await t.db.selectFrom('credit_ledger').selectAll().where('reason', '=', 'assistant_create').execute()).toHaveLength(10);
  });

  it('an org key charges the organization and needs assistant:write; workspaces stay apart', async () => {
    const t = await makeTestApp();
    const owner = await t.user({ credits: 50 });
    const org = await t.org(owner);
    const account = await accountOf(t.db, { userId: owner.userId, organizationId: org.organizationId });
    expect((await create(t, org.ownerKey)).statusCode).toBe(402);
    await addCredits(t.db, account.id, toMicros(25), 'test', null, new Date());
    const res = await create(t, org.ownerKey, { first_name: 'Orgy' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toMatchObject({ organization_id: org.organizationId, user_id: owner.userId });
    expect(await balance(t, org.ownerKey)).toBe(15);
    expect(await balance(t, owner.apiKey)).toBe(50);
    // Personal workspace does not see it; org members do; a viewer may read but not create.
    expect((await t.request('GET', '/v0/assistant', { key: owner.apiKey })).json().info).toEqual([]);
    const viewer = await t.user();
    const viewerKey = await t.member(org.organizationId, viewer, ROLE_IDS.Viewer);
    expect((await t.request('GET', '/v0/assistant', { key: viewerKey })).json().info).toHaveLength(1);
    const denied = await create(t, viewerKey);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe(`Missing permission assistant:write in organization ${org.organizationId}.`);
    const memberUser = await t.user();
    const memberKey = await t.member(org.organizationId, memberUser, ROLE_IDS.Member);
    expect((await create(t, memberKey)).statusCode).toBe(200);
    expect(await balance(t, org.ownerKey)).toBe(5);
    // Deleting needs assistant:delete (Admin/Owner), not Member.
    const id = res.json().info.agent_id;
    expect((await t.request('DELETE', `/v0/assistant/${id}`, { key: memberKey })).statusCode).toBe(403);
    expect((await t.request('DELETE', `/v0/assistant/${id}`, { key: org.ownerKey })).json()).toEqual({ info: 'Assistant deleted successfully.' });
    expect((await t.request('DELETE', `/v0/assistant/${id}`, { key: org.ownerKey })).statusCode).toBe(404);
  });

  it('every bound of §2 → 422 naming the field', async () => {
    const t = await makeTestApp();
    const u = await t.user({ credits: 1000 });
    const cases: [object, string][] = [
      [{ age: 151 }, 'age'],
      [{ age: -1 }, 'age'],
      [{ age: 3.5 }, 'age'],
      [{ weekly_limit: 168.5 }, 'weekly_limit'],
      [{ weekly_limit: -1 }, 'weekly_limit'],
      [{ max_parallel: 0 }, 'max_parallel'],
      [{ max_parallel: 1001 }, 'max_parallel'],
      [{ country: 'XX' }, 'country'],
      [{ country: 'USA' }, 'country'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ timezone: 'PST' }, 'timezone'],
      [{ country: 'DD' }, 'country'],
      [{ email: 'not-an-email' }, 'email'],
      [{ user_local_desktop: 'beos' }, 'user_local_desktop'],
      [{ pre_hire_chat: [{ role: 'bot', msg: 'x' }] }, 'pre_hire_chat'],
      [{ profile_photo: 'ftp://example.com/a.png' }, 'profile_photo'],
      [{ desktop_url: 'javascript:alert(1)' }, 'desktop_url'],
      [{ voice_provider: 'acme' }, 'voice_provider'],
      [{ voice_id: 'no-such-voice' }, 'voice_id'],
      [{ first_name: 'a\u0000b' }, 'first_name'],
      [{ create_infra: 'yes' }, 'create_infra'],
    ];
    for (const [body, field] of cases) {
      const res = await create(t, u.apiKey, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail[0].loc.slice(0, 2), JSON.stringify(body)).toEqual(['body', field]);
    }
    // Limits inclusive; null means "not given".
    const ok = await create(t, u.apiKey, { age: 0, weekly_limit: 168, max_parallel: 1000, country: 'de', first_name: null });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().info).toMatchObject({ age: 0, weekly_limit: 168, max_parallel: 1000, country: 'DE', first_name: null });
    expect(await t.db.selectFrom('assistants').selectAll().execute()).toHaveLength(1);
    expect(await balance(t, u.apiKey)).toBe(990);
  });

  it('blank form values (empty strings, NaN) mean "not given" on create', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await create(t, u.apiKey, { first_name: '', about: '   ', email: '', country: '', timezone: '', voice_id: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toMatchObject({ first_name: null, about: null, country: 'US', timezone: null, voice_id: null });
  });

  it('pricing tells the cost before hiring', async () => {
    const t = await makeTestApp({ assistantCost: 7 });
    const u = await t.user();
    expect((await t.request('GET', '/v0/assistant/pricing', { key: u.apiKey })).json()).toEqual({ assistant_cost: 7 });
    expect((await t.request('GET', '/v0/assistant/pricing')).statusCode).toBe(401);
  });
});

describe('assistants: PATCH config', () => {
  async function setup() {
    const t = await makeTestApp();
    const u = await t.user({ credits: 100 });
    const a = (await create(t, u.apiKey, { first_name: 'Ada', surname: 'L', about: 'Analyst', age: 30, timezone: 'UTC' })).json().info;
    const patch = (json: object, key = u.apiKey, id: string = a.agent_id) => t.request('PATCH', `/v0/assistant/${id}/config`, { key, json });
    return { t, u, a, patch };
  }

  it('{"about": null} clears only about; omitted fields stay', async () => {
    const { a, patch } = await setup();
    const res = await patch({ about: null });
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    expect(info.about).toBeNull();
    const { about: _a, updated_at: _u, ...rest } = info;
    const { about: _b, updated_at: _v, ...before } = a;
    expect(rest).toEqual(before);
    const changed = (
      await patch({
        timezone: 'America/New_York',
        weekly_limit: 20,
        nationality: 'British',
        is_local: true,
        deploy_env: 'preview',
        desktop_mode: 'ubuntu',
        user_desktop_id: 4,
        user_desktop_filesys_sync: false,
      })
    ).json().info;
    expect(changed).toMatchObject({
      timezone: 'America/New_York',
      weekly_limit: 20,
      nationality: 'British',
      is_local: true,
      deploy_env: 'preview',
      desktop_mode: 'ubuntu',
      user_desktop_id: 4,
      user_desktop_filesys_sync: false,
      first_name: 'Ada',
      age: 30,
    });
    const cleared = (await patch({ deploy_env: null, is_local: null, weekly_limit: null })).json().info;
    expect(cleared).toMatchObject({ deploy_env: null, is_local: null, weekly_limit: null, timezone: 'America/New_York' });
  });

  it('bounds → 422 naming the field; nothing changes', async () => {
    const { t, u, a, patch } = await setup();
    const cases: [object, string][] = [
      [{ weekly_limit: 169 }, 'weekly_limit'],
      [{ max_parallel: 0 }, 'max_parallel'],
      [{ age: 200 }, 'age'],
      [{ timezone: 'Nowhere/City' }, 'timezone'],
      [{ desktop_mode: 'dos' }, 'desktop_mode'],
      [{ deploy_env: 'production' }, 'deploy_env'],
      [{ monthly_spending_cap: -1 }, 'monthly_spending_cap'],
      [{ profile_video: 'file:///etc/passwd' }, 'profile_video'],
      [{ voice_id: 'nope' }, 'voice_id'],
      [{ voice_provider: 'cartesia' }, 'voice_provider'],
      [{ user_desktop_id: 0 }, 'user_desktop_id'],
    ];
    for (const [body, field] of cases) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail[0].loc.slice(0, 2), JSON.stringify(body)).toEqual(['body', field]);
    }
    expect((await t.request('GET', `/v0/assistant/${a.agent_id}`, { key: u.apiKey })).json().info).toEqual(a);
  });

  it('unknown, foreign or non-integer ids', async () => {
    const { t, a, patch } = await setup();
    const other = await t.user();
    for (const res of [await patch({ about: 'x' }, other.apiKey), await patch({ about: 'x' }, undefined, '99999')]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Assistant not found.' });
    }
    expect((await t.request('GET', `/v0/assistant/${a.agent_id}`, { key: other.apiKey })).statusCode).toBe(404);
    expect((await t.request('DELETE', `/v0/assistant/${a.agent_id}`, { key: other.apiKey })).statusCode).toBe(404);
    const bad = await patch({ about: 'x' }, undefined, 'abc');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['path', 'assistant_id']);
  });

  it('profile_photo is ignored; deprecated contact fields are ignored with Deprecation: true', async () => {
    const { a, patch } = await setup();
    const res = await patch({ profile_photo: 'https://evil.example/x.png', email: 'new@example.com', phone: '+15550000' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe('true');
    expect(res.json().info).toMatchObject({ profile_photo: null, email: a.email, phone: a.phone });
    expect((await patch({ about: 'ok' })).headers.deprecation).toBeUndefined();
  });

  it('create_infra: false keeps an assistant without infrastructure; the default provisions what is missing', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const a = (await create(t, u.apiKey, { create_infra: false, first_name: 'Bo' })).json().info;
    const kept = (await t.request('PATCH', `/v0/assistant/${a.agent_id}/config`, { key: u.apiKey, json: { create_infra: false, about: 'x' } })).json().info;
    expect(kept).toMatchObject({ email: null, phone: null, create_infra: false });
    const made = (await t.request('PATCH', `/v0/assistant/${a.agent_id}/config`, { key: u.apiKey, json: { about: 'y' } })).json().info;
    expect(made).toMatchObject({ email: `bo-${a.agent_id}@assistants.roster.local`, phone: expect.stringMatching(/^\+1/), create_infra: true });
  });

  it('monthly_spending_cap: not above the user’s limit; lowering the limit caps assistants', async () => {
    const { t, u, a, patch } = await setup();
    expect((await patch({ monthly_spending_cap: 500 })).json().info.monthly_spending_cap).toBe(500);
    const second = (await create(t, u.apiKey, { first_name: 'Uncapped' })).json().info;
    const lowered = await t.request('PUT', '/v0/user/spending-limit', { key: u.apiKey, json: { monthly_spending_cap: 100.25 } });
    expect(lowered.json()).toEqual({ user_id: u.userId, monthly_spending_cap: 100.25, assistants_capped: 1 });
    expect((await t.request('GET', `/v0/assistant/${a.agent_id}`, { key: u.apiKey })).json().info.monthly_spending_cap).toBe(100.25);
    expect((await t.request('GET', `/v0/assistant/${second.agent_id}`, { key: u.apiKey })).json().info.monthly_spending_cap).toBeNull();
    const above = await patch({ monthly_spending_cap: 100.26 });
    expect(above.statusCode).toBe(422);
    expect(above.json().detail[0]).toMatchObject({ loc: ['body', 'monthly_spending_cap'], msg: expect.stringContaining('$100.25') });
    expect((await patch({ monthly_spending_cap: 100.25 })).statusCode).toBe(200);
    expect((await patch({ monthly_spending_cap: null })).json().info.monthly_spending_cap).toBeNull();
  });
});

describe('assistants: photo upload and files', () => {
  it('stores a PNG, serves it with its type, nosniff and long cache; with assistant_id sets the photo', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const a = (await create(t, u.apiKey)).json().info;
    const res = await uploadPhoto(t, u.apiKey, PNG, { assistant_id: a.agent_id }, 'photo.txt');
    expect(res.statusCode).toBe(201);
    const info = res.json().info;
    // What is stored is the re-encoded image (photos.test.ts), so its size is the server's to say.
    expect(info).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:8080\/v0\/files\/photos\/[\w-]+\.png$/),
      content_type: 'image/png',
      size: expect.any(Number),
    });
    expect((await t.request('GET', `/v0/assistant/${a.agent_id}`, { key: u.apiKey })).json().info.profile_photo).toBe(info.url);
    const file = await t.request('GET', new URL(info.url).pathname);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.rawPayload.length).toBe(info.size);
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({ format: 'png', width: 16, height: 12 });
    const again = await t.request('GET', new URL(info.url).pathname, { headers: { 'if-none-match': file.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect((await t.request('GET', '/v0/files/photos/..%2F..%2Froster.db')).statusCode).toBe(404);
    expect((await t.request('GET', '/v0/files/photos/doesnotexist123.png')).statusCode).toBe(404);
    expect(tempFiles(t)).toEqual([]);
  });

  it('a spoofed file (PNG name, text content) → 415', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await uploadPhoto(t, u.apiKey, Buffer.from('just some text, not an image'), {}, 'photo.png');
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toMatch(/image\/jpeg, image\/png, image\/webp, image\/gif/);
    expect(tempFiles(t)).toEqual([]);
    expect(await t.db.selectFrom('stored_files').selectAll().execute()).toEqual([]);
  });

  it('an upload sent as another type → 415 saying to send multipart/form-data', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: { 'content-type': 'text/plain' }, payload: 'not a form' });
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toMatch(/an upload as multipart\/form-data/);
  });

  it('5 MiB + 1 byte → 413; exactly 5 MiB is accepted; empty → 422; no file → 422', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const big = Buffer.concat([PNG, Buffer.alloc(PHOTO_MAX_BYTES + 1 - PNG.length)]);
    const res = await uploadPhoto(t, u.apiKey, big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'File size exceeds 5MB limit.' });
    expect(tempFiles(t)).toEqual([]);
    expect((await uploadPhoto(t, u.apiKey, big.subarray(0, PHOTO_MAX_BYTES))).statusCode).toBe(201);
    const empty = await uploadPhoto(t, u.apiKey, Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0].loc).toEqual(['form', 'file']);
    const body = multipart({ assistant_id: '1' });
    const none = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: body.headers, payload: body.payload });
    expect(none.statusCode).toBe(422);
    expect(none.json().detail[0].loc).toEqual(['form', 'file']);
    const json = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, json: { file: 'x' } });
    expect(json.statusCode).toBe(422);
  });

  it('a 100 MB upload is streamed and refused without being held in memory', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const before = process.memoryUsage().rss;
    const body = multipart({}, { filename: 'huge.png', contentType: 'image/png', content: zeros(100 * 1024 * 1024, PNG) });
    const res = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: body.headers, payload: body.payload });
    expect(res.statusCode).toBe(413);
    expect(process.memoryUsage().rss - before).toBeLessThan(60 * 1024 * 1024);
    expect(tempFiles(t)).toEqual([]);
  }, 60_000);

  it('uploads and clones need assistant:write; deleting a voice needs assistant:delete', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    const viewerKey = await t.member(org.organizationId, await t.user(), ROLE_IDS.Viewer);
    const memberKey = await t.member(org.organizationId, await t.user(), ROLE_IDS.Member);
    expect((await uploadPhoto(t, viewerKey, PNG)).statusCode).toBe(403);
    expect((await cloneVoice(t, viewerKey)).statusCode).toBe(403);
    const voice = (await cloneVoice(t, memberKey)).json().info;
    expect((await t.request('GET', '/v0/assistant/voice', { key: viewerKey })).json().info.at(-1).voice_id).toBe(voice.voice_id);
    expect((await t.request('DELETE', `/v0/assistant/voice/${voice.voice_id}`, { key: memberKey })).statusCode).toBe(403);
    expect((await t.request('DELETE', `/v0/assistant/voice/${voice.voice_id}`, { key: owner.apiKey })).statusCode).toBe(404);
    expect((await t.request('DELETE', `/v0/assistant/voice/${voice.voice_id}`, { key: org.ownerKey })).statusCode).toBe(200);
    expect(tempFiles(t)).toEqual([]);
  });

  it('foreign assistant_id → 404 and nothing kept; bad assistant_id → 422', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const other = await t.user();
    const a = (await create(t, other.apiKey)).json().info;
    const res = await uploadPhoto(t, u.apiKey, PNG, { assistant_id: a.agent_id });
    expect(res.statusCode).toBe(404);
    expect(tempFiles(t)).toEqual([]);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'photos')) ? fs.readdirSync(path.join(t.dataDir, 'files', 'photos')) : []).toEqual([]);
    const bad = await uploadPhoto(t, u.apiKey, PNG, { assistant_id: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['form', 'assistant_id']);
  });
});

describe('assistants: voices', () => {
  it('clones (sample stored and playable), lists with presets, assigns, refuses deleting in use, deletes', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await cloneVoice(t, u.apiKey, { name: 'Narrator', language: 'en', gender: 'female', description: '' });
    expect(res.statusCode).toBe(201);
    const voice = res.json().info;
    expect(voice).toEqual({
      voice_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Narrator',
      description: null,
      gender: 'female',
      language: 'en',
      provider: 'cartesia',
      is_preset: false,
      sample_url: expect.stringMatching(/\/v0\/files\/voices\/[\w-]+\.wav$/),
      created_at: expect.any(String),
    });
    const sample = await t.request('GET', new URL(voice.sample_url).pathname);
    expect(sample.headers['content-type']).toBe('audio/wav');
    expect(sample.rawPayload.equals(WAV)).toBe(true);
    const ranged = await t.request('GET', new URL(voice.sample_url).pathname, { headers: { range: 'bytes=0-3' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.toString('ascii')).toBe('RIFF');

    const list = (await t.request('GET', '/v0/assistant/voice', { key: u.apiKey })).json().info;
    expect(list.filter((v: { is_preset: boolean }) => v.is_preset).length).toBeGreaterThan(0);
    expect(list.at(-1)).toEqual(voice);
    const preset = list[0];
    expect((await t.request('GET', new URL(preset.sample_url).pathname)).headers['content-type']).toBe('audio/wav');
    const other = await t.user();
    expect((await t.request('GET', '/v0/assistant/voice', { key: other.apiKey })).json().info.some((v: { voice_id: string }) => v.voice_id === voice.voice_id)).toBe(
      false,
    );

    // The default assistant provider is elevenlabs: the voice's provider must be named.
    const wrong = await create(t, u.apiKey, { voice_id: voice.voice_id });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail[0]).toMatchObject({ loc: ['body', 'voice_id'], msg: expect.stringContaining('cartesia') });
    const a = (await create(t, u.apiKey, { first_name: 'Grace', surname: 'Hopper', voice_id: voice.voice_id, voice_provider: 'cartesia' })).json().info;
    expect(a).toMatchObject({ voice_id: voice.voice_id, voice_provider: 'cartesia' });
    expect((await create(t, other.apiKey, { voice_id: voice.voice_id, voice_provider: 'cartesia' })).statusCode).toBe(422);

    const inUse = await t.request('DELETE', `/v0/assistant/voice/${voice.voice_id}`, { key: u.apiKey });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toEqual({
      detail: 'Cannot delete voice. It is currently in use by at least one assistant. Used by: Grace Hopper.',
      assistants: [{ agent_id: a.agent_id, name: 'Grace Hopper' }],
    });
    expect((await t.request('DELETE', `/v0/assistant/voice/${voice.voice_id}`, { key: other.apiKey })).statusCode).toBe(404);

    const cleared = (await t.request('PATCH', `/v0/assistant/${a.agent_id}/config`, { key: u.apiKey, json: { voice_id: null } })).json().info;
    expect(cleared).toMatchObject({ voice_id: null, voice_provider: null });
    const del = await t.request('DELETE', `/v0/assistant/voice/${voice.voice_id}?provider=cartesia`, { key: u.apiKey });
    expect(del.json()).toEqual({ info: 'Voice deleted successfully.' });
    expect((await t.request('GET', new URL(voice.sample_url).pathname)).statusCode).toBe(404);
    const again = await t.request('DELETE', `/v0/assistant/voice/${voice.voice_id}`, { key: u.apiKey });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'Voice not found.' });
    expect((await t.request('DELETE', `/v0/assistant/voice/${preset.voice_id}`, { key: u.apiKey })).statusCode).toBe(403);

    // A preset can be chosen in PATCH; its provider is inferred.
    const withPreset = (await t.request('PATCH', `/v0/assistant/${a.agent_id}/config`, { key: u.apiKey, json: { voice_id: preset.voice_id } })).json().info;
    expect(withPreset).toMatchObject({ voice_id: preset.voice_id, voice_provider: preset.provider });
  });

  it('rules: name required and ≤ 100, provider known, audio by magic bytes, 25 MiB', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    for (const [fields, field] of [
      [{}, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'ok', provider: 'acme' }, 'provider'],
    ] as const) {
      const res = await cloneVoice(t, u.apiKey, fields);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0].loc).toEqual(['form', field]);
    }
    expect((await cloneVoice(t, u.apiKey, { name: 'Fake' }, Buffer.from('not audio at all'))).statusCode).toBe(415);
    expect((await cloneVoice(t, u.apiKey, { name: 'Pic' }, PNG)).statusCode).toBe(415);
    const big = Buffer.concat([WAV, Buffer.alloc(25 * 1024 * 1024 + 1 - WAV.length)]);
    const tooBig = await cloneVoice(t, u.apiKey, { name: 'Big' }, big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ detail: 'File size exceeds 25MB limit.' });
    expect((await cloneVoice(t, u.apiKey, { name: 'Eleven', provider: 'elevenlabs' })).json().info.provider).toBe('elevenlabs');
    expect(tempFiles(t)).toEqual([]);
  });
});

describe('assistants: voice provider seam', () => {
  it('a provider adapter that keeps the sample itself: its voice id is used, our copy is dropped, delete reaches it', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const calls: string[] = [];
    t.app.deps.voiceProviders = (provider) => ({
      kind: 'fake',
      clone: async (req) => {
        calls.push(`clone ${provider} ${req.name} ${req.sample.contentType}`);
        return { voiceId: 'remote-voice-1', keepSample: false };
      },
      delete: async (voiceId) => {
        calls.push(`delete ${voiceId}`);
      },
    });
    const voice = (await cloneVoice(t, u.apiKey, { name: 'Remote', provider: 'elevenlabs' })).json().info;
    expect(voice).toMatchObject({ voice_id: 'remote-voice-1', provider: 'elevenlabs', sample_url: null });
    expect(fs.readdirSync(path.join(t.dataDir, 'files', 'voices'))).toEqual([]);
    expect(await t.db.selectFrom('stored_files').selectAll().execute()).toEqual([]);
    expect((await t.request('DELETE', '/v0/assistant/voice/remote-voice-1', { key: u.apiKey })).statusCode).toBe(200);
    expect(calls).toEqual(['clone elevenlabs Remote audio/wav', 'delete remote-voice-1']);
  });
});

describe('assistants: account deletion', () => {
  async function deleteAccount(t: TestApp, u: TestUser) {
    return t.request('DELETE', '/v0/user/delete-account', { key: u.apiKey, json: { confirm_email: u.email } });
  }

  it('removes personal assistants, voices and files; organization assistants stay', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const org = await t.org(owner);
    const u = await t.user({ credits: 100 });
    const memberKey = await t.member(org.organizationId, u, ROLE_IDS.Member);
    const account = await accountOf(t.db, { userId: owner.userId, organizationId: org.organizationId });
    await addCredits(t.db, account.id, toMicros(10), 'test', null, new Date());
    const orgAssistant = (await create(t, memberKey)).json().info;
    const mine = (await create(t, u.apiKey)).json().info;
    const photo = (await uploadPhoto(t, u.apiKey, PNG, { assistant_id: mine.agent_id })).json().info;
    const voice = (await cloneVoice(t, u.apiKey)).json().info;
    const orgPhoto = (await uploadPhoto(t, memberKey, PNG)).json().info;

    expect((await deleteAccount(t, u)).statusCode).toBe(200);
    expect((await t.request('GET', new URL(photo.url).pathname)).statusCode).toBe(404);
    expect((await t.request('GET', new URL(voice.sample_url).pathname)).statusCode).toBe(404);
    expect((await t.request('GET', new URL(orgPhoto.url).pathname)).statusCode).toBe(200);
    expect(await t.db.selectFrom('assistants').select('id').execute()).toEqual([{ id: Number(orgAssistant.agent_id) }]);
    expect(await t.db.selectFrom('voices').selectAll().execute()).toEqual([]);
    const kept = (await t.request('GET', `/v0/assistant/${orgAssistant.agent_id}`, { key: org.ownerKey })).json().info;
    expect(kept.user_id).toBeNull();
  });
});

describe('local storage', () => {
  it('removes stale partial uploads on start, keeps recent ones', async () => {
    const { LocalDirectoryStorage } = await import('../../storage/local.ts');
    const root = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'roster-storage-'));
    fs.mkdirSync(path.join(root, '.tmp'));
    const stale = path.join(root, '.tmp', 'old.part');
    const fresh = path.join(root, '.tmp', 'new.part');
    fs.writeFileSync(stale, 'x');
    fs.writeFileSync(fresh, 'y');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);
    const storage = new LocalDirectoryStorage(root);
    expect(fs.readdirSync(storage.tempDir)).toEqual(['new.part']);
    expect(await storage.get('../etc/passwd')).toBeNull();
    fs.rmSync(root, { recursive: true, force: true });
  });
});
