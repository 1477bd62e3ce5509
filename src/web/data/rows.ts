import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ResponseOf } from '../../shared/operation.ts';
import { createLogs, deleteLog, listLogs, updateLog } from '../../shared/operations/contexts.ts';
import { listFields, logsGroups, logsMetric, readLogs } from '../../shared/operations/logs.ts';
import type { Log } from '../../shared/projects.ts';
import type { METRICS } from '../../shared/logs.ts';
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
  // The log explorer's reads (logs API): under `all` too, so a row change refreshes them.
  query: (project: string, context: string, q: LogsQueryParams) =>
    [...rowKeys.all(project, context), 'query', q.filter ?? '', q.sorting ?? null, q.offset ?? 0, q.limit ?? null] as const,
  fields: (project: string, context: string) => [...rowKeys.all(project, context), 'fields'] as const,
  metric: (project: string, context: string, metric: Metric, keys: string[], filter: string, groupBy: string | null) =>
    [...rowKeys.all(project, context), 'metric', metric, keys, filter, groupBy] as const,
  groups: (project: string, context: string, key: string, filter: string) => [...rowKeys.all(project, context), 'groups', key, filter] as const,
};

/**
 * What `rowQueries.query` reads: `filter` in the logs filter language (empty: every log), `sorting` as
 * the logs API takes it (`{"score": "descending"}`, keys are fields or expressions, `log_id` the log's
 * id; ties newest first) or as a list of keys in priority order, and a page (`limit` 1–1000, default 100).
 */
export interface LogsQueryParams {
  filter?: string;
  sorting?: Record<string, SortDirection> | readonly { field: string; direction: SortDirection }[] | null;
  offset?: number;
  limit?: number;
}

export type Metric = (typeof METRICS)[number];
export type SortDirection = 'ascending' | 'descending';
export type Fields = ResponseOf<typeof listFields>;
export type LogsPage = { logs: Log[]; count: number };

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

const contextQuery = (project: string, context: string) => ({ project_name: project, context });

/** `sorting` as JSON text whose key order is the priority (a list is written by hand: an object puts "2" first). */
export function sortingText(sorting: LogsQueryParams['sorting']): string | undefined {
  if (!sorting) return undefined;
  const keys = Array.isArray(sorting) ? sorting : Object.entries(sorting).map(([field, direction]) => ({ field, direction }));
  if (keys.length === 0) return undefined;
  return `{${keys.map((k) => `${JSON.stringify(k.field)}: ${JSON.stringify(k.direction)}`).join(', ')}}`;
}

async function readPage(project: string, context: string, q: LogsQueryParams, signal: AbortSignal): Promise<LogsPage> {
  const read = await api(readLogs, {
    query: {
      ...contextQuery(project, context),
      filter: q.filter?.trim() || undefined,
      sorting: sortingText(q.sorting),
      offset: q.offset ?? 0,
      limit: q.limit ?? 100,
    },
    signal,
  });
  // Without group_by or return_ids_only the logs API answers a plain page.
  if (Array.isArray(read) || !Array.isArray(read.logs)) throw new Error('Unexpected answer from the logs API.');
  // Shaped as the row routes' logs (the explorer's editor takes those); `ts` is the log's time.
  const logs = (read.logs as { id: number; ts: string | null; entries: Record<string, unknown> }[]).map((l) => ({
    id: l.id,
    entries: l.entries,
    created_at: l.ts ?? '',
    updated_at: l.ts ?? '',
  }));
  return { logs, count: read.count };
}

export const rowQueries = {
  /**
   * Logs of a context through the logs API, filtered, sorted and paged: the log explorer's page and the
   * dashboard tiles' filter read this. Cached under `rowKeys.all`, so any row change refreshes it.
   * A filter that does not parse rejects with an ApiError 422 whose body carries `ctx.position`.
   */
  query: (project: string, context: string, q: LogsQueryParams) =>
    queryOptions({
      queryKey: rowKeys.query(project, context, q),
      queryFn: ({ signal }) => readPage(project, context, q, signal),
      placeholderData: keepPreviousData,
      retry: false,
    }),
  /** The context's fields with their types and mutability, in creation order. */
  fields: (project: string, context: string) =>
    queryOptions({
      queryKey: rowKeys.fields(project, context),
      queryFn: ({ signal }) => api(listFields, { query: contextQuery(project, context), signal }),
    }),
  /** One metric of several keys over the filtered logs (`{key: value}`), or per group (`{key: {group: {metric: value}}}`). */
  metric: (project: string, context: string, metric: Metric, keys: string[], filter: string, groupBy: string | null = null) =>
    queryOptions({
      queryKey: rowKeys.metric(project, context, metric, keys, filter, groupBy),
      queryFn: ({ signal }) =>
        api(logsMetric, {
          params: { metric },
          query: { ...contextQuery(project, context), key: JSON.stringify(keys), filter: filter.trim() || undefined, group_by: groupBy ?? undefined },
          signal,
        }) as Promise<Record<string, unknown>>,
      enabled: keys.length > 0,
      retry: false,
    }),
  /** The distinct values of a field over the filtered logs, in first-seen order. */
  groups: (project: string, context: string, key: string, filter: string) =>
    queryOptions({
      queryKey: rowKeys.groups(project, context, key, filter),
      queryFn: async ({ signal }) =>
        Object.values(await api(logsGroups, { query: { ...contextQuery(project, context), key, filter: filter.trim() || undefined }, signal })),
      retry: false,
    }),
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
