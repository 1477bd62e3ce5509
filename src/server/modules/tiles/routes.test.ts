import { describe, expect, it } from 'vitest';
import type { ResponseOf } from '../../../shared/operation.ts';
import { listInterfaces } from '../../../shared/operations/tiles.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { makeTestApp, type TestApp, type TestUser } from '../../testing/harness.ts';

// These tests drive the real project and context endpoints (issue 4) through the tiles routes.

type Response = Awaited<ReturnType<TestApp['request']>>;

async function ok(res: Response, status = 200) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** A project with a Tasks context (three columns, two rows), an interface, a tab and a table tile. */
async function setup(t: TestApp, u?: TestUser, project = 'demo', key?: string) {
  const user = u ?? (await t.user());
  const k = key ?? user.apiKey;
  await ok(await t.request('POST', '/v0/project', { key: k, json: { name: project } }));
  await ok(await t.request('POST', `/v0/project/${project}/contexts`, { key: k, json: { name: 'Tasks' } }));
  await ok(
    await t.request('POST', `/v0/project/${project}/contexts/Tasks/logs`, {
      key: k,
      json: {
        entries: [
          { title: 'Write', status: 'open', priority: 1 },
          { title: 'Ship', status: 'done', priority: 2 },
        ],
      },
    }),
  );
  const iface = (await ok(await t.request('POST', `/v0/project/${project}/interfaces`, { key: k, json: { name: 'Main' } }), 201)).info;
  const tab = (await ok(await t.request('POST', `/v0/interface/${iface.id}/tabs`, { key: k, json: { name: 'Overview' } }), 201)).info;
  const tile = (
    await ok(
      await t.request('POST', `/v0/tab/${tab.id}/tiles`, {
        key: k,
        json: {
          name: 'Open tasks',
          type: 'Table',
          position: { x: 0, y: 0, width: 6, height: 4 },
          context: 'Tasks',
          table_tile: { table_type: 'default', column_order: ['title', 'status'] },
        },
      }),
      201,
    )
  ).info;
  return { user, key: k, project, iface, tab, tile };
}

const template = (extra: Record<string, unknown> = {}) => ({
  name: 'Imported',
  type: 'Table',
  position: { x: 0, y: 4, width: 6, height: 4 },
  context: 'Tasks',
  table_tile: { table_type: 'default', column_order: ['status', 'title'] },
  template_version: '1.0',
  description: null,
  tags: [],
  ...extra,
});

async function tilesOf(t: TestApp, key: string, project: string) {
  const list: ResponseOf<typeof listInterfaces>['info'] = (await ok(await t.request('GET', `/v0/project/${project}/interfaces`, { key }))).info;
  return list.flatMap((i) => i.tabs.flatMap((tab) => tab.tiles.map((tile) => ({ ...tile, tab: tab.name }))));
}

