import type { ParsedBody } from '../../../shared/operation.ts';
import type * as ops from '../../../shared/operations/tiles.ts';
import { parseTemplate, type Interface, type Tile, type TileContent } from '../../../shared/tiles.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { conflictError, invalidFields, notFoundError } from '../../domain-errors.ts';
import { projectColumns } from '../contexts/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
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
  listInterfaces,
  saveCheckpoint,
  tilePositions,
  toTile,
  updateTile,
} from './repository.ts';
import { firstFreeSpot, place } from './placement.ts';
import { issuesAsDetail, validateTemplate, type TemplateTarget } from './template-service.ts';

// Interfaces, tabs and tiles as the dashboard edits them. Templates: transfer-service.ts.

export const tileClash = (name: string) => conflictError(`Tile with name ${name} already exists. Use overwrite_existing=true to replace it.`);

/** What templates and tiles are checked against: the project's contexts and their columns. */
export async function targetOf(db: Conn, projectId: number, projectName: string): Promise<TemplateTarget> {
  return { project: projectName, contexts: await projectColumns(db, projectId) };
}

/** Runs a write; a unique index refusing it (the loser of a race) becomes `clash`. */
async function unlessTaken<T>(write: () => Promise<T>, clash: () => Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw clash();
    throw err;
  }
}

/**
 * A tile made or changed through the dashboard must fit its project the way an imported template must:
 * the same validation, but without sanitizing (the user is there to fix it) and warnings never block.
 */
async function checkContent(db: Conn, projectId: number, projectName: string, content: TileContent): Promise<void> {
  const parsed = parseTemplate({ ...content, table_tile: content.table_tile ?? undefined, plot_tile: content.plot_tile ?? undefined });
  if (!parsed.ok) throw invalidFields(parsed.issues.map((i) => ({ ...i, loc: ['body', ...i.loc.slice(2)] })));
  const result = validateTemplate(parsed.template, [], await targetOf(db, projectId, projectName));
  if (!result.valid) {
    throw invalidFields(
      issuesAsDetail(result).map((i) => ({ ...i, loc: ['body', ...i.loc.slice(2)] })),
      { validation_result: result },
    );
  }
}

/** A project's dashboards, whole: interfaces, their tabs in order, their tiles. */
export async function interfacesOf(db: Conn, scope: Scope, projectName: string): Promise<Interface[]> {
  const project = await projectInScopeOr404(db, scope, projectName);
  const tree = await listInterfaces(db, project.id);
  return tree.map(({ interface: i, tabs }) => ({
    id: i.id,
    project: project.name,
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

export async function createInterface(db: Conn, scope: Scope, projectName: string, name: string, now: Date): Promise<Interface> {
  const project = await projectInScopeOr404(db, scope, projectName);
  const row = await unlessTaken(
    () => insertInterface(db, project.id, name, now),
    () => conflictError(`An interface named ${name} already exists in project ${project.name}.`),
  );
  return { id: row.id, project: project.name, name: row.name, created_at: row.created_at, tabs: [] };
}

export async function deleteInterface(db: Conn, scope: Scope, id: string): Promise<void> {
  const found = await findInterface(db, scope, id);
  if (!found || !(await deleteRow(db, 'interfaces', found.id))) throw notFoundError('Interface not found.');
}

export async function createTab(db: Conn, scope: Scope, interfaceId: string, name: string, now: Date) {
  const found = await findInterface(db, scope, interfaceId);
  if (!found) throw notFoundError('Interface not found.');
  const row = await unlessTaken(
    () => db.transaction().execute((tx) => insertTab(tx, found.id, name, now)),
    () => conflictError(`A tab named ${name} already exists in interface ${found.name}.`),
  );
  return { id: row.id, interface_id: row.interface_id, name: row.name, order: row.sort_order, created_at: row.created_at, tiles: [] };
}

export async function deleteTab(db: Conn, scope: Scope, id: string): Promise<void> {
  const found = await findTab(db, scope, id);
  if (!found || !(await deleteRow(db, 'tabs', found.id))) throw notFoundError('Tab not found.');
}

export async function createTile(db: Conn, scope: Scope, tabId: string, body: ParsedBody<typeof ops.createTile>, createdBy: string, now: Date): Promise<Tile> {
  const tab = await findTab(db, scope, tabId);
  if (!tab) throw notFoundError('Tab not found.');
  const type = body.type ?? (body.plot_tile && !body.table_tile ? 'Plot' : 'Table');
  const { x, y, width, height } = body.position;
  const taken = await tilePositions(db, tab.id);
  const content: TileContent = {
    name: body.name,
    type,
    // No tile lands on another: a taken or missing spot becomes the first free one of the same size.
    position: x === undefined || y === undefined ? firstFreeSpot({ width, height }, taken) : place({ x, y, width, height }, taken),
    context: body.context ?? null,
    table_tile: type === 'Table' && body.table_tile ? { table_type: body.table_tile.table_type ?? 'default', column_order: body.table_tile.column_order } : null,
    plot_tile: type === 'Plot' && body.plot_tile ? body.plot_tile : null,
    filter: body.filter?.trim() || null,
  };
  await checkContent(db, tab.project_id, tab.project_name, content);
  const row = await unlessTaken(
    async () => {
      if (await findTileByName(db, tab.id, content.name)) throw tileClash(content.name);
      return insertTile(db, tab.id, content, createdBy, now);
    },
    () => tileClash(content.name),
  );
  return toTile(row);
}

/** Changes what the body gives; the rest of the tile stays. */
export async function changeTile(db: Conn, scope: Scope, id: string, body: ParsedBody<typeof ops.updateTile>, now: Date): Promise<Tile> {
  const tile = await findTile(db, scope, id);
  if (!tile) throw notFoundError('Tile not found.');
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
    filter: body.filter === undefined ? current.filter : body.filter.trim() || null,
  };
  await checkContent(db, tile.project_id, tile.project_name, content);
  const clash = () => conflictError(`Tile with name ${content.name} already exists in tab ${tile.tab_name}.`);
  await unlessTaken(async () => {
    if (content.name !== current.name && (await findTileByName(db, tile.tab_id, content.name))) throw clash();
    await updateTile(db, tile.id, content, now);
  }, clash);
  return reread(db, tile.id);
}

export async function deleteTile(db: Conn, scope: Scope, id: string): Promise<void> {
  const found = await findTile(db, scope, id);
  if (!found || !(await deleteRow(db, 'tiles', found.id))) throw notFoundError('Tile not found.');
}

export async function checkpointTile(db: Conn, scope: Scope, id: string, now: Date): Promise<Tile> {
  const found = await findTile(db, scope, id);
  if (!found) throw notFoundError('Tile not found.');
  await saveCheckpoint(db, found, now);
  return reread(db, found.id);
}

/** The tile as stored after a change (it may have been deleted meanwhile). */
async function reread(db: Conn, id: string): Promise<Tile> {
  const row = await getTileRow(db, id);
  if (!row) throw notFoundError('Tile not found.');
  return toTile(row);
}
