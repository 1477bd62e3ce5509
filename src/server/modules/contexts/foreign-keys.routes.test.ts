import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';

// Context foreign keys enforced (logs-api.md §6): references checked on every write of logs, and the
// on_delete action of each key applied when the referenced logs leave their context. Real app, real database.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function setup(t: TestApp) {
  const u = await t.user();
  const call = (method: Method, url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
  expect((await call('POST', '/v0/project', { name: 'demo' })).statusCode).toBe(200);
  const create = async (name: string, foreign_keys: unknown[] | null = null) => {
    const res = await call('POST', '/v0/project/demo/contexts', { name, foreign_keys });
    expect(res.statusCode, res.body).toBe(200);
  };
  const write = (context: string, entries: unknown, extra: Record<string, unknown> = {}) =>
    call('POST', '/v0/logs', { project_name: 'demo', context: { name: context }, entries, ...extra });
  const log = async (context: string, entries: Record<string, unknown>[]) => {
    const res = await write(context, entries);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().log_event_ids as number[];
  };
  const read = async (context: string) => {
    const res = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: 'demo', context, limit: '1000', offset: '0' }).toString()}`);
    expect(res.statusCode, res.body).toBe(200);
    const logs = (res.json() as { logs: { id: number; entries: Record<string, unknown> }[] }).logs;
    return new Map(logs.map((l) => [l.id, l.entries]));
  };
  const del = (context: string, ids: number[] | null, fields: string[] | null = null) =>
    call('DELETE', '/v0/logs', { project_name: 'demo', context, ids_and_fields: [[ids, fields]] });
  return { call, create, write, log, read, del };
}

/** users (user_id 1, 2), tags (id "a", "b"), org/departments (id "d1"), and orders referencing them along every kind of path. */
async function referenced(t: TestApp, onDelete: string | null = null) {
  const s = await setup(t);
  await s.create('users');
  await s.create('tags');
  await s.create('org/departments');
  const users = await s.log('users', [{ user_id: 1 }, { user_id: 2 }]);
  const tags = await s.log('tags', [{ id: 'a' }, { id: 'b' }]);
  await s.log('org/departments', [{ id: 'd1' }]);
  const fk = (name: string, references: string) => ({ name, references, on_delete: onDelete, on_update: null });
  await s.create('orders', [
    fk('user_id', 'users.user_id'),
    fk('metadata.user.user_id', 'users.user_id'),
    fk('tag_ids[*]', 'tags.id'),
    fk('images[*].image_id', 'tags.id'),
    fk('items[0].id', 'tags.id'),
    fk('teams[*].members[*].user_id', 'users.user_id'),
    fk('department', 'org/departments.id'),
  ]);
  return { ...s, users, tags };
}

const fullOrder = {
  user_id: 1,
  metadata: { user: { user_id: 2 } },
  tag_ids: ['a', 'b', null],
  images: [{ image_id: 'a' }, { image_id: null }, {}],
  items: [{ id: 'b' }, { id: 'not checked: only element 0' }],
  teams: [{ members: [{ user_id: 1 }, { user_id: 2 }] }, { members: [] }],
  department: 'd1',
};

describe('context foreign keys', () => {
  it('a log joining a context by add_logs is held to its foreign keys: a bad reference is 400 and the log does not join', async () => {
    const t = await makeTestApp();
    const { call, log, read } = await referenced(t);
    const [good, bad] = await log('drafts', [{ user_id: 1 }, { user_id: 99 }]);
    const add = (ids: number[]) => call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'orders', log_ids: ids });
    const refused = await add([good!, bad!]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatch(/user_id/);
    expect([...(await read('orders')).keys()]).toEqual([]);
    expect((await add([good!])).statusCode).toBe(200);
    expect([...(await read('orders')).keys()]).toEqual([good]);
  });

  it('writes valid references (top-level, nested, [*] lists, an index, a nested context name); missing or null values reference nothing', async () => {
    const t = await makeTestApp();
    const { call, create, write, log, read, del } = await referenced(t);
    const [full, empty, nulls] = await log('orders', [fullOrder, { note: 'no references' }, { user_id: null, metadata: null, tag_ids: [] }]);
    expect((await read('orders')).get(full!)).toEqual(fullOrder);
    // A batch of many logs, each referencing: one query per key, not per log.
    const many = Array.from({ length: 2000 }, (_, i) => ({ user_id: (i % 2) + 1, tag_ids: ['a'] }));
    expect((await write('orders', many)).statusCode).toBe(200);
    // Updates (PUT /v0/logs and the row routes) with valid values.
    expect((await call('PUT', '/v0/logs', { logs: [empty], entries: { user_id: 2, tag_ids: ['b'] } })).statusCode).toBe(200);
    expect((await call('PATCH', `/v0/project/demo/contexts/orders/logs/${nulls}`, { entries: { department: 'd1' } })).statusCode).toBe(200);
    expect((await call('POST', '/v0/project/demo/contexts/orders/logs', { entries: [{ user_id: 1 }] })).statusCode).toBe(200);
    // A log may reference one of its own batch (a context referencing itself), not a log that is nowhere.
    await create('nodes', [{ name: 'parent', references: 'nodes.id' }]);
    expect((await write('nodes', [{ id: 1 }, { id: 2, parent: 1 }, { id: 3, parent: 2 }])).statusCode).toBe(200);
    expect((await write('nodes', [{ id: 4, parent: 99 }])).statusCode).toBe(400);
    // A context without foreign keys writes the same values freely, and deletes freely (nothing references it).
    await create('plain');
    const [p] = await log('plain', [{ user_id: 999, tag_ids: ['zz'], parent: 99 }]);
    expect(
      (
        await write(
          'plain',
          Array.from({ length: 100 }, (_, i) => ({ user_id: i })),
        )
      ).statusCode,
    ).toBe(200);
    expect((await del('plain', [p!])).statusCode).toBe(200);
    expect((await del('plain', null)).statusCode).toBe(200);
    expect((await read('plain')).size).toBe(0);
    // Nor does anything reference the referencing context: its logs delete freely.
    expect((await del('orders', null)).statusCode).toBe(200);
    expect((await read('orders')).size).toBe(0);
  });

  it('refuses an invalid reference with 400 naming the field, the value and the referenced context, and writes nothing', async () => {
    const t = await makeTestApp();
    const { call, write, log, read, del } = await referenced(t);
    const [ok] = await log('orders', [{ user_id: 1 }]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ user_id: 3 }, 'user_id', 'users'],
      [{ metadata: { user: { user_id: 9 } } }, 'metadata.user.user_id', 'users'],
      [{ tag_ids: ['a', 'zz'] }, 'tag_ids[*]', 'tags'],
      [{ images: [{ image_id: 'a' }, { image_id: 'zz' }] }, 'images[*].image_id', 'tags'],
      [{ items: [{ id: 'zz' }] }, 'items[0].id', 'tags'],
      [{ teams: [{ members: [{ user_id: 1 }] }, { members: [{ user_id: 77 }] }] }, 'teams[*].members[*].user_id', 'users'],
      [{ department: 'd2' }, 'department', 'org/departments'],
    ];
    for (const [entries, field, context] of cases) {
      // In a batch of valid logs: the whole batch is refused, as for a unique key clash.
      const res = await write('orders', [{ user_id: 2 }, entries, { user_id: 1 }]);
      expect(res.statusCode, JSON.stringify(entries)).toBe(400);
      const detail = res.json().detail as string;
      expect(detail).toContain(`'${field}'`);
      expect(detail).toContain(`'${context}'`);
      expect(detail).toMatch(/= (3|9|"zz"|77|"d2")/);
    }
    expect([...(await read('orders')).keys()]).toEqual([ok]);
    // on_duplicate "skip" reports the entry and writes the others, as it does for a unique key clash.
    const skip = await write('orders', [{ user_id: 2 }, { user_id: 5 }], { on_duplicate: 'skip' });
    expect(skip.statusCode, skip.body).toBe(200);
    expect(skip.json().failed).toEqual([{ index: 1, error: expect.stringContaining("'user_id' = 5") }]);
    // Updates: PUT /v0/logs, the row routes' PATCH and POST.
    const put = await call('PUT', '/v0/logs', { logs: [ok], entries: { user_id: 3 }, overwrite: true });
    expect(put.statusCode).toBe(400);
    expect(put.json().detail).toContain("'user_id' = 3");
    // A PUT of several logs is checked once for all of them, and refused whole.
    const second = skip.json().log_event_ids[0] as number;
    const putMany = await call('PUT', '/v0/logs', { logs: [ok, second], entries: [{ user_id: 2 }, { user_id: 8 }], overwrite: true });
    expect(putMany.statusCode).toBe(400);
    expect(putMany.json().detail).toContain("'user_id' = 8");
    const patch = await call('PATCH', `/v0/project/demo/contexts/orders/logs/${ok}`, { entries: { tag_ids: ['nope'] } });
    expect(patch.statusCode).toBe(400);
    const post = await call('POST', '/v0/project/demo/contexts/orders/logs', { entries: [{ user_id: 1 }, { user_id: 4 }] });
    expect(post.statusCode).toBe(400);
    expect((await read('orders')).get(ok!)).toEqual({ user_id: 1 });
    expect((await read('orders')).size).toBe(2);
    // A value that is a list or a dict cannot be a reference.
    expect((await write('orders', [{ user_id: { id: 1 } }])).statusCode).toBe(400);
    // A key to a context that does not exist: kept at creation (the contract's clients create them in any
    // order), and a value written to it is refused naming the context.
    await call('POST', '/v0/project/demo/contexts', { name: 'pets', foreign_keys: [{ name: 'owner', references: 'people.id' }] });
    const missing = await write('pets', [{ owner: 1 }]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toContain("context 'people'");
    expect((await write('pets', [{ name: 'no owner' }])).statusCode).toBe(200);
    // Names with quotes and backslashes are field names like any other.
    await log('odd', [{ 'k"e\\y': 1 }]);
    await call('POST', '/v0/project/demo/contexts', { name: 'odder', foreign_keys: [{ name: 'a"b\\c', references: 'odd.k"e\\y', on_delete: 'CASCADE' }] });
    expect((await write('odder', [{ 'a"b\\c': 1 }])).statusCode).toBe(200);
    expect((await write('odder', [{ 'a"b\\c': 2 }])).statusCode).toBe(400);
    expect((await del('odd', null)).statusCode).toBe(200);
    expect((await read('odder')).size).toBe(0);
  });

  it('on_delete CASCADE deletes the referencing logs, through every path and recursively', async () => {
    const t = await makeTestApp();
    const { call, create, log, read, del, users } = await referenced(t, 'CASCADE');
    const [byTop, byNested, byTeam, other] = await log('orders', [
      { user_id: 1 },
      { metadata: { user: { user_id: 1 } } },
      { teams: [{ members: [{ user_id: 2 }, { user_id: 1 }] }] },
      { user_id: 2, tag_ids: ['a'] },
    ]);
    await create('shipments', [{ name: 'order', references: 'orders.order_no', on_delete: 'cascade' }]);
    await call('PUT', '/v0/logs', { logs: [byTop], entries: { order_no: 10 } });
    const [shipment, otherShipment] = await log('shipments', [{ order: 10 }, { order: null }]);
    expect((await del('users', [users[0]!])).statusCode).toBe(200);
    expect([...(await read('orders')).keys()]).toEqual([other]);
    expect([...(await read('shipments')).keys()]).toEqual([otherShipment]);
    expect(byNested && byTeam && shipment).toBeTruthy();
    // Deleting the referenced context deletes the logs that referenced it.
    expect((await call('DELETE', '/v0/project/demo/contexts/tags')).statusCode).toBe(200);
    expect((await read('orders')).size).toBe(0);
  });

  it('on_delete SET NULL and SET DEFAULT replace the referencing value (top-level, nested, [*] elements)', async () => {
    const t = await makeTestApp();
    const { call, create, log, read, del, users, tags } = await referenced(t, 'SET NULL');
    const [order] = await log('orders', [{ ...fullOrder, teams: [{ members: [{ user_id: 1 }, { user_id: 2 }] }] }]);
    expect((await del('users', [users[0]!])).statusCode).toBe(200);
    expect((await read('orders')).get(order!)).toMatchObject({
      user_id: null,
      metadata: { user: { user_id: 2 } },
      teams: [{ members: [{ user_id: null }, { user_id: 2 }] }],
    });
    // Through the row routes' delete too: the list element becomes null, the other elements stay.
    expect((await call('DELETE', `/v0/project/demo/contexts/tags/logs/${tags[0]}`)).statusCode).toBe(200);
    expect((await read('orders')).get(order!)).toMatchObject({
      tag_ids: [null, 'b', null],
      images: [{ image_id: null }, { image_id: null }, {}],
      items: [{ id: 'b' }, {}],
    });
    // Removing the referenced field from the log (DELETE /v0/logs with fields) orphans the value as well.
    await create('groups');
    const [g1] = await log('groups', [{ gid: 'g1' }, { gid: 'g2' }]);
    await create('members', [{ name: 'gid', references: 'groups.gid', on_delete: 'SET DEFAULT', default: 'g2' }]);
    const [m] = await log('members', [{ gid: 'g1' }]);
    expect((await del('groups', [g1!], ['gid'])).statusCode).toBe(200);
    expect((await read('members')).get(m!)).toEqual({ gid: 'g2' });
  });

  it('on_delete RESTRICT, NO ACTION or unset refuses the delete with 400 naming the referencing context, and deletes nothing', async () => {
    const t = await makeTestApp();
    const { call, create, log, read, del, users, tags } = await referenced(t);
    await log('orders', [{ user_id: 1, tag_ids: ['a'] }]);
    await create('audit', [{ name: 'who', references: 'users.user_id', on_delete: 'restrict' }]);
    await log('audit', [{ who: 2 }]);
    for (const res of [
      await del('users', [users[0]!]),
      await del('users', null),
      await call('DELETE', `/v0/project/demo/contexts/users/logs/${users[1]}`),
      await call('DELETE', '/v0/project/demo/contexts/tags'),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().detail).toMatch(/context '(orders|audit)'/);
    }
    expect((await read('users')).size).toBe(2);
    expect((await read('tags')).size).toBe(2);
    // An unreferenced value goes; so does a value another log of the context still holds.
    expect((await del('tags', [tags[1]!])).statusCode).toBe(200);
    const [again] = await log('users', [{ user_id: 1 }]);
    expect((await del('users', [users[0]!])).statusCode).toBe(200);
    expect((await read('users')).has(again!)).toBe(true);
  });

  it('on_update CASCADE follows a changed referenced value, SET NULL clears it, unset refuses the update', async () => {
    const t = await makeTestApp();
    const { call, create, log, read } = await setup(t);
    await create('users');
    const [ann, bob] = await log('users', [
      { user_id: 1, name: 'ann' },
      { user_id: 2, name: 'bob' },
    ]);
    await create('orders', [{ name: 'user_id', references: 'users.user_id', on_update: 'CASCADE' }]);
    await create('notes', [{ name: 'who[*]', references: 'users.name', on_update: 'SET NULL' }]);
    const [o1, o2] = await log('orders', [{ user_id: 1 }, { user_id: 2 }]);
    const [n] = await log('notes', [{ who: ['ann', 'bob'] }]);
    const put = await call('PUT', '/v0/logs', { logs: [ann], entries: { user_id: 10 }, overwrite: true });
    expect(put.statusCode, put.body).toBe(200);
    expect(await read('orders')).toEqual(
      new Map([
        [o1, { user_id: 10 }],
        [o2, { user_id: 2 }],
      ]),
    );
    const patch = await call('PATCH', `/v0/project/demo/contexts/users/logs/${ann}`, { entries: { name: 'anne' } });
    expect(patch.statusCode, patch.body).toBe(200);
    expect((await read('notes')).get(n!)).toEqual({ who: [null, 'bob'] });
    // A change nothing references, or that keeps the value, is free.
    expect((await call('PUT', '/v0/logs', { logs: [bob], entries: { age: 30, user_id: 2 }, overwrite: true })).statusCode).toBe(200);
    await create('audit', [{ name: 'uid', references: 'users.user_id' }]);
    await log('audit', [{ uid: 2 }]);
    const refused = await call('PUT', '/v0/logs', { logs: [bob], entries: { user_id: 20 }, overwrite: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("context 'audit'");
    expect(refused.json().detail).toContain('on_update NO ACTION');
    expect((await read('users')).get(bob!)).toEqual({ user_id: 2, name: 'bob', age: 30 });
    expect((await read('orders')).get(o2!)).toEqual({ user_id: 2 });
  });

  it("values a key's action replaces are updates of their own context: its referrers' on_update follows, or refuses", async () => {
    const t = await makeTestApp();
    const { call, create, log, read, del } = await setup(t);
    await create('users');
    const [ann] = await log('users', [{ user_id: 1 }]);
    await create('orders', [{ name: 'user_id', references: 'users.user_id', on_update: 'CASCADE', on_delete: 'SET NULL' }]);
    await create('invoices', [{ name: 'buyer', references: 'orders.user_id', on_update: 'CASCADE' }]);
    await create('refunds', [{ name: 'buyer', references: 'invoices.buyer', on_update: 'SET NULL' }]);
    const [o] = await log('orders', [{ user_id: 1 }]);
    const [i] = await log('invoices', [{ buyer: 1 }]);
    const [r] = await log('refunds', [{ buyer: 1 }]);
    // users 1 → 10 cascades into orders, whose change cascades into invoices, whose change clears refunds.
    const put = await call('PUT', '/v0/logs', { logs: [ann], entries: { user_id: 10 }, overwrite: true });
    expect(put.statusCode, put.body).toBe(200);
    expect((await read('orders')).get(o!)).toEqual({ user_id: 10 });
    expect((await read('invoices')).get(i!)).toEqual({ buyer: 10 });
    expect((await read('refunds')).get(r!)).toEqual({ buyer: null });
    // A delete's SET NULL is an update of orders: invoices' on_update applies (CASCADE: null too).
    expect((await del('users', [ann!])).statusCode).toBe(200);
    expect((await read('orders')).get(o!)).toEqual({ user_id: null });
    expect((await read('invoices')).get(i!)).toEqual({ buyer: null });
    // And a referrer down the chain that refuses stops the whole change.
    const [bob] = await log('users', [{ user_id: 2 }]);
    const [o2] = await log('orders', [{ user_id: 2 }]);
    await create('audit', [{ name: 'order_user', references: 'orders.user_id' }]);
    await log('audit', [{ order_user: 2 }]);
    const refused = await call('PUT', '/v0/logs', { logs: [bob], entries: { user_id: 20 }, overwrite: true });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().detail).toContain("context 'audit'");
    expect((await read('users')).get(bob!)).toEqual({ user_id: 2 });
    expect((await read('orders')).get(o2!)).toEqual({ user_id: 2 });
  });

  it('POST /v0/logs/derived writing over a referenced field applies on_update', async () => {
    const t = await makeTestApp();
    const { call, create, log, read } = await setup(t);
    await create('users');
    const [ann, bob] = await log('users', [
      { uid: 1, code: 1 },
      { uid: 2, code: 2 },
    ]);
    await create('orders', [{ name: 'user_code', references: 'users.code', on_update: 'CASCADE' }]);
    const [o] = await log('orders', [{ user_code: 1 }]);
    const derive = (equation: string) =>
      call('POST', '/v0/logs/derived', { project_name: 'demo', context: 'users', key: 'code', equation, referenced_logs: { log: [ann, bob] } });
    // A derived column is answered under derived_entries.
    const codes = async () => {
      const res = await call('GET', `/v0/logs?${new URLSearchParams({ project_name: 'demo', context: 'users' })}`);
      return new Map((res.json().logs as { id: number; derived_entries: { code?: number } }[]).map((l) => [l.id, l.derived_entries.code]));
    };
    const res = await derive('{log:uid} * 100');
    expect(res.statusCode, res.body).toBe(200);
    expect((await codes()).get(ann!)).toBe(100);
    expect((await read('orders')).get(o!)).toEqual({ user_code: 100 });
    // A key that refuses (unset: NO ACTION) refuses the derived column, and nothing is written.
    await create('audit', [{ name: 'code', references: 'users.code' }]);
    await log('audit', [{ code: 200 }]);
    const refused = await derive('{log:uid} * 1000');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().detail).toContain("context 'audit'");
    expect((await codes()).get(bob!)).toBe(200);
  });

  it('renaming a context renames the keys naming it (a nested name, a context naming itself); keys naming its children keep their names', async () => {
    const t = await makeTestApp();
    const { call, create, write, log, read, del, users } = await referenced(t);
    await create('users/archive');
    await log('users/archive', [{ uid: 7 }]);
    await create('legacy', [{ name: 'uid', references: 'users/archive.uid' }]);
    await create('nodes', [{ name: 'parent', references: 'nodes.id' }]);
    await log('nodes', [{ id: 1 }]);
    const rename = (from: string, to: string) => call('PATCH', `/v0/project/demo/contexts/${from}/rename`, { name: to });
    expect((await rename('users', 'people')).statusCode).toBe(200);
    expect((await rename('org%2Fdepartments', 'org/units')).statusCode).toBe(200);
    expect((await rename('nodes', 'tree')).statusCode).toBe(200);
    const keysOf = async (context: string) =>
      (await call('GET', `/v0/project/demo/contexts/${encodeURIComponent(context)}`)).json().foreign_keys as { name: string; references: string }[];
    expect((await keysOf('orders')).map((k) => [k.name, k.references])).toEqual([
      ['user_id', 'people.user_id'],
      ['metadata.user.user_id', 'people.user_id'],
      ['tag_ids[*]', 'tags.id'],
      ['images[*].image_id', 'tags.id'],
      ['items[0].id', 'tags.id'],
      ['teams[*].members[*].user_id', 'people.user_id'],
      ['department', 'org/units.id'],
    ]);
    expect((await keysOf('tree'))[0]!.references).toBe('tree.id');
    // The child was not renamed ('users/archive' stays), nor is the key naming it.
    expect((await keysOf('legacy'))[0]!.references).toBe('users/archive.uid');
    expect((await write('legacy', [{ uid: 7 }])).statusCode).toBe(200);
    // The renamed keys are enforced under the new names.
    const [order] = await log('orders', [fullOrder]);
    const bad = await write('orders', [{ user_id: 3 }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toContain("context 'people'");
    expect((await write('tree', [{ id: 2, parent: 1 }])).statusCode).toBe(200);
    expect((await write('tree', [{ id: 3, parent: 9 }])).statusCode).toBe(400);
    const refused = await del('people', [users[0]!]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("context 'orders'");
    expect((await read('orders')).get(order!)).toEqual(fullOrder);
  });

  it('renaming a field through /v0/logs/rename_field renames the keys: a referenced column and a referencing path follow', async () => {
    const t = await makeTestApp();
    const { call, create, write, log, read } = await setup(t);
    await create('users');
    await create('tags');
    const [ann, bob] = await log('users', [{ user_id: 1 }, { user_id: 2 }]);
    await log('tags', [{ id: 'a' }]);
    await create('orders', [
      { name: 'user_id', references: 'users.user_id' },
      { name: 'metadata.user.user_id', references: 'users.user_id' },
      { name: 'tag_ids[*]', references: 'tags.id' },
    ]);
    await create('nodes', [{ name: 'parent', references: 'nodes.id' }]);
    const [order] = await log('orders', [{ user_id: 1, metadata: { user: { user_id: 2 } }, tag_ids: ['a'] }]);
    await log('nodes', [{ id: 1 }, { id: 2, parent: 1 }]);
    const rename = (context: string, from: string, to: string) =>
      call('PATCH', '/v0/logs/rename_field', { project_name: 'demo', context, old_field_name: from, new_field_name: to });
    const keysOf = async (context: string) =>
      (await call('GET', `/v0/project/demo/contexts/${context}`)).json().foreign_keys as {
        name: string;
        references: string;
        is_nested: boolean;
        path_segments: { name: string }[];
      }[];
    for (const [context, from, to] of [
      ['users', 'user_id', 'uid'],
      ['orders', 'user_id', 'owner_id'],
      ['orders', 'metadata', 'meta'],
      ['orders', 'tag_ids', 'tags'],
      ['nodes', 'id', 'node_id'],
      ['nodes', 'parent', 'up'],
    ]) {
      const res = await rename(context!, from!, to!);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await keysOf('orders')).map((k) => [k.name, k.references, k.is_nested, k.path_segments.map((s) => s.name)])).toEqual([
      ['owner_id', 'users.uid', false, ['owner_id']],
      ['meta.user.user_id', 'users.uid', true, ['meta', 'user', 'user_id']],
      ['tags[*]', 'tags.id', true, ['tags']],
    ]);
    expect((await keysOf('nodes')).map((k) => [k.name, k.references])).toEqual([['up', 'nodes.node_id']]);
    expect((await read('orders')).get(order!)).toEqual({ owner_id: 1, meta: { user: { user_id: 2 } }, tags: ['a'] });
    // Enforced under the new names.
    expect((await write('orders', [{ owner_id: 2, meta: { user: { user_id: 1 } }, tags: ['a'] }])).statusCode).toBe(200);
    for (const entries of [{ owner_id: 3 }, { meta: { user: { user_id: 3 } } }, { tags: ['zz'] }]) {
      expect((await write('orders', [entries])).statusCode, JSON.stringify(entries)).toBe(400);
    }
    expect((await write('nodes', [{ node_id: 3, up: 2 }])).statusCode).toBe(200);
    expect((await write('nodes', [{ node_id: 4, up: 9 }])).statusCode).toBe(400);
    // A new name a key cannot hold ('.', '[', ']' or spaces would read as a path) is refused; nothing is renamed.
    for (const [context, from, to] of [
      ['orders', 'owner_id', 'owner.id'],
      ['orders', 'meta', 'm[0]'],
      ['users', 'uid', 'u.id'],
      ['users', 'uid', 'u id'],
    ]) {
      const res = await rename(context!, from!, to!);
      expect(res.statusCode, `${from} → ${to}`).toBe(400);
      expect(res.json().detail).toContain('foreign key');
    }
    expect((await read('orders')).get(order!)).toEqual({ owner_id: 1, meta: { user: { user_id: 2 } }, tags: ['a'] });
    expect(await read('users')).toEqual(
      new Map([
        [ann, { uid: 1 }],
        [bob, { uid: 2 }],
      ]),
    );
    expect((await keysOf('orders'))[0]!.references).toBe('users.uid');
  });

  it("renaming a field of logs shared with a referenced context: the values leave that context and its keys' on_delete applies", async () => {
    const t = await makeTestApp();
    const { call, create, log, read } = await setup(t);
    await create('users');
    const [ann] = await log('users', [{ uid: 1 }]);
    expect((await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'staff', log_ids: [ann] })).statusCode).toBe(200);
    await create('badges', [{ name: 'holder', references: 'staff.uid' }]);
    await log('badges', [{ holder: 1 }]);
    const rename = () => call('PATCH', '/v0/logs/rename_field', { project_name: 'demo', context: 'users', old_field_name: 'uid', new_field_name: 'user_id' });
    const refused = await rename();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("context 'badges'");
    expect([...(await read('users')).values()]).toEqual([{ uid: 1 }]);
    await call('DELETE', '/v0/project/demo/contexts/badges');
    await create('badges', [{ name: 'holder', references: 'staff.uid', on_delete: 'SET NULL' }]);
    const [badge] = await log('badges', [{ holder: 1 }]);
    expect((await rename()).statusCode).toBe(200);
    expect((await read('badges')).get(badge!)).toEqual({ holder: null });
  });

  it("PUT /v0/logs on logs shared with a referenced context: that context's keys take their on_update", async () => {
    const t = await makeTestApp();
    const { call, create, log, read } = await setup(t);
    await create('users');
    const [ann] = await log('users', [{ uid: 1 }]);
    expect((await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'staff', log_ids: [ann] })).statusCode).toBe(200);
    await create('badges', [{ name: 'holder', references: 'staff.uid', on_update: 'CASCADE' }]);
    await create('audit', [{ name: 'who', references: 'staff.uid' }]);
    const [badge] = await log('badges', [{ holder: 1 }]);
    const [entry] = await log('audit', [{ who: 1 }]);
    const put = (uid: number) => call('PUT', '/v0/logs', { logs: [ann], context: 'users', entries: { uid }, overwrite: true });
    // NO ACTION on 'audit': the old value would leave 'staff', so the update is refused.
    const refused = await put(5);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("context 'audit'");
    expect((await read('staff')).get(ann!)).toEqual({ uid: 1 });
    await call('DELETE', '/v0/logs', { project_name: 'demo', context: 'audit', ids_and_fields: [[[entry], null]] });
    expect((await put(5)).statusCode).toBe(200);
    expect((await read('badges')).get(badge!)).toEqual({ holder: 5 });
  });

  it("removing a field of logs shared with a referenced context through DELETE /v0/logs: that context's keys take their on_delete", async () => {
    const t = await makeTestApp();
    const { call, create, log, read, del } = await setup(t);
    await create('users');
    const [ann, bob] = await log('users', [{ uid: 1 }, { uid: 2 }]);
    expect((await call('POST', '/v0/project/demo/contexts/add_logs', { context_name: 'staff', log_ids: [ann, bob] })).statusCode).toBe(200);
    await create('badges', [{ name: 'holder', references: 'staff.uid' }]);
    await log('badges', [{ holder: 1 }]);
    // NO ACTION: the value would leave 'staff' (the entries are shared), so the removal is refused whole.
    for (const ids of [[ann!], null]) {
      const refused = await del('users', ids, ['uid']);
      expect(refused.statusCode, JSON.stringify(ids)).toBe(400);
      expect(refused.json().detail).toContain("context 'badges'");
    }
    expect(await read('staff')).toEqual(
      new Map([
        [ann, { uid: 1 }],
        [bob, { uid: 2 }],
      ]),
    );
    await call('DELETE', '/v0/project/demo/contexts/badges');
    await create('badges', [{ name: 'holder', references: 'staff.uid', on_delete: 'SET NULL' }]);
    const [first, second] = await log('badges', [{ holder: 1 }, { holder: 2 }]);
    expect((await del('users', [ann!], ['uid'])).statusCode).toBe(200);
    expect(await read('badges')).toEqual(
      new Map([
        [first, { holder: null }],
        [second, { holder: 2 }],
      ]),
    );
  });

  it('deleting a referenced field through DELETE /v0/logs/fields applies on_delete; RESTRICT refuses and deletes nothing', async () => {
    const t = await makeTestApp();
    const { call, create, log, read, del } = await setup(t);
    await create('users');
    const [ann, bob] = await log('users', [
      { user_id: 1, name: 'ann' },
      { user_id: 2, name: 'bob' },
    ]);
    await create('audit', [{ name: 'who', references: 'users.name', on_delete: 'RESTRICT' }]);
    await create('orders', [{ name: 'user_id', references: 'users.user_id', on_delete: 'SET NULL' }]);
    await create('notes', [{ name: 'uid', references: 'users.user_id', on_delete: 'CASCADE' }]);
    await log('audit', [{ who: 'ann' }]);
    const [order] = await log('orders', [{ user_id: 1 }]);
    const [, keep] = await log('notes', [{ uid: 2 }, { text: 'no reference' }]);
    const drop = (fields: string[]) => call('DELETE', '/v0/logs/fields', { project_name: 'demo', context: 'users', fields });
    const refused = await drop(['user_id', 'name']);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("context 'audit'");
    expect(await read('users')).toEqual(
      new Map([
        [ann, { user_id: 1, name: 'ann' }],
        [bob, { user_id: 2, name: 'bob' }],
      ]),
    );
    expect((await read('notes')).size).toBe(2);
    const res = await drop(['user_id']);
    expect(res.statusCode, res.body).toBe(200);
    expect(await read('users')).toEqual(
      new Map([
        [ann, { name: 'ann' }],
        [bob, { name: 'bob' }],
      ]),
    );
    expect((await read('orders')).get(order!)).toEqual({ user_id: null });
    expect([...(await read('notes')).keys()]).toEqual([keep]);
    // A context referencing itself: its logs lose the referenced field and their references are cleared
    // (not refused as references to the values going), here and through DELETE /v0/logs with fields.
    for (const [name, remove] of [
      ['nodes', () => call('DELETE', '/v0/logs/fields', { project_name: 'demo', context: 'nodes', fields: ['id'] })],
      ['tree', () => del('tree', null, ['id'])],
    ] as const) {
      await create(name, [{ name: 'parent', references: `${name}.id`, on_delete: 'SET NULL' }]);
      const [root, leaf] = await log(name, [
        { id: 1, label: 'root' },
        { id: 2, parent: 1 },
      ]);
      const removed = await remove();
      expect(removed.statusCode, removed.body).toBe(200);
      expect(await read(name)).toEqual(
        new Map([
          [root, { label: 'root' }],
          [leaf, { parent: null }],
        ]),
      );
    }
  });

  it('an atomic update applies on_update to a referenced value and checks a referencing one', async () => {
    const t = await makeTestApp();
    const { call, create, log, read } = await setup(t);
    await create('users');
    const [ann, bob] = await log('users', [{ user_id: 1 }, { user_id: 2 }]);
    await create('orders', [{ name: 'user_id', references: 'users.user_id', on_update: 'CASCADE' }]);
    const [o1, o2] = await log('orders', [{ user_id: 1 }, { user_id: 2 }]);
    const atomic = (id: number, field: string, operation: string) => call('PATCH', `/v0/logs/${id}/fields/${field}/atomic`, { operation });
    const res = await atomic(ann!, 'user_id', '+10');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ new_value: 11 });
    expect((await read('orders')).get(o1!)).toEqual({ user_id: 11 });
    // NO ACTION (unset) refuses, and nothing changes.
    await create('audit', [{ name: 'uid', references: 'users.user_id' }]);
    await log('audit', [{ uid: 2 }]);
    const refused = await atomic(bob!, 'user_id', '*3');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("context 'audit'");
    expect(refused.json().detail).toContain('on_update NO ACTION');
    expect((await read('users')).get(bob!)).toEqual({ user_id: 2 });
    expect((await read('orders')).get(o2!)).toEqual({ user_id: 2 });
    // The referencing field: a value that references nothing is refused.
    const dangling = await atomic(o2!, 'user_id', '+100');
    expect(dangling.statusCode).toBe(400);
    expect(dangling.json().detail).toContain("'user_id' = 102");
    expect((await read('orders')).get(o2!)).toEqual({ user_id: 2 });
    expect((await atomic(o2!, 'user_id', '+9')).statusCode).toBe(200);
    expect((await read('orders')).get(o2!)).toEqual({ user_id: 11 });
  });

  it('a rollback to a commit applies on_delete to the values it takes away, and holds the logs it restores to the keys', async () => {
    const t = await makeTestApp();
    const { call, create, log, read, del } = await setup(t);
    const versioned = async (name: string, foreign_keys: unknown[] | null = null) =>
      expect((await call('POST', '/v0/project/demo/contexts', { name, is_versioned: true, foreign_keys })).statusCode).toBe(200);
    const commit = async (context: string) => (await call('POST', `/v0/project/demo/contexts/${context}/commit`, {})).json().commit_hash as string;
    const rollback = (context: string, hash: string) => call('POST', `/v0/project/demo/contexts/${context}/rollback`, { commit_hash: hash });
    await versioned('users');
    const [ann] = await log('users', [{ user_id: 1 }]);
    const A = await commit('users');
    const [bob] = await log('users', [{ user_id: 2 }]);
    await create('orders', [{ name: 'user_id', references: 'users.user_id' }]);
    await create('notes', [{ name: 'uid', references: 'users.user_id', on_delete: 'CASCADE' }]);
    const [order] = await log('orders', [{ user_id: 2 }]);
    await log('notes', [{ uid: 2 }]);
    const refused = await rollback('users', A);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toContain("context 'orders'");
    expect([...(await read('users')).keys()].sort()).toEqual([ann, bob].sort());
    expect((await read('notes')).size).toBe(1);
    expect((await del('orders', [order!])).statusCode).toBe(200);
    const back = await rollback('users', A);
    expect(back.statusCode, back.body).toBe(200);
    expect([...(await read('users')).keys()]).toEqual([ann]);
    expect((await read('notes')).size).toBe(0);
    // The restored logs' references are checked: one referencing a user gone since is refused, nothing rolls back.
    await versioned('tasks', [{ name: 'owner', references: 'users.user_id' }]);
    const [task] = await log('tasks', [{ owner: 1 }]);
    const T = await commit('tasks');
    expect((await call('PUT', '/v0/logs', { logs: [task], entries: { owner: null }, overwrite: true })).statusCode).toBe(200);
    expect((await del('users', [ann!])).statusCode).toBe(200);
    const dangling = await rollback('tasks', T);
    expect(dangling.statusCode).toBe(400);
    expect(dangling.json().detail).toContain("'owner' = 1");
    expect((await read('tasks')).get(task!)).toEqual({ owner: null });
  });

  it('concurrent writes and deletes never leave a dangling reference', async () => {
    const t = await makeTestApp();
    const { create, write, log, read, del } = await setup(t);
    await create('users');
    await create('orders', [{ name: 'user_id', references: 'users.user_id' }]);
    for (let round = 0; round < 10; round++) {
      const [user] = await log('users', [{ user_id: round }]);
      const [wrote, deleted] = await Promise.all([write('orders', [{ user_id: round }]), del('users', [user!])]);
      // One of the two wins: the order is written and the delete refused (NO ACTION), or the reverse.
      expect([wrote.statusCode, deleted.statusCode].sort(), `${wrote.body} ${deleted.body}`).toEqual([200, 400]);
    }
    const users = new Set([...(await read('users')).values()].map((e) => e.user_id));
    for (const order of (await read('orders')).values()) expect(users.has(order.user_id)).toBe(true);
  });
});