describe('interfaces, tabs and tiles', () => {
  it('returns a project with its interfaces, ordered tabs and tiles in one call', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    await ok(await t.request('POST', `/v0/interface/${s.iface.id}/tabs`, { key: s.key, json: { name: 'Second' } }), 201);
    const body = await ok(await t.request('GET', '/v0/project/demo/interfaces', { key: s.key }));
    expect(body.info).toHaveLength(1);
    expect(body.info[0]).toMatchObject({ id: s.iface.id, project: 'demo', name: 'Main' });
    expect(body.info[0].tabs.map((x: { name: string; order: number }) => [x.name, x.order])).toEqual([
      ['Overview', 0],
      ['Second', 1],
    ]);
    expect(body.info[0].tabs[0].tiles).toEqual([
      expect.objectContaining({
        id: s.tile.id,
        name: 'Open tasks',
        type: 'Table',
        position: { x: 0, y: 0, width: 6, height: 4 },
        context: 'Tasks',
        table_tile: { table_type: 'default', column_order: ['title', 'status'] },
        plot_tile: null,
        has_checkpoint: false,
        created_by: s.user.userId,
      }),
    ]);
  });

  it('unknown project → 404; duplicate interface or tab name → 409', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    expect((await t.request('GET', '/v0/project/nope/interfaces', { key: s.key })).json()).toEqual({ detail: 'Project not found.' });
    expect((await t.request('POST', '/v0/project/demo/interfaces', { key: s.key, json: { name: 'Main' } })).statusCode).toBe(409);
    expect((await t.request('POST', `/v0/interface/${s.iface.id}/tabs`, { key: s.key, json: { name: 'Overview' } })).statusCode).toBe(409);
  });

  it('moves and resizes a tile (saved), refuses off-grid positions and unknown columns with 422', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const moved = await ok(await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { position: { x: 6, y: 2, width: 6, height: 3 } } }));
    expect(moved.info.position).toEqual({ x: 6, y: 2, width: 6, height: 3 });
    expect((await tilesOf(t, s.key, 'demo'))[0].position).toEqual({ x: 6, y: 2, width: 6, height: 3 });
    const off = await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { position: { x: 10, y: 0, width: 6, height: 3 } } });
    expect(off.statusCode).toBe(422);
    expect(off.json().detail[0].loc).toEqual(['body', 'position', 'x']);
    const cols = await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { table_tile: { column_order: ['title', 'ghost'] } } });
    expect(cols.statusCode).toBe(422);
    expect(cols.json().detail[0].msg).toMatch(/Column 'ghost' does not exist in context 'Tasks'/);
    const ctx = await t.request('POST', `/v0/tab/${s.tab.id}/tiles`, { key: s.key, json: { name: 'x', position: { x: 0, y: 0, width: 2, height: 2 }, context: 'Nope' } });
    expect(ctx.statusCode).toBe(422);
  });

  it("renaming a context moves the project's tiles that show it to the new name, and no other project's", async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    await setup(t, s.user, 'other');
    await ok(await t.request('PATCH', '/v0/project/demo/contexts/Tasks/rename', { key: s.key, json: { name: 'Todo' } }));
    expect((await tilesOf(t, s.key, 'demo')).map((tile) => tile.context)).toEqual(['Todo']);
    expect((await tilesOf(t, s.key, 'other')).map((tile) => tile.context)).toEqual(['Tasks']);
    // The tile still saves: its context exists under the new name.
    await ok(await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { table_tile: { column_order: ['status', 'title'] } } }));
  });

  it('deletes tiles, tabs and interfaces (cascading), foreign ids are 404', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const other = await t.user();
    for (const url of [`/v0/tile/${s.tile.id}`, `/v0/tab/${s.tab.id}`, `/v0/interface/${s.iface.id}`]) {
      expect((await t.request('DELETE', url, { key: other.apiKey })).statusCode).toBe(404);
    }
    expect((await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: other.apiKey, json: { name: 'mine' } })).statusCode).toBe(404);
    expect((await t.request('POST', `/v0/tile/${s.tile.id}/checkpoint`, { key: other.apiKey })).statusCode).toBe(404);
    expect(await ok(await t.request('DELETE', `/v0/interface/${s.iface.id}`, { key: s.key }))).toEqual({ info: 'Interface deleted successfully.' });
    expect(await t.db.selectFrom('tiles').selectAll().where('id', '=', s.tile.id).execute()).toEqual([]);
    expect((await t.request('DELETE', `/v0/tile/${s.tile.id}`, { key: s.key })).statusCode).toBe(404);
  });

  it('a Viewer org key reads but cannot write (403)', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const viewer = await t.user();
    const o = await t.org(owner);
    const ownerKey = o.ownerKey;
    const s = await setup(t, owner, 'orgproj', ownerKey);
    const viewerKey = await t.member(o.organizationId, viewer, ROLE_IDS.Viewer);
    expect((await t.request('GET', '/v0/project/orgproj/interfaces', { key: viewerKey })).statusCode).toBe(200);
    const denied = await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: viewerKey, json: { name: 'x' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe(`Missing permission project:write in organization ${o.organizationId}.`);
    // The owner's personal key does not see the org's project.
    expect((await t.request('GET', '/v0/project/orgproj/interfaces', { key: owner.apiKey })).statusCode).toBe(404);
  });
});

