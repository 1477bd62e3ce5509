import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import type {
  CreateTileInput,
  ExportTemplateInput,
  ExportTemplateResponse,
  ImportTemplateInput,
  ImportTemplateResponse,
  Interface,
  Tab,
  Tile,
  UpdateTileInput,
  ValidationResult,
} from '../../../shared/tiles.ts';

const enc = encodeURIComponent;

/** A context as GET /v0/project/{p}/contexts lists it (only what the dashboards use). */
export interface ContextSummary {
  name: string;
  description?: string | null;
}

export interface ContextRow {
  id: number | string;
  entries: Record<string, unknown>;
}

export const dashboardKeys = {
  all: ['dashboards'] as const,
  interfaces: (project: string) => [...dashboardKeys.all, 'interfaces', project] as const,
  contexts: (project: string) => [...dashboardKeys.all, 'contexts', project] as const,
  rows: (project: string, context: string) => [...dashboardKeys.all, 'rows', project, context] as const,
};

/** How many rows a tile shows: tiles are summaries; the context page pages through everything. */
export const TILE_ROW_LIMIT = 100;

export const dashboardQueries = {
  interfaces: (project: string) =>
    queryOptions({
      queryKey: dashboardKeys.interfaces(project),
      queryFn: ({ signal }) => api.get<{ info: Interface[] }>(`/v0/project/${enc(project)}/interfaces`, { signal }).then((r) => r.info),
    }),
  contexts: (project: string) =>
    queryOptions({
      queryKey: dashboardKeys.contexts(project),
      queryFn: ({ signal }) => api.get<ContextSummary[]>(`/v0/project/${enc(project)}/contexts`, { signal }),
    }),
  rows: (project: string, context: string) =>
    queryOptions({
      queryKey: dashboardKeys.rows(project, context),
      queryFn: ({ signal }) =>
        api.get<{ logs: ContextRow[]; count: number }>(`/v0/project/${enc(project)}/contexts/${enc(context)}/logs`, {
          signal,
          query: { offset: 0, limit: TILE_ROW_LIMIT },
        }),
    }),
};

/** Column names of a context, as its rows use them (first seen first). */
export function columnsOf(rows: ContextRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.entries ?? {})) seen.add(key);
  return [...seen];
}

function useInvalidateInterfaces(project: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: dashboardKeys.interfaces(project) });
}

export function useCreateInterface(project: string) {
  const invalidate = useInvalidateInterfaces(project);
  return useMutation({
    mutationFn: (name: string) => api.post<{ info: Interface }>(`/v0/project/${enc(project)}/interfaces`, { name }).then((r) => r.info),
    onSuccess: async (created) => {
      await invalidate();
      notifications.show({ color: 'teal', message: `Interface ${created.name} created.` });
    },
  });
}

export function useCreateTab(project: string) {
  const invalidate = useInvalidateInterfaces(project);
  return useMutation({
    mutationFn: ({ interfaceId, name }: { interfaceId: string; name: string }) =>
      api.post<{ info: Tab }>(`/v0/interface/${enc(interfaceId)}/tabs`, { name }).then((r) => r.info),
    onSuccess: async (created) => {
      await invalidate();
      notifications.show({ color: 'teal', message: `Tab ${created.name} added.` });
    },
  });
}

export function useDeleteTab(project: string) {
  const invalidate = useInvalidateInterfaces(project);
  return useMutation({
    mutationFn: (tab: Tab) => api.delete(`/v0/tab/${enc(tab.id)}`),
    onSuccess: async (_r, tab) => {
      await invalidate();
      notifications.show({ color: 'teal', message: `Tab ${tab.name} deleted.` });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the tab', message: error.message }),
  });
}

export function useCreateTile(project: string) {
  const invalidate = useInvalidateInterfaces(project);
  return useMutation({
    mutationFn: ({ tabId, input }: { tabId: string; input: CreateTileInput }) =>
      api.post<{ info: Tile }>(`/v0/tab/${enc(tabId)}/tiles`, input).then((r) => r.info),
    onSuccess: async (tile) => {
      await invalidate();
      notifications.show({ color: 'teal', message: `Tile ${tile.name} added.` });
    },
  });
}

export function useUpdateTile(project: string) {
  const invalidate = useInvalidateInterfaces(project);
  return useMutation({
    mutationFn: ({ tileId, input }: { tileId: string; input: UpdateTileInput }) =>
      api.patch<{ info: Tile }>(`/v0/tile/${enc(tileId)}`, input).then((r) => r.info),
    onSuccess: async (tile) => {
      await invalidate();
      notifications.show({ color: 'teal', message: `Tile ${tile.name} saved.` });
    },
  });
}

export function useDeleteTile(project: string) {
  const invalidate = useInvalidateInterfaces(project);
  return useMutation({
    mutationFn: (tile: Tile) => api.delete(`/v0/tile/${enc(tile.id)}`),
    onSuccess: async (_r, tile) => {
      await invalidate();
      notifications.show({ color: 'teal', message: `Tile ${tile.name} deleted.` });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the tile', message: error.message }),
  });
}

export function useCheckpointTile(project: string) {
  const invalidate = useInvalidateInterfaces(project);
  return useMutation({
    mutationFn: (tile: Tile) => api.post<{ info: Tile }>(`/v0/tile/${enc(tile.id)}/checkpoint`).then((r) => r.info),
    onSuccess: async (tile) => {
      await invalidate();
      notifications.show({ color: 'teal', message: `Checkpoint of ${tile.name} saved.` });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Could not save the checkpoint', message: error.message }),
  });
}

/** Export changes nothing on the server: a mutation only because it is a POST run on demand. */
export function useExportTemplate() {
  return useMutation({
    mutationFn: (input: ExportTemplateInput) => api.post<ExportTemplateResponse>('/v0/tile/export_template', input),
  });
}

export function useImportTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ImportTemplateInput) => api.post<ImportTemplateResponse>('/v0/tile/import_template', input),
    onSuccess: async (_r, input) => {
      await client.invalidateQueries({ queryKey: dashboardKeys.interfaces(input.project) });
    },
  });
}

/** The validation result a 422 of import_template carries next to `detail`, if any. */
export function validationResultOf(body: unknown): ValidationResult | null {
  const v = (body as { validation_result?: ValidationResult } | null)?.validation_result;
  return v && Array.isArray(v.issues) ? v : null;
}
