import { queryOptions } from '@tanstack/react-query';
import {
  checkpointTile,
  createInterface,
  createTab,
  createTile,
  deleteTab,
  deleteTile,
  exportTileTemplate,
  importTileTemplate,
  listInterfaces,
  updateTile,
} from '../../shared/operations/tiles.ts';
import type { CreateTileInput, ExportTemplateInput, ImportTemplateInput, Tab, Tile, UpdateTileInput } from '../../shared/tiles.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { projectKeys } from './projects.ts';
import { rowQueries, type LogsPage } from './rows.ts';

// Dashboards of a project (interfaces in the API, their tabs and tiles): one read for the whole tree, and the changes
// that refresh it. What tiles show comes from the rows' own keys (rows.ts).

export const tileKeys = {
  interfaces: (project: string) => [...projectKeys.all, 'interfaces', project] as const,
};

/** How many rows a tile shows: tiles are summaries; the context page pages through everything. */
export const TILE_ROW_LIMIT = 100;

export const tileQueries = {
  interfaces: (project: string) =>
    queryOptions({
      queryKey: tileKeys.interfaces(project),
      queryFn: async ({ signal }) => (await api(listInterfaces, { params: { project_name: project }, signal })).info,
    }),
  /**
   * The logs a tile of `context` shows: the newest TILE_ROW_LIMIT that match its filter, in the order they
   * were written (the logs API reads newest first). One read with the log explorer's, so a row change refreshes both.
   */
  rows: (project: string, context: string, filter: string | null) => ({
    ...rowQueries.query(project, context, { filter: filter ?? '', limit: TILE_ROW_LIMIT }),
    select: (page: LogsPage): LogsPage => ({ ...page, logs: [...page.logs].reverse() }),
  }),
};

/** Every dashboard change is a change of the project's interface tree. */
const tree = (project: string) => () => [tileKeys.interfaces(project)];

export const tileMutations = {
  createInterface: (project: string) =>
    mutation({
      mutationFn: async (name: string) => (await api(createInterface, { params: { project_name: project }, body: { name } })).info,
      invalidates: tree(project),
    }),
  /** The empty project's one click: a dashboard with one tab, ready for its first tile. */
  createFirstDashboard: (project: string) =>
    mutation({
      mutationFn: async ({ name, tab }: { name: string; tab: string }) => {
        const created = (await api(createInterface, { params: { project_name: project }, body: { name } })).info;
        const first = (await api(createTab, { params: { id: created.id }, body: { name: tab } })).info;
        return { dashboard: created, tab: first };
      },
      invalidates: tree(project),
    }),
  createTab: (project: string) =>
    mutation({
      mutationFn: async ({ interfaceId, name }: { interfaceId: string; name: string }) => (await api(createTab, { params: { id: interfaceId }, body: { name } })).info,
      invalidates: tree(project),
    }),
  deleteTab: (project: string) =>
    mutation({
      mutationFn: (tab: Tab) => api(deleteTab, { params: { id: tab.id } }),
      invalidates: tree(project),
    }),
  createTile: (project: string) =>
    mutation({
      mutationFn: async ({ tabId, input }: { tabId: string; input: CreateTileInput }) => (await api(createTile, { params: { id: tabId }, body: input })).info,
      invalidates: tree(project),
    }),
  updateTile: (project: string) =>
    mutation({
      mutationFn: async ({ tileId, input }: { tileId: string; input: UpdateTileInput }) => (await api(updateTile, { params: { id: tileId }, body: input })).info,
      invalidates: tree(project),
    }),
  deleteTile: (project: string) =>
    mutation({
      mutationFn: (tile: Tile) => api(deleteTile, { params: { id: tile.id } }),
      invalidates: tree(project),
    }),
  checkpoint: (project: string) =>
    mutation({
      mutationFn: async (tile: Tile) => (await api(checkpointTile, { params: { id: tile.id } })).info,
      invalidates: tree(project),
    }),
  /** Export changes nothing on the server: a mutation only because it is a POST run on demand. */
  exportTemplate: mutation({
    mutationFn: (body: ExportTemplateInput) => api(exportTileTemplate, { body }),
    invalidates: () => [],
  }),
  importTemplate: mutation({
    mutationFn: (body: ImportTemplateInput) => api(importTileTemplate, { body }),
    invalidates: (_r, body) => [tileKeys.interfaces(body.project)],
  }),
};