describe('POST /v0/tile/export_template', () => {
  it('exports by tile_id with metadata', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const body = await ok(
      await t.request('POST', '/v0/tile/export_template', {
        key: s.key,
        json: { tile_id: s.tile.id, description: 'Open work', tags: ['ops'], template_name: 'Open tasks v1' },
      }),
    );
    expect(body.template).toEqual({
      name: 'Open tasks',
      type: 'Table',
      position: { x: 0, y: 0, width: 6, height: 4 },
      context: 'Tasks',
      table_tile: { table_type: 'default', column_order: ['title', 'status'] },
      template_version: '1.0',
      description: 'Open work',
      tags: ['ops'],
      created_by: s.user.userId,
    });
    expect(body.metadata).toEqual({
      exported_at: t.clock.now().toISOString(),
      exported_by: s.user.userId,
      source_tab: { id: s.tab.id, name: 'Overview', interface: 'Main' },
      template_name: 'Open tasks v1',
    });
    expect(body.export_stats).toEqual({ tiles: 1 });
  });

  it('exports by tab_id + tile_name; include_metadata:false keeps only exported_at and drops created_by', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const body = await ok(
      await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tab_id: s.tab.id, tile_name: 'Open tasks', include_metadata: false } }),
    );
    expect(body.template.name).toBe('Open tasks');
    expect(body.template).not.toHaveProperty('created_by');
    expect(Object.keys(body.metadata)).toEqual(['exported_at']);
    const missing = await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tab_id: s.tab.id, tile_name: 'Nope' } });
    expect(missing.statusCode).toBe(404);
  });

  it('neither selector → 400 with the rule; tab_id alone is not enough', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    for (const json of [{}, { tab_id: s.tab.id }, { tile_name: 'Open tasks' }, { tile_id: null }]) {
      const res = await t.request('POST', '/v0/tile/export_template', { key: s.key, json });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Either tile_id or both tab_id and tile_name must be provided.' });
    }
  });

  it('checkpoint:true exports the saved copy, 404 when none was saved', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const none = await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tile_id: s.tile.id, checkpoint: true } });
    expect(none.statusCode).toBe(404);
    expect(none.json().detail).toMatch(/has no checkpoint/);
    const cp = await ok(await t.request('POST', `/v0/tile/${s.tile.id}/checkpoint`, { key: s.key }));
    expect(cp.info.has_checkpoint).toBe(true);
    await ok(await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { name: 'Renamed', position: { x: 2, y: 1, width: 4, height: 2 } } }));
    const saved = await ok(await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tile_id: s.tile.id, checkpoint: true } }));
    expect(saved.template).toMatchObject({ name: 'Open tasks', position: { x: 0, y: 0, width: 6, height: 4 } });
    const current = await ok(await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tile_id: s.tile.id } }));
    expect(current.template).toMatchObject({ name: 'Renamed', position: { x: 2, y: 1, width: 4, height: 2 } });
  });

  it("another tenant's tile or tab is 404", async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const other = await t.user();
    const byId = await t.request('POST', '/v0/tile/export_template', { key: other.apiKey, json: { tile_id: s.tile.id } });
    expect(byId.statusCode).toBe(404);
    expect(byId.json()).toEqual({ detail: 'Tile not found.' });
    const byTab = await t.request('POST', '/v0/tile/export_template', { key: other.apiKey, json: { tab_id: s.tab.id, tile_name: 'Open tasks' } });
    expect(byTab.statusCode).toBe(404);
  });
});

