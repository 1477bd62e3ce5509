import { describe, expect, it } from 'vitest';
import { AssistantSchema } from '../../../shared/assistants.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { accountOf, addCredits, fromMicros, toMicros } from '../credits/repository.ts';

// Every assistant answer (list, one, create, config) is JSON the database builds (repository.ts); these
// pin its shape key by key, on whichever database the suite runs (TEST_DATABASE_URL).

const KEYS = Object.keys(AssistantSchema.shape);

/** The JSON text of a scalar value in an answer, as written (PostgreSQL puts spaces around colons). */
function rawValue(body: string, key: string): string {
  const match = new RegExp(`"${key}"\\s*:\\s*(null|true|false|-?[0-9][0-9.eE+-]*)`).exec(body);
  if (!match) throw new Error(`no scalar ${key} in ${body.slice(0, 200)}`);
  return match[1]!;
}

async function setup() {
  const t = await makeTestApp();
  const u = await t.user({ credits: 1000 });
  const get = (url: string, key = u.apiKey) => t.request('GET', url, { key });
  const create = async (json: object = {}, key = u.apiKey) => {
    const res = await t.request('POST', '/v0/assistant', { key, json });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const patch = async (id: string, json: object) => {
    const res = await t.request('PATCH', `/v0/assistant/${id}/config`, { key: u.apiKey, json });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  return { t, u, get, create, patch };
}

/** The answers that show one assistant: GET one, and its element of the list. */
async function shown(t: TestApp, key: string, id: string) {
  const one = await t.request('GET', `/v0/assistant/${id}`, { key });
  const list = await t.request('GET', '/v0/assistant', { key });
  expect(one.statusCode).toBe(200);
  expect(list.statusCode).toBe(200);
  const inList = (list.json().info as Record<string, unknown>[]).find((a) => a.agent_id === id);
  return { one: one.body, info: one.json().info, inList };
}

describe('assistant JSON built by the database', () => {
  it('every key in the API’s order, each with its JSON type; get, list, create and config agree', async () => {
    const { t, u, create, patch } = await setup();
    const about = 'line 1\nline 2\r\n\ttab "quoted" back\\slash </script> \u2028 \u0001 é 😀🎉';
    const chat = [
      { role: 'user', msg: 'He said "hi"\n😀 \\ \u0007' },
      { role: 'assistant', msg: '' },
    ];
    const created = await create({
      first_name: 'Zoë "Q"',
      surname: "O'Brien 😀",
      age: 36,
      weekly_limit: 37.5,
      max_parallel: 3,
      about,
      timezone: 'Europe/London',
      region: 'eu-west',
      desktop_url: 'https://desk.example/a?x=1&y="2"',
      user_local_desktop: 'ubuntu',
      user_phone: '+1 555 0100',
      user_whatsapp_number: '+1 555 0101',
      pre_hire_chat: chat,
    });
    const id = created.json().info.agent_id as string;
    expect(Object.keys(created.json().info)).toEqual(KEYS);

    const patched = await patch(id, {
      nationality: 'British',
      is_local: true,
      user_desktop_filesys_sync: false,
      user_desktop_id: 4,
      desktop_mode: 'windows',
      deploy_env: 'preview',
      monthly_spending_cap: 12.5,
      profile_video: 'https://video.example/v.mp4',
    });
    const info = patched.json().info;
    expect(Object.keys(info)).toEqual(KEYS);
    expect(info).toEqual({
      agent_id: id,
      first_name: 'Zoë "Q"',
      surname: "O'Brien 😀",
      age: 36,
      weekly_limit: 37.5,
      max_parallel: 3,
      about,
      phone: expect.stringMatching(/^\+1\d{3}55501\d{2}$/),
      email: `zoeq.obrien-${id}@assistants.roster.local`,
      nationality: 'British',
      country: 'US',
      phone_country: 'US',
      profile_photo: null,
      profile_video: 'https://video.example/v.mp4',
      voice_id: null,
      voice_provider: null,
      timezone: 'Europe/London',
      region: 'eu-west',
      desktop_url: 'https://desk.example/a?x=1&y="2"',
      user_local_desktop: 'ubuntu',
      desktop_mode: 'windows',
      user_desktop_id: 4,
      user_desktop_filesys_sync: false,
      is_local: true,
      monthly_spending_cap: 12.5,
      deploy_env: 'preview',
      user_phone: '+1 555 0100',
      user_whatsapp_number: '+1 555 0101',
      pre_hire_chat: chat,
      create_infra: true,
      user_id: u.userId,
      organization_id: null,
      created_at: created.json().info.created_at,
      updated_at: expect.any(String),
    });
    // Strings are escaped as JavaScript escapes them; pre_hire_chat is an array, not a string of JSON.
    expect(patched.body).toContain(JSON.stringify(about));
    expect(patched.body).toMatch(new RegExp(`"pre_hire_chat"\\s*:\\s*\\[`));

    const { one, inList } = await shown(t, u.apiKey, id);
    expect(one).toBe(patched.body);
    expect(inList).toEqual(info);
  });

  it('unset values are JSON null, booleans stay booleans (null, true or false)', async () => {
    const { t, u, create, patch } = await setup();
    const bare = (await create({ create_infra: false })).json().info;
    const nullable = KEYS.filter((k) => !['agent_id', 'country', 'create_infra', 'user_id', 'created_at', 'updated_at'].includes(k));
    for (const key of nullable) expect(bare[key], key).toBeNull();
    expect(bare).toMatchObject({ country: 'US', create_infra: false, user_id: u.userId });
    expect(typeof bare.agent_id).toBe('string');
    expect(bare.agent_id).toMatch(/^[1-9]\d*$/);

    const { one } = await shown(t, u.apiKey, bare.agent_id);
    for (const key of ['is_local', 'user_desktop_filesys_sync', 'monthly_spending_cap', 'weekly_limit', 'pre_hire_chat', 'organization_id']) {
      expect(rawValue(one, key), key).toBe('null');
    }
    expect(rawValue(one, 'create_infra')).toBe('false');

    await patch(bare.agent_id, { is_local: false, user_desktop_filesys_sync: true, create_infra: false });
    const flipped = await shown(t, u.apiKey, bare.agent_id);
    expect([rawValue(flipped.one, 'is_local'), rawValue(flipped.one, 'user_desktop_filesys_sync')]).toEqual(['false', 'true']);
    await patch(bare.agent_id, { is_local: null, user_desktop_filesys_sync: null });
    const cleared = await shown(t, u.apiKey, bare.agent_id);
    expect([cleared.info.is_local, cleared.info.user_desktop_filesys_sync, cleared.inList]).toEqual([null, null, cleared.info]);
  });

  it('a stored non-zero flag other than 1 still reads as true', async () => {
    const { t, u, create } = await setup();
    const id = (await create()).json().info.agent_id as string;
    await t.db.updateTable('assistants').set({ is_local: 2, user_desktop_filesys_sync: -1 }).where('id', '=', Number(id)).execute();
    const { info } = await shown(t, u.apiKey, id);
    expect([info.is_local, info.user_desktop_filesys_sync]).toEqual([true, true]);
  });

  it('monthly_spending_cap is written exactly as JavaScript writes the dollars of its micros', async () => {
    const { t, u, create, patch } = await setup();
    const id = (await create()).json().info.agent_id as string;
    for (const dollars of [0.000001, 0.00001, 0.0001, 0.1, 0.5, 1, 12.5, 100.25, 500, 1234567.891, 999999999.999999, 1_000_000_000, 0]) {
      const expected = JSON.stringify(fromMicros(toMicros(dollars)));
      const res = await patch(id, { monthly_spending_cap: dollars });
      const { one, inList } = await shown(t, u.apiKey, id);
      expect([rawValue(res.body, 'monthly_spending_cap'), rawValue(one, 'monthly_spending_cap')], String(dollars)).toEqual([expected, expected]);
      expect(inList?.monthly_spending_cap).toBe(dollars);
    }
  });

  it('weekly_limit is the stored number, written as JavaScript writes it for any typed value', async () => {
    const { t, u, create, patch } = await setup();
    const id = (await create({ weekly_limit: 40 })).json().info.agent_id as string;
    expect(rawValue((await shown(t, u.apiKey, id)).one, 'weekly_limit')).toBe('40');
    for (const hours of [0, 20, 168, 37.5, 0.1, 0.3, 12.345678901234, 99.9999999999999, 1 / 3, 40 / 3, 0.1 + 0.2, 0.0001]) {
      await patch(id, { weekly_limit: hours });
      const { one, inList } = await shown(t, u.apiKey, id);
      expect(rawValue(one, 'weekly_limit'), String(hours)).toBe(JSON.stringify(hours));
      expect(inList?.weekly_limit).toBe(hours);
    }
    // Below 0.0001 the spelling is the database's own (1e-05), still the same number.
    await patch(id, { weekly_limit: 0.00001 });
    expect(Number(rawValue((await shown(t, u.apiKey, id)).one, 'weekly_limit'))).toBe(0.00001);
  });

  it('lists newest first, each workspace only its own; an empty workspace answers {"info":[]}', async () => {
    const { t, u, get, create } = await setup();
    const other = await t.user({ credits: 100 });
    const { organizationId, ownerKey } = await t.org(u);
    await addCredits(t.db, (await accountOf(t.db, { userId: u.userId, organizationId })).id, toMicros(100), 'test', null, new Date());
    const member = await t.user();
    const memberKey = await t.member(organizationId, member, ROLE_IDS.Viewer);

    for (const key of [u.apiKey, ownerKey, other.apiKey]) {
      const empty = await get('/v0/assistant', key);
      expect(empty.statusCode).toBe(200);
      expect(empty.body).toBe('{"info":[]}');
    }

    const ids = async (key: string) => ((await get('/v0/assistant', key)).json().info as { agent_id: string }[]).map((a) => a.agent_id);
    const made: Record<string, string[]> = { personal: [], org: [], other: [] };
    for (const [workspace, key] of [
      ['personal', u.apiKey],
      ['org', ownerKey],
      ['personal', u.apiKey],
      ['other', other.apiKey],
      ['org', ownerKey],
      ['personal', u.apiKey],
    ] as const) {
      made[workspace]!.push((await create({ first_name: workspace }, key)).json().info.agent_id);
    }
    const newestFirst = (list: string[]) => [...list].sort((a, b) => Number(b) - Number(a));
    expect(await ids(u.apiKey)).toEqual(newestFirst(made.personal!));
    expect(await ids(ownerKey)).toEqual(newestFirst(made.org!));
    expect(await ids(memberKey)).toEqual(newestFirst(made.org!));
    expect(await ids(other.apiKey)).toEqual(made.other);
    expect(((await get('/v0/assistant', ownerKey)).json().info as { organization_id: number }[]).every((a) => a.organization_id === organizationId)).toBe(true);

    // One assistant: only from its own workspace.
    for (const [key, foreign] of [
      [u.apiKey, made.org![0]],
      [ownerKey, made.personal![0]],
      [other.apiKey, made.personal![0]],
      [u.apiKey, made.other![0]],
    ] as const) {
      const res = await get(`/v0/assistant/${foreign}`, key);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Assistant not found.' });
    }
  });

  it('an idempotent create replays the very bytes it first answered', async () => {
    const { t, u } = await setup();
    const send = () =>
      t.request('POST', '/v0/assistant', {
        key: u.apiKey,
        json: { first_name: 'Ada', weekly_limit: 1 / 3, pre_hire_chat: [{ role: 'user', msg: '"😀"' }] },
        headers: { 'Idempotency-Key': 'json-1' },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect((await t.request('GET', `/v0/assistant/${first.json().info.agent_id}`, { key: u.apiKey })).body).toBe(first.body);
  });
});
