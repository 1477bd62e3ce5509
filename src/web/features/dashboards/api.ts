import { notifications } from '@mantine/notifications';
import type { Log } from '../../../shared/projects.ts';
import type { ImportValidationErrorSchema, ValidationResult } from '../../../shared/tiles.ts';
import type { z } from 'zod';
import { tileMutations } from '../../data/tiles.ts';
import { useApiMutation } from '../../lib/mutation.ts';

// The dashboard page's changes (an API interface is a dashboard on screen): the data file's mutations with what the page tells the user.

/** Column names of a context, as its rows use them (first seen first). */
export function columnsOf(rows: Pick<Log, 'entries'>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row.entries ?? {})) seen.add(key);
  return [...seen];
}

export function useCreateInterface(project: string) {
  return useApiMutation(tileMutations.createInterface(project), {
    onSuccess: (created) => notifications.show({ color: 'teal', message: `Dashboard ${created.name} created.` }),
  });
}

/** What the empty state's one click creates. */
export const FIRST_DASHBOARD = { name: 'Overview', tab: 'Main' } as const;

export function useCreateFirstDashboard(project: string) {
  return useApiMutation(tileMutations.createFirstDashboard(project), {
    onSuccess: ({ dashboard }) => notifications.show({ color: 'teal', message: `Dashboard ${dashboard.name} created. Add its first tile.` }),
    onError: (error) => notifications.show({ color: 'red', title: 'Could not create the dashboard', message: error.message }),
  });
}

export function useCreateTab(project: string) {
  return useApiMutation(tileMutations.createTab(project), {
    onSuccess: (created) => notifications.show({ color: 'teal', message: `Tab ${created.name} added.` }),
  });
}

export function useDeleteTab(project: string) {
  return useApiMutation(tileMutations.deleteTab(project), {
    onSuccess: (_r, tab) => notifications.show({ color: 'teal', message: `Tab ${tab.name} deleted.` }),
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the tab', message: error.message }),
  });
}

export function useCreateTile(project: string) {
  return useApiMutation(tileMutations.createTile(project), {
    onSuccess: (tile) => notifications.show({ color: 'teal', message: `Tile ${tile.name} added.` }),
  });
}

export function useUpdateTile(project: string) {
  return useApiMutation(tileMutations.updateTile(project), {
    onSuccess: (tile) => notifications.show({ color: 'teal', message: `Tile ${tile.name} saved.` }),
  });
}

export function useDeleteTile(project: string) {
  return useApiMutation(tileMutations.deleteTile(project), {
    onSuccess: (_r, tile) => notifications.show({ color: 'teal', message: `Tile ${tile.name} deleted.` }),
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the tile', message: error.message }),
  });
}

export function useCheckpointTile(project: string) {
  return useApiMutation(tileMutations.checkpoint(project), {
    onSuccess: (tile) => notifications.show({ color: 'teal', message: `Checkpoint of ${tile.name} saved.` }),
    onError: (error) => notifications.show({ color: 'red', title: 'Could not save the checkpoint', message: error.message }),
  });
}

export function useExportTemplate() {
  return useApiMutation(tileMutations.exportTemplate);
}

export function useImportTemplate() {
  return useApiMutation(tileMutations.importTemplate);
}

/** The validation result a 422 of import_template carries next to `detail`, if any. */
export function validationResultOf(body: unknown): ValidationResult | null {
  const v = (body as Partial<z.infer<typeof ImportValidationErrorSchema>> | null)?.validation_result;
  return v && Array.isArray(v.issues) ? v : null;
}