describe('POST /v0/tile/import_template', () => {
  it('imports into a tab by id; the tile is listed with its content', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const body = await ok(await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', tab_id: s.tab.id, template: template() } }));
    expect(body).toEqual({
      success: true,
      validation_result: { valid: true, issues: [] },
      import_stats: { tiles: 1 },
      created_ids: { tile_id: expect.any(String), tab_id: s.tab.id },
      warnings: [],
    });
    const tiles = await tilesOf(t, s.key, 'demo');
    expect(tiles.find((x) => x.id === body.created_ids.tile_id)).toMatchObject({
      name: 'Imported',
      table_tile: { column_order: ['status', 'title'] },
      created_by: s.user.userId,
    });
  });

  it('accepts column_order as a JSON-encoded string', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const body = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: s.key,
        json: { project: 'demo', tab_id: s.tab.id, template: template({ table_tile: { table_type: 'default', column_order: '["priority","title"]' } }) },
      }),
    );
    const tile = (await tilesOf(t, s.key, 'demo')).find((x) => x.id === body.created_ids.tile_id);
    expect(tile?.table_tile?.column_order).toEqual(['priority', 'title']);
  });

  it('unknown columns with validate_first and no sanitizing → 422 with the issues, nothing created', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const before = await t.db.selectFrom('tiles').select('id').execute();
    const res = await t.request('POST', '/v0/tile/import_template', {
      key: s.key,
      json: {
        project: 'demo',
        interface_id: s.iface.id,
        tab_name: 'Brand new',
        validate_first: true,
        auto_sanitize: false,
        template: template({ table_tile: { table_type: 'default', column_order: ['title', 'ghost', 'phantom'] } }),
      },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.validation_result.valid).toBe(false);
    expect(body.validation_result.issues).toEqual([
      { level: 'error', component: 'table_tile.column_order', message: "Column 'ghost' does not exist in context 'Tasks'.", suggested_fix: expect.any(String) },
      { level: 'error', component: 'table_tile.column_order', message: "Column 'phantom' does not exist in context 'Tasks'.", suggested_fix: expect.any(String) },
    ]);
    expect(body.detail[0]).toMatchObject({ type: 'template_invalid', loc: ['body', 'template', 'table_tile', 'column_order'] });
    expect(await t.db.selectFrom('tiles').select('id').execute()).toEqual(before);
    // The missing tab was not created either.
    expect(await t.db.selectFrom('tabs').select('id').where('name', '=', 'Brand new').execute()).toEqual([]);
  });

  it('the same with auto_sanitize → created, columns dropped, one warning per fix', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const body = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: s.key,
        json: {
          project: 'demo',
          tab_id: s.tab.id,
          template: template({ color: 'red', position: { x: 9, y: 4, width: 6, height: 4 }, table_tile: { column_order: ['title', 'ghost', 'phantom'] } }),
        },
      }),
    );
    expect(body.success).toBe(true);
    expect(body.validation_result.valid).toBe(false);
    expect(body.validation_result.issues).toHaveLength(4);
    expect(body.warnings).toEqual([
      "Dropped unknown key 'color'.",
      'Clamped position.x from 9 to 6 to fit the 12-column grid.',
      "Dropped unknown column 'ghost' from column_order.",
      "Dropped unknown column 'phantom' from column_order.",
    ]);
    const tile = (await tilesOf(t, s.key, 'demo')).find((x) => x.id === body.created_ids.tile_id);
    expect(tile?.table_tile?.column_order).toEqual(['title']);
    expect(tile?.position).toEqual({ x: 6, y: 4, width: 6, height: 4 });
  });

  it('what sanitizing cannot fix (a context the project lacks) is still 422', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const res = await t.request('POST', '/v0/tile/import_template', {
      key: s.key,
      json: { project: 'demo', tab_id: s.tab.id, template: template({ context: 'Ghost' }) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().validation_result.issues[0]).toMatchObject({ component: 'context', level: 'error' });
  });

  it('validate_first:false skips the check (and reports no validation result)', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const body = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: s.key,
        json: { project: 'demo', tab_id: s.tab.id, validate_first: false, auto_sanitize: false, template: template({ context: 'Elsewhere' }) },
      }),
    );
    expect(body.validation_result).toBeNull();
    expect(body.warnings).toEqual([]);
  });

  it('name clash → 409; overwrite_existing replaces with a warning; new_tile_name avoids it', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const json = { project: 'demo', tab_id: s.tab.id, template: template({ name: 'Open tasks' }) };
    const clash = await t.request('POST', '/v0/tile/import_template', { key: s.key, json });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ detail: 'Tile with name Open tasks already exists. Use overwrite_existing=true to replace it.' });

    const renamed = await ok(await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { ...json, new_tile_name: 'Open tasks (copy)' } }));
    expect(renamed.warnings).toEqual([]);

    const replaced = await ok(await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { ...json, overwrite_existing: true } }));
    expect(replaced.warnings).toEqual([
      `Replaced the existing tile Open tasks (id ${s.tile.id}).`,
      // The copy took the template's spot; the replaced tile's spot (0,0, six wide) is free again.
      'Placed the tile at x 0, y 0: its spot at x 0, y 4 is taken by other tiles of the tab.',
    ]);
    const tiles = await tilesOf(t, s.key, 'demo');
    expect(tiles.map((x) => x.name).sort()).toEqual(['Open tasks', 'Open tasks (copy)']);
    expect(tiles.find((x) => x.name === 'Open tasks')?.table_tile?.column_order).toEqual(['status', 'title']);
    expect(tiles.some((x) => x.id === s.tile.id)).toBe(false);
  });

  it('concurrent imports of one name into one tab: one tile, the others 409', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const json = { project: 'demo', tab_id: s.tab.id, template: template({ name: 'Race' }) };
    const results = await Promise.all(Array.from({ length: 6 }, () => t.request('POST', '/v0/tile/import_template', { key: s.key, json })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('target by interface + tab name: the tab is created when missing, with a warning', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const body = await ok(
      await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', interface_id: s.iface.id, tab_name: 'Imports', template: template() } }),
    );
    expect(body.warnings).toEqual(['Tab Imports did not exist in interface Main and was created.']);
    const again = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: s.key,
        json: { project: 'demo', interface_id: s.iface.id, tab_name: 'Imports', template: template(), new_tile_name: 'Second' },
      }),
    );
    // The first copy holds the template's spot; the second goes to the first free one.
    expect(again.warnings).toEqual(['Placed the tile at x 0, y 0: its spot at x 0, y 4 is taken by other tiles of the tab.']);
    expect(again.created_ids.tab_id).toBe(body.created_ids.tab_id);
  });

  it('no target → 422; unknown project, tab or interface → 404', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const none = await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', template: template() } });
    expect(none.statusCode).toBe(422);
    expect(none.json().detail[0]).toMatchObject({ loc: ['body', 'tab_id'] });
    const onlyName = await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', tab_name: 'x', template: template() } });
    expect(onlyName.statusCode).toBe(422);
    const project = await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'nope', tab_id: s.tab.id, template: template() } });
    expect(project.statusCode).toBe(404);
    expect(project.json()).toEqual({ detail: 'Project not found.' });
    expect((await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', tab_id: 'nope', template: template() } })).statusCode).toBe(404);
    expect(
      (await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', interface_id: 'nope', tab_name: 'x', template: template() } }))
        .statusCode,
    ).toBe(404);
  });

  it('a tab of another project of the same user is 404 (the tab must be in the named project)', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    await ok(await t.request('POST', '/v0/project', { key: s.key, json: { name: 'other' } }));
    const res = await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'other', tab_id: s.tab.id, template: template() } });
    expect(res.statusCode).toBe(404);
  });

  it('malformed templates → 422: missing name, string position, 1 MB of nested junk, not an object', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const before = await t.db.selectFrom('tiles').select('id').execute();
    const send = (tpl: unknown) => t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', tab_id: s.tab.id, template: tpl } });
    const noName = await send({ position: { x: 0, y: 0, width: 1, height: 1 } });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().detail).toEqual([{ type: 'missing', loc: ['body', 'template', 'name'], msg: 'Field required' }]);
    const strPos = await send({ name: 'x', position: '0,0,1,1' });
    expect(strPos.statusCode).toBe(422);
    expect(strPos.json().detail[0].loc).toEqual(['body', 'template', 'position']);
    const junk =
      '{"project":"demo","tab_id":"' +
      s.tab.id +
      '","template":{"name":"x","position":{"x":0,"y":0,"width":1,"height":1},"junk":' +
      '['.repeat(500_000) +
      ']'.repeat(500_000) +
      '}}';
    const deep = await t.request('POST', '/v0/tile/import_template', { key: s.key, payload: junk, headers: { 'content-type': 'application/json' } });
    expect(deep.statusCode).toBe(422);
    expect(JSON.stringify(deep.json())).toMatch(/nested too deeply|json_invalid/);
    const wide = await send({ name: 'x', position: { x: 0, y: 0, width: 1, height: 1 }, junk: Array.from({ length: 50_000 }, (_, i) => ({ k: i })) });
    expect(wide.statusCode).toBe(422);
    expect(wide.json().detail[0].msg).toMatch(/too large/);
    expect((await send([1, 2])).statusCode).toBe(422);
    expect((await send(undefined)).statusCode).toBe(422);
    expect((await send({ name: 'a\u0000b', position: { x: 0, y: 0, width: 1, height: 1 } })).statusCode).toBe(422);
    expect(await t.db.selectFrom('tiles').select('id').execute()).toEqual(before);
  });

  it('round trip across users: exported by one, imported by another into their own project', async () => {
    const t = await makeTestApp();
    const a = await setup(t);
    const b = await setup(t, undefined, 'theirs');
    const exported = await ok(await t.request('POST', '/v0/tile/export_template', { key: a.key, json: { tile_id: a.tile.id } }));
    const imported = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: b.key,
        json: { project: 'theirs', interface_id: b.iface.id, tab_name: 'From A', template: exported.template },
      }),
    );
    expect(imported.validation_result).toEqual({ valid: true, issues: [] });
    const tile = (await tilesOf(t, b.key, 'theirs')).find((x) => x.id === imported.created_ids.tile_id);
    expect(tile).toMatchObject({
      name: 'Open tasks',
      tab: 'From A',
      created_by: b.user.userId,
      table_tile: exported.template.table_tile,
      position: exported.template.position,
    });
    // And B cannot import into A's project.
    const foreign = await t.request('POST', '/v0/tile/import_template', { key: b.key, json: { project: 'demo', tab_id: a.tab.id, template: exported.template } });
    expect(foreign.statusCode).toBe(404);
  });

  it('a Viewer cannot import (403) but can export', async () => {
    const t = await makeTestApp();
    const owner = await t.user();
    const viewer = await t.user();
    const o = await t.org(owner);
    const s = await setup(t, owner, 'orgproj', o.ownerKey);
    const viewerKey = await t.member(o.organizationId, viewer, ROLE_IDS.Viewer);
    expect((await t.request('POST', '/v0/tile/export_template', { key: viewerKey, json: { tile_id: s.tile.id } })).statusCode).toBe(200);
    const res = await t.request('POST', '/v0/tile/import_template', { key: viewerKey, json: { project: 'orgproj', tab_id: s.tab.id, template: template() } });
    expect(res.statusCode).toBe(403);
  });
});

