import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ResponseOf } from '../../shared/operation.ts';
import { createLogs, deleteLog, listLogs, updateLog } from '../../shared/operations/contexts.ts';
import type { Log } from '../../shared/projects.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { contextKeys } from './contexts.ts';

// Rows (logs) of a context: cache keys, reads and changes. The context page and the dashboard tiles read
// through these same keys, so a row changed on one refreshes the other.

export const rowKeys = {
  all: contextKeys.rows,
  page: (project: string, context: string, commit: string | null, offset: number, limit: number) =>
    [...rowKeys.all(project, context), commit ?? 'now', offset, limit] as const,
  every: (project: string, context: string, commit: string | null) => [...rowKeys.all(project, context), 'all', commit ?? 'now'] as const,
};

export type RowsPage = ResponseOf<typeof listLogs>;

/** Largest context the dashboard diffs in the browser (rollback preview, a commit's changes). */
export const DIFF_ROW_LIMIT = 5000;

const page = (project: string, context: string, commit: string | null, offset: number, limit: number, signal: AbortSignal) =>
  api(listLogs, { params: { project_name: project, context_name: context }, query: { offset, limit, commit }, signal });

/** Every row of a context (now or at a commit), or null when it has more than DIFF_ROW_LIMIT rows. */
async function fetchEveryRow(project: string, context: string, commit: string | null, signal: AbortSignal): Promise<Log[] | null> {
  const rows: Log[] = [];
  for (let offset = 0; ; offset += 1000) {
    const next = await page(project, context, commit, offset, 1000, signal);
    if (next.count > DIFF_ROW_LIMIT) return null;
    rows.push(...next.logs);
    if (next.logs.length < 1000 || rows.length >= next.count) return rows;
  }
}

export const rowQueries = {
  /** A page of rows, now (`commit` null) or at a commit. */
  page: (project: string, context: string, commit: string | null, offset: number, limit: number) =>
    queryOptions({
      queryKey: rowKeys.page(project, context, commit, offset, limit),
      queryFn: ({ signal }) => page(project, context, commit, offset, limit, signal),
      placeholderData: keepPreviousData,
    }),
  every: (project: string, context: string, commit: string | null) =>
    queryOptions({
      queryKey: rowKeys.every(project, context, commit),
      queryFn: ({ signal }) => fetchEveryRow(project, context, commit, signal),
      // A commit never changes; the current rows do.
      staleTime: commit ? Infinity : 0,
    }),
};

/** A row change also changes its context (uncommitted count) and what its history shows as pending. */
const touched = (project: string, context: string) => [contextKeys.all(project), contextKeys.rows(project, context), contextKeys.commits(project, context)];

export const rowMutations = {
  add: (project: string, context: string) =>
    mutation({
      mutationFn: (entries: Record<string, unknown>) => api(createLogs, { params: { project_name: project, context_name: context }, body: { entries: [entries] } }),
      invalidates: () => touched(project, context),
    }),
  update: (project: string, context: string) =>
    mutation({
      mutationFn: ({ id, entries }: { id: number; entries: Record<string, unknown> }) =>
        api(updateLog, { params: { project_name: project, context_name: context, log_id: id }, body: { entries } }),
      invalidates: () => touched(project, context),
    }),
  delete: (project: string, context: string) =>
    mutation({
      mutationFn: (id: number) => api(deleteLog, { params: { project_name: project, context_name: context, log_id: id } }),
      invalidates: () => touched(project, context),
    }),
};
