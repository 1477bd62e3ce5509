import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { InfoString, text } from '../../../shared/common.ts';
import {
  CreateInterfaceInput,
  CreateTabInput,
  CreateTileInput,
  ExportTemplateInput,
  ExportTemplateResponse,
  ImportTemplateInput,
  ImportTemplateResponse,
  InterfaceInfoSchema,
  InterfaceListSchema,
  TabInfoSchema,
  TileInfoSchema,
  UpdateTileInput,
  parseTemplate,
  type Interface,
} from '../../../shared/tiles.ts';
import { requireKeyPermission, scopeOf, type Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { conflict, HttpError, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { projectInScope } from './project-access.ts';
import {
  deleteRow,
  findInterface,
  findTab,
  findTile,
  findTileByName,
  getTileRow,
  insertInterface,
  insertTab,
  insertTile,
  isUniqueViolation,
  listInterfaces,
  saveCheckpoint,
  toTile,
  updateTile,
  type TileContent,
} from './repository.ts';
import { exportTemplate, importTemplate, targetOf, tileClash } from './service.ts';
import { issuesAsDetail, validateTemplate } from './template-service.ts';
import './starter.ts';

const ProjectParams = z.object({ project_name: text(255) });
const IdParams = z.object({ id: text(100) });

async function projectOr404(deps: Deps, principal: Principal, name: string) {
  const project = await projectInScope(deps.db, scopeOf(principal), name);
  if (!project) throw notFound('Project not found.');
  return project;
}

/**
 * A tile made or changed through the dashboard must fit its project the way an imported template must:
 * the same validation, but without sanitizing (the user is there to fix it) and warnings never block.
 */
async function checkContent(deps: Deps, projectId: number, projectName: string, content: TileContent): Promise<void> {
  const parsed = parseTemplate({ ...content, table_tile: content.table_tile ?? undefined, plot_tile: content.plot_tile ?? undefined });
  if (!parsed.ok) throw new HttpError(422, parsed.issues.map((i) => ({ ...i, loc: ['body', ...i.loc.slice(2)] })));
  const result = validateTemplate(parsed.template, [], await targetOf(deps.db, projectId, projectName));
  if (!result.valid) {
    throw new HttpError(
      422,
      issuesAsDetail(result).map((i) => ({ ...i, loc: ['body', ...i.loc.slice(2)] })),
      {},
      { validation_result: result },
    );
  }
}

async function interfacesOf(deps: Deps, projectId: number, projectName: string): Promise<Interface[]> {
  const tree = await listInterfaces(deps.db, projectId);
  return tree.map(({ interface: i, tabs }) => ({
    id: i.id,
    project: projectName,
    name: i.name,
    created_at: i.created_at,
    tabs: tabs.map(({ tab, tiles }) => ({
      id: tab.id,
      interface_id: tab.interface_id,
      name: tab.name,
      order: tab.sort_order,
      created_at: tab.created_at,
      tiles: tiles.map(toTile),
    })),
  }));
}

export function tilesRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'POST',
    url: '/v0/tile/export_template',
    operationId: 'exportTileTemplate',
    summary: 'Export a dashboard tile as a reusable template',
    description:
      'Select the tile by tile_id, or by tab_id and tile_name. checkpoint:true exports the saved checkpoint copy. ' +
      'include_metadata:false leaves only exported_at in metadata and omits created_by from the template.',
    tag: 'tiles',
    body: ExportTemplateInput,
    response: ExportTemplateResponse,
    errors: [400, 403, 404, 422],
    handler: async ({ principal, deps, body }) => {
      requireKeyPermission(principal, 'project:read');
      return exportTemplate(deps, principal, body);
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/tile/import_template',
    operationId: 'importTileTemplate',
    summary: 'Import a tile template into a tab',
    description:
      'Target: tab_id, or interface_id + tab_name (the tab is created when missing). validate_first checks the template ' +
      'against the project (context, columns, 12-column grid); auto_sanitize fixes what it can, one warning per fix. ' +
      'A name clash is 409 unless overwrite_existing. 422 bodies of a failed validation carry validation_result.',
    tag: 'tiles',
    body: ImportTemplateInput,
    response: ImportTemplateResponse,
    errors: [403, 404, 409, 422],
    idempotent: true,
    handler: async ({ principal, deps, body, idempotency }) => {
      requireKeyPermission(principal, 'project:write');
      return importTemplate(deps, principal, body, (tx, response) => idempotency.record(tx, response));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/project/{project_name}/interfaces',
    operationId: 'listInterfaces',
    summary: "A project's interfaces with their tabs and tiles, in one call",
    tag: 'tiles',
    extension: true,
    params: ProjectParams,
    response: InterfaceListSchema,
    errors: [403, 404],
    handler: async ({ principal, deps, params }) => {
      requireKeyPermission(principal, 'project:read');
      const project = await projectOr404(deps, principal, params.project_name);
      return { info: await interfacesOf(deps, project.id, project.name) };
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/project/{project_name}/interfaces',
    operationId: 'createInterface',
    summary: 'Create an interface (dashboard) in a project',
    tag: 'tiles',
    extension: true,
    params: ProjectParams,
    body: CreateInterfaceInput,
    response: InterfaceInfoSchema,
    status: 201,
    errors: [403, 404, 409, 422],
    handler: async ({ principal, deps, params, body }) => {
      requireKeyPermission(principal, 'project:write');
      const project = await projectOr404(deps, principal, params.project_name);
      try {
        const row = await insertInterface(deps.db, project.id, body.name, deps.now());
        return { info: { id: row.id, project: project.name, name: row.name, created_at: row.created_at, tabs: [] } };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`An interface named ${body.name} already exists in project ${project.name}.`);
        throw err;
      }
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/interface/{id}',
    operationId: 'deleteInterface',
    summary: 'Delete an interface with its tabs and tiles',
    tag: 'tiles',
    extension: true,
    params: IdParams,
    response: InfoString,
    errors: [403, 404],
    handler: async ({ principal, deps, params }) => {
      requireKeyPermission(principal, 'project:write');
      const found = await findInterface(deps.db, scopeOf(principal), params.id);
      if (!found || !(await deleteRow(deps.db, 'interfaces', found.id))) throw notFound('Interface not found.');
      return { info: 'Interface deleted successfully.' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/interface/{id}/tabs',
    operationId: 'createTab',
    summary: 'Add a tab to an interface (placed last)',
    tag: 'tiles',
    extension: true,
    params: IdParams,
    body: CreateTabInput,
    response: TabInfoSchema,
    status: 201,
    errors: [403, 404, 409, 422],
    handler: async ({ principal, deps, params, body }) => {
      requireKeyPermission(principal, 'project:write');
      const found = await findInterface(deps.db, scopeOf(principal), params.id);
      if (!found) throw notFound('Interface not found.');
      try {
        const row = await deps.db.transaction().execute((tx) => insertTab(tx, found.id, body.name, deps.now()));
        return { info: { id: row.id, interface_id: row.interface_id, name: row.name, order: row.sort_order, created_at: row.created_at, tiles: [] } };
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`A tab named ${body.name} already exists in interface ${found.name}.`);
        throw err;
      }
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/tab/{id}',
    operationId: 'deleteTab',
    summary: 'Delete a tab with its tiles',
    tag: 'tiles',
    extension: true,
    params: IdParams,
    response: InfoString,
    errors: [403, 404],
    handler: async ({ principal, deps, params }) => {
      requireKeyPermission(principal, 'project:write');
      const found = await findTab(deps.db, scopeOf(principal), params.id);
      if (!found || !(await deleteRow(deps.db, 'tabs', found.id))) throw notFound('Tab not found.');
      return { info: 'Tab deleted successfully.' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/tab/{id}/tiles',
    operationId: 'createTile',
    summary: 'Add a tile to a tab',
    description: 'The tile is checked like an imported template: its context and columns must exist and it must fit the 12-column grid.',
    tag: 'tiles',
    extension: true,
    params: IdParams,
    body: CreateTileInput,
    response: TileInfoSchema,
    status: 201,
    errors: [403, 404, 409, 422],
    handler: async ({ principal, deps, params, body }) => {
      requireKeyPermission(principal, 'project:write');
      const tab = await findTab(deps.db, scopeOf(principal), params.id);
      if (!tab) throw notFound('Tab not found.');
      const type = body.type ?? (body.plot_tile && !body.table_tile ? 'Plot' : 'Table');
      const content: TileContent = {
        name: body.name,
        type,
        position: body.position,
        context: body.context ?? null,
        table_tile: type === 'Table' && body.table_tile ? { table_type: body.table_tile.table_type ?? 'default', column_order: body.table_tile.column_order } : null,
        plot_tile: type === 'Plot' && body.plot_tile ? body.plot_tile : null,
      };
      await checkContent(deps, tab.project_id, tab.project_name, content);
      try {
        if (await findTileByName(deps.db, tab.id, content.name)) throw tileClash(content.name);
        const row = await insertTile(deps.db, tab.id, content, principal.userId, deps.now());
        return { info: toTile(row) };
      } catch (err) {
        if (isUniqueViolation(err)) throw tileClash(content.name);
        throw err;
      }
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/v0/tile/{id}',
    operationId: 'updateTile',
    summary: "Move, resize, rename or reconfigure a tile (omitted fields are unchanged)",
    tag: 'tiles',
    extension: true,
    params: IdParams,
    body: UpdateTileInput,
    response: TileInfoSchema,
    errors: [403, 404, 409, 422],
    handler: async ({ principal, deps, params, body }) => {
      requireKeyPermission(principal, 'project:write');
      const tile = await findTile(deps.db, scopeOf(principal), params.id);
      if (!tile) throw notFound('Tile not found.');
      const current = toTile(tile);
      const content: TileContent = {
        name: body.name ?? current.name,
        type: current.type,
        position: body.position ?? current.position,
        context: body.context ?? current.context,
        table_tile:
          current.type === 'Table'
            ? body.table_tile
              ? { table_type: body.table_tile.table_type ?? current.table_tile?.table_type ?? 'default', column_order: body.table_tile.column_order }
              : current.table_tile
            : null,
        plot_tile: current.type === 'Plot' ? (body.plot_tile ?? current.plot_tile) : null,
      };
      await checkContent(deps, tile.project_id, tile.project_name, content);
      try {
        if (content.name !== current.name) {
          const clash = await findTileByName(deps.db, tile.tab_id, content.name);
          if (clash) throw conflict(`Tile with name ${content.name} already exists in tab ${tile.tab_name}.`);
        }
        await updateTile(deps.db, tile.id, content, deps.now());
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`Tile with name ${content.name} already exists in tab ${tile.tab_name}.`);
        throw err;
      }
      const row = await getTileRow(deps.db, tile.id);
      if (!row) throw notFound('Tile not found.');
      return { info: toTile(row) };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/tile/{id}',
    operationId: 'deleteTile',
    summary: 'Delete a tile',
    tag: 'tiles',
    extension: true,
    params: IdParams,
    response: InfoString,
    errors: [403, 404],
    handler: async ({ principal, deps, params }) => {
      requireKeyPermission(principal, 'project:write');
      const found = await findTile(deps.db, scopeOf(principal), params.id);
      if (!found || !(await deleteRow(deps.db, 'tiles', found.id))) throw notFound('Tile not found.');
      return { info: 'Tile deleted successfully.' };
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/tile/{id}/checkpoint',
    operationId: 'checkpointTile',
    summary: "Save the tile's current state as its checkpoint (replaces an older one)",
    tag: 'tiles',
    extension: true,
    params: IdParams,
    response: TileInfoSchema,
    errors: [403, 404],
    handler: async ({ principal, deps, params }) => {
      requireKeyPermission(principal, 'project:write');
      const found = await findTile(deps.db, scopeOf(principal), params.id);
      if (!found) throw notFound('Tile not found.');
      await saveCheckpoint(deps.db, found, deps.now());
      const row = await getTileRow(deps.db, found.id);
      if (!row) throw notFound('Tile not found.');
      return { info: toTile(row) };
    },
  });
}