describe('starter project', () => {
  it('a new user can export the starter tile straight away', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const projects = await ok(await t.request('GET', '/v0/projects', { key: u.apiKey }));
    expect(projects).toEqual(['Starter']);
    const list = (await ok(await t.request('GET', '/v0/project/Starter/interfaces', { key: u.apiKey }))).info;
    const tile = list[0].tabs[0].tiles[0];
    expect(tile).toMatchObject({ type: 'Table', context: 'Tasks' });
    const exported = await ok(await t.request('POST', '/v0/tile/export_template', { key: u.apiKey, json: { tile_id: tile.id } }));
    expect(exported.template.context).toBe('Tasks');
    const rows = await ok(await t.request('GET', '/v0/project/Starter/contexts/Tasks/logs', { key: u.apiKey }));
    expect(rows.count).toBeGreaterThan(0);
    for (const column of exported.template.table_tile.column_order) expect(Object.keys(rows.logs[0].entries)).toContain(column);
  });
});

describe('placement: no tile lands on another (issue 20, item 15)', () => {
  it('an imported tile whose spot is taken goes to the first free spot of its size, with a warning', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    // The setup tile covers x 0–5, y 0–3: a 6-wide tile fits beside it, a 12-wide one only below it.
    const beside = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: s.key,
        json: { project: 'demo', tab_id: s.tab.id, template: template({ name: 'Beside', position: { x: 0, y: 0, width: 6, height: 2 } }) },
      }),
    );
    expect(beside.warnings).toEqual(['Placed the tile at x 6, y 0: its spot at x 0, y 0 is taken by other tiles of the tab.']);
    const below = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: s.key,
        json: { project: 'demo', tab_id: s.tab.id, template: template({ name: 'Below', position: { x: 0, y: 0, width: 12, height: 2 } }) },
      }),
    );
    expect(below.warnings).toEqual(['Placed the tile at x 0, y 4: its spot at x 0, y 0 is taken by other tiles of the tab.']);
    const free = await ok(
      await t.request('POST', '/v0/tile/import_template', {
        key: s.key,
        json: { project: 'demo', tab_id: s.tab.id, template: template({ name: 'Free', position: { x: 6, y: 2, width: 6, height: 2 } }) },
      }),
    );
    expect(free.warnings).toEqual([]);
    const positions = Object.fromEntries((await tilesOf(t, s.key, 'demo')).map((x) => [x.name, x.position]));
    expect(positions).toEqual({
      'Open tasks': { x: 0, y: 0, width: 6, height: 4 },
      Beside: { x: 6, y: 0, width: 6, height: 2 },
      Below: { x: 0, y: 4, width: 12, height: 2 },
      Free: { x: 6, y: 2, width: 6, height: 2 },
    });
  });

  it('a created tile without x and y goes to the first free spot; a taken spot is replaced the same way', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const tile = (name: string, position: Record<string, number>) =>
      t.request('POST', `/v0/tab/${s.tab.id}/tiles`, {
        key: s.key,
        json: { name, context: 'Tasks', position, table_tile: { column_order: ['title'] } },
      });
    expect((await ok(await tile('Auto', { width: 6, height: 4 }), 201)).info.position).toEqual({ x: 6, y: 0, width: 6, height: 4 });
    expect((await ok(await tile('Next', { width: 4, height: 2 }), 201)).info.position).toEqual({ x: 0, y: 4, width: 4, height: 2 });
    // Asked for the spot of Open tasks: moved, not stacked.
    expect((await ok(await tile('Taken', { x: 0, y: 0, width: 4, height: 2 }), 201)).info.position).toEqual({ x: 4, y: 4, width: 4, height: 2 });
    expect((await ok(await tile('Chosen', { x: 8, y: 9, width: 4, height: 2 }), 201)).info.position).toEqual({ x: 8, y: 9, width: 4, height: 2 });
    // Off the grid is still refused, not placed.
    const wide = await tile('Wide', { width: 20, height: 2 });
    expect(wide.statusCode).toBe(422);
    expect(wide.json().detail[0].loc).toEqual(['body', 'position', 'width']);
  });
});

