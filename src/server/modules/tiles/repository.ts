import { randomUUID } from 'node:crypto';
import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { inScope } from '../../db/scope.ts';
import type { Position, Tile, TileContent, TileType } from '../../../shared/tiles.ts';
import type { InterfaceTable, TabTable, TileTable } from './tables.ts';

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

type ContentColumns = Pick<TileTable, 'name' | 'type' | 'position' | 'context' | 'settings'> & { filter?: string | null };

/** A tile's content from its columns (or a checkpoint of them: those saved before filters existed have none). */
export function contentOfRow(row: ContentColumns): TileContent {
  const type: TileType = row.type === 'Plot' ? 'Plot' : 'Table';
  const settings = parseJson<Record<string, unknown> | null>(row.settings, null);
  return {
    name: row.name,
    type,
    position: parseJson<Position>(row.position, { x: 0, y: 0, width: 1, height: 1 }),
    context: row.context,
    table_tile: type === 'Table' && settings ? (settings as TileContent['table_tile']) : null,
    plot_tile: type === 'Plot' && settings ? (settings as TileContent['plot_tile']) : null,
    filter: row.filter ?? null,
  };
}

export function toTile(row: TileTable): Tile {
  const content = contentOfRow(row);
  return {
    id: row.id,
    tab_id: row.tab_id,
    ...content,
    created_by: row.created_by,
    has_checkpoint: row.checkpoint !== null,
    checkpoint_at: row.checkpoint_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The checkpoint copy of a tile, or null when none was saved. */
export function checkpointOf(row: TileTable): TileContent | null {
  if (row.checkpoint === null) return null;
  const saved = parseJson<ContentColumns | null>(row.checkpoint, null);
  return saved ? contentOfRow(saved) : null;
}

function contentColumns(c: TileContent) {
  return {
    name: c.name,
    type: c.type,
    position: JSON.stringify(c.position),
    context: c.context,
    settings: c.type === 'Table' ? JSON.stringify(c.table_tile) : JSON.stringify(c.plot_tile),
    filter: c.filter,
  };
}

// ---------------------------------------------------------------------------------------------
// Reads. Every lookup by id goes through the owning project and the caller's scope: another tenant's is "not found".

export interface InterfaceRef extends InterfaceTable {
  project_name: string;
}
export interface TabRef extends TabTable {
  project_id: number;
  project_name: string;
  interface_name: string;
}
export interface TileRef extends TileTable {
  project_id: number;
  project_name: string;
  interface_id: string;
  interface_name: string;
  tab_name: string;
}

export function findInterface(db: Conn, scope: Scope, id: string): Promise<InterfaceRef | undefined> {
  return db
    .selectFrom('interfaces as i')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .selectAll('i')
    .select('p.name as project_name')
    .where('i.id', '=', id)
    .where(inScope(scope, 'p'))
    .executeTakeFirst();
}

export function findTab(db: Conn, scope: Scope, id: string): Promise<TabRef | undefined> {
  return db
    .selectFrom('tabs as t')
    .innerJoin('interfaces as i', 'i.id', 't.interface_id')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .selectAll('t')
    .select(['p.id as project_id', 'p.name as project_name', 'i.name as interface_name'])
    .where('t.id', '=', id)
    .where(inScope(scope, 'p'))
    .executeTakeFirst();
}

function tileRefQuery(db: Conn, scope: Scope) {
  return db
    .selectFrom('tiles as x')
    .innerJoin('tabs as t', 't.id', 'x.tab_id')
    .innerJoin('interfaces as i', 'i.id', 't.interface_id')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .selectAll('x')
    .select(['p.id as project_id', 'p.name as project_name', 'i.id as interface_id', 'i.name as interface_name', 't.name as tab_name'])
    .where(inScope(scope, 'p'));
}

export function findTile(db: Conn, scope: Scope, id: string): Promise<TileRef | undefined> {
  return tileRefQuery(db, scope).where('x.id', '=', id).executeTakeFirst();
}

export function findTileInTab(db: Conn, scope: Scope, tabId: string, name: string): Promise<TileRef | undefined> {
  return tileRefQuery(db, scope).where('x.tab_id', '=', tabId).where('x.name', '=', name).executeTakeFirst();
}

export function findTabByName(db: Conn, interfaceId: string, name: string) {
  return db.selectFrom('tabs').selectAll().where('interface_id', '=', interfaceId).where('name', '=', name).executeTakeFirst();
}

export function findTileByName(db: Conn, tabId: string, name: string) {
  return db.selectFrom('tiles').selectAll().where('tab_id', '=', tabId).where('name', '=', name).executeTakeFirst();
}

/** Where the tiles of a tab are, to place a new one beside them. */
export async function tilePositions(db: Conn, tabId: string): Promise<Position[]> {
  const rows = await db.selectFrom('tiles').select(['name', 'type', 'position', 'context', 'settings']).where('tab_id', '=', tabId).execute();
  return rows.map((r) => contentOfRow(r).position);
}

/** A project's interfaces with their tabs (in order) and tiles: the dashboard's one call. */
export async function listInterfaces(db: Conn, projectId: number) {
  const interfaces = await db.selectFrom('interfaces').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('name').execute();
  if (interfaces.length === 0) return [];
  const ids = interfaces.map((i) => i.id);
  const tabs = await db.selectFrom('tabs').selectAll().where('interface_id', 'in', ids).orderBy('sort_order').orderBy('created_at').execute();
  const tiles =
    tabs.length === 0
      ? []
      : await db
          .selectFrom('tiles')
          .selectAll()
          .where(
            'tab_id',
            'in',
            tabs.map((t) => t.id),
          )
          .orderBy('created_at')
          .orderBy('name')
          .execute();
  return interfaces.map((i) => ({
    interface: i,
    tabs: tabs.filter((t) => t.interface_id === i.id).map((t) => ({ tab: t, tiles: tiles.filter((x) => x.tab_id === t.id) })),
  }));
}

// ---------------------------------------------------------------------------------------------
// Writes

export async function insertInterface(db: Conn, projectId: number, name: string, now: Date): Promise<InterfaceTable> {
  const row: InterfaceTable = { id: randomUUID(), project_id: projectId, name, created_at: now.toISOString() };
  await db.insertInto('interfaces').values(row).execute();
  return row;
}

export async function insertTab(db: Conn, interfaceId: string, name: string, now: Date): Promise<TabTable> {
  const last = await db
    .selectFrom('tabs')
    .select((eb) => eb.fn.max('sort_order').as('max'))
    .where('interface_id', '=', interfaceId)
    .executeTakeFirst();
  const row: TabTable = {
    id: randomUUID(),
    interface_id: interfaceId,
    name,
    sort_order: Number(last?.max ?? -1) + 1,
    created_at: now.toISOString(),
  };
  await db.insertInto('tabs').values(row).execute();
  return row;
}

export async function insertTile(db: Conn, tabId: string, content: TileContent, createdBy: string, now: Date): Promise<TileTable> {
  const at = now.toISOString();
  const row: TileTable = {
    id: randomUUID(),
    tab_id: tabId,
    ...contentColumns(content),
    created_by: createdBy,
    checkpoint: null,
    checkpoint_at: null,
    created_at: at,
    updated_at: at,
  };
  await db.insertInto('tiles').values(row).execute();
  return row;
}

export async function updateTile(db: Conn, id: string, content: TileContent, now: Date): Promise<void> {
  await db
    .updateTable('tiles')
    .set({ ...contentColumns(content), updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Saves the tile's current content as its checkpoint (one per tile: a new one replaces the old). */
export async function saveCheckpoint(db: Conn, row: TileTable, now: Date): Promise<void> {
  const snapshot: ContentColumns = { name: row.name, type: row.type, position: row.position, context: row.context, settings: row.settings, filter: row.filter };
  await db
    .updateTable('tiles')
    .set({ checkpoint: JSON.stringify(snapshot), checkpoint_at: now.toISOString() })
    .where('id', '=', row.id)
    .execute();
}

export async function deleteRow(db: Conn, table: 'interfaces' | 'tabs' | 'tiles', id: string): Promise<boolean> {
  const result = await db.deleteFrom(table).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function getTileRow(db: Conn, id: string): Promise<TileTable | undefined> {
  return db.selectFrom('tiles').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The project's tiles that show context `from` show `to` instead (a context renamed; saved checkpoints keep their copy). */
export async function retargetTiles(db: Conn, projectId: number, from: string, to: string): Promise<void> {
  await db
    .updateTable('tiles')
    .set({ context: to })
    .where('context', '=', from)
    .where('tab_id', 'in', (eb) =>
      eb.selectFrom('tabs').innerJoin('interfaces', 'interfaces.id', 'tabs.interface_id').select('tabs.id').where('interfaces.project_id', '=', projectId),
    )
    .execute();
}