describe('import_template context_map (issue 20, item 16)', () => {
  it("maps the template's missing context to one the project has, with a warning", async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const json = { project: 'demo', tab_id: s.tab.id, template: template({ context: 'Todo', position: { x: 6, y: 0, width: 6, height: 4 } }) };
    const missing = await t.request('POST', '/v0/tile/import_template', { key: s.key, json });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().validation_result.issues[0].suggested_fix).toBe("Create context 'Todo' in project 'demo', or map it to one of: 'Tasks' (context_map).");

    const body = await ok(await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { ...json, context_map: { Todo: 'Tasks', Other: 'Tasks' } } }));
    expect(body.validation_result).toEqual({ valid: true, issues: [] });
    expect(body.warnings).toEqual(["Mapped context 'Todo' to 'Tasks' of project demo."]);
    expect((await tilesOf(t, s.key, 'demo')).find((x) => x.id === body.created_ids.tile_id)).toMatchObject({
      context: 'Tasks',
      table_tile: { column_order: ['status', 'title'] },
    });
  });

  it('a mapping to a context the project lacks, or a malformed map, is 422 and creates nothing', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const json = { project: 'demo', tab_id: s.tab.id, template: template({ context: 'Todo' }) };
    const ghost = await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { ...json, context_map: { Todo: 'Ghost' } } });
    expect(ghost.statusCode).toBe(422);
    expect(ghost.json().detail).toEqual([
      { type: 'value_error', loc: ['body', 'context_map', 'Todo'], msg: "Context 'Ghost' does not exist in project 'demo'. Map 'Todo' to one of: 'Tasks'." },
    ]);
    const notStrings = await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { ...json, context_map: { Todo: 3 } } });
    expect(notStrings.statusCode).toBe(422);
    expect(notStrings.json().detail[0].loc).toEqual(['body', 'context_map', 'Todo']);
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, 'Tasks']));
    expect((await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { ...json, context_map: tooMany } })).statusCode).toBe(422);
    expect((await tilesOf(t, s.key, 'demo')).map((x) => x.name)).toEqual(['Open tasks']);
  });
});

describe('tile filters (issue 20 item 18, issue 23)', () => {
  it('a tile keeps its filter; an empty one removes it; one that does not run is 422 at its position and changes nothing', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const set = await ok(await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { filter: " status == 'open' " } }));
    expect(set.info.filter).toBe("status == 'open'");
    expect((await tilesOf(t, s.key, 'demo'))[0]!.filter).toBe("status == 'open'");

    const bad = await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { filter: 'priority >' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0]).toMatchObject({ loc: ['body', 'filter'] });
    expect(bad.json().detail[0].msg).toMatch(/position 10/);
    const unsupported = await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { filter: 'nosuchfunction(title)' } });
    expect(unsupported.statusCode).toBe(422);
    expect((await tilesOf(t, s.key, 'demo'))[0]!.filter).toBe("status == 'open'");

    const kept = await ok(await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { name: 'Renamed' } }));
    expect(kept.info.filter).toBe("status == 'open'");
    const cleared = await ok(await t.request('PATCH', `/v0/tile/${s.tile.id}`, { key: s.key, json: { filter: '' } }));
    expect(cleared.info.filter).toBeNull();
  });

  it('created with a filter; the filter travels in the template, the checkpoint and back', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const made = await ok(
      await t.request('POST', `/v0/tab/${s.tab.id}/tiles`, {
        key: s.key,
        json: { name: 'Urgent', position: { width: 6, height: 4 }, context: 'Tasks', table_tile: { column_order: ['title'] }, filter: 'priority >= 2' },
      }),
      201,
    );
    expect(made.info.filter).toBe('priority >= 2');
    await ok(await t.request('POST', `/v0/tile/${made.info.id}/checkpoint`, { key: s.key }));
    await ok(await t.request('PATCH', `/v0/tile/${made.info.id}`, { key: s.key, json: { filter: 'priority < 2' } }));
    const saved = await ok(await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tile_id: made.info.id, checkpoint: true } }));
    expect(saved.template.filter).toBe('priority >= 2');
    const current = await ok(await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tile_id: made.info.id } }));
    expect(current.template.filter).toBe('priority < 2');
    const unfiltered = await ok(await t.request('POST', '/v0/tile/export_template', { key: s.key, json: { tile_id: s.tile.id } }));
    expect(unfiltered.template).not.toHaveProperty('filter');

    const imported = await ok(
      await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { project: 'demo', tab_id: s.tab.id, template: current.template, new_tile_name: 'Copy' } }),
    );
    const copy = (await tilesOf(t, s.key, 'demo')).find((x) => x.id === imported.created_ids.tile_id);
    expect(copy?.filter).toBe('priority < 2');
  });

  it('an imported filter that does not run: 422 without sanitizing; sanitizing drops it with a warning', async () => {
    const t = await makeTestApp();
    const s = await setup(t);
    const json = { project: 'demo', tab_id: s.tab.id, template: template({ filter: "status == 'open" }), auto_sanitize: false };
    const refused = await t.request('POST', '/v0/tile/import_template', { key: s.key, json });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().validation_result.issues).toContainEqual(expect.objectContaining({ level: 'error', component: 'filter' }));
    expect((await tilesOf(t, s.key, 'demo')).map((x) => x.name)).toEqual(['Open tasks']);

    const sanitized = await ok(await t.request('POST', '/v0/tile/import_template', { key: s.key, json: { ...json, auto_sanitize: true } }));
    expect(sanitized.warnings).toContainEqual(expect.stringMatching(/^Dropped the filter/));
    const tile = (await tilesOf(t, s.key, 'demo')).find((x) => x.id === sanitized.created_ids.tile_id);
    expect(tile?.filter).toBeNull();
  });
});
