import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Commit, Context, Log } from '../../../shared/projects.ts';
import { api } from '../../lib/api-client.ts';
import { projectKeys as baseKeys, projectQueries as baseQueries } from '../../data/projects.ts';

// The read side of the feature: API paths, keys and query options. Light enough for the route table,
// whose loaders start these requests while the pages' code downloads; the mutation hooks stay in api.ts.

const enc = encodeURIComponent;
export const projectPath = (project: string) => `/v0/project/${enc(project)}`;
export const contextPath = (project: string, context: string) => `${projectPath(project)}/contexts/${enc(context)}`;

// Being moved to src/web/data (projects.ts done; contexts, rows and commits follow).
export const projectKeys = {
  ...baseKeys,
  contexts: (project: string) => [...projectKeys.all, 'contexts', project] as const,
  contextList: (project: string, prefix: string) => [...projectKeys.contexts(project), 'list', prefix] as const,
  context: (project: string, context: string) => [...projectKeys.contexts(project), 'one', context] as const,
  rows: (project: string, context: string) => [...projectKeys.all, 'rows', project, context] as const,
  rowsPage: (project: string, context: string, commit: string | null, offset: number, limit: number) =>
    [...projectKeys.rows(project, context), commit ?? 'now', offset, limit] as const,
  allRows: (project: string, context: string, commit: string | null) => [...projectKeys.rows(project, context), 'all', commit ?? 'now'] as const,
  commits: (project: string, context: string) => [...projectKeys.all, 'commits', project, context] as const,
};

export interface RowsPage {
  logs: Log[];
  count: number;
}

/** Largest context the dashboard diffs in the browser (rollback preview, a commit's changes). */
export const DIFF_ROW_LIMIT = 5000;

/** Every row of a context (now or at a commit), or null when it has more than DIFF_ROW_LIMIT rows. */
async function fetchAllRows(project: string, context: string, commit: string | null, signal: AbortSignal): Promise<Log[] | null> {
  const rows: Log[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await api.get<RowsPage>(`${contextPath(project, context)}/logs`, { signal, query: { offset, limit: 1000, commit } });
    if (page.count > DIFF_ROW_LIMIT) return null;
    rows.push(...page.logs);
    if (page.logs.length < 1000 || rows.length >= page.count) return rows;
  }
}

export const projectQueries = {
  ...baseQueries,
  contexts: (project: string, prefix: string) =>
    queryOptions({
      queryKey: projectKeys.contextList(project, prefix),
      queryFn: ({ signal }) => api.get<Context[]>(`${projectPath(project)}/contexts`, { signal, query: { prefix } }),
      placeholderData: keepPreviousData,
    }),
  /** One context: the list filtered by its exact name as prefix (there is no single-context GET). */
  context: (project: string, context: string) =>
    queryOptions({
      queryKey: projectKeys.context(project, context),
      queryFn: async ({ signal }) => {
        const list = await api.get<Context[]>(`${projectPath(project)}/contexts`, { signal, query: { prefix: context } });
        return list.find((c) => c.name === context) ?? null;
      },
    }),
  rows: (project: string, context: string, commit: string | null, offset: number, limit: number) =>
    queryOptions({
      queryKey: projectKeys.rowsPage(project, context, commit, offset, limit),
      queryFn: ({ signal }) => api.get<RowsPage>(`${contextPath(project, context)}/logs`, { signal, query: { offset, limit, commit } }),
      placeholderData: keepPreviousData,
    }),
  allRows: (project: string, context: string, commit: string | null) =>
    queryOptions({
      queryKey: projectKeys.allRows(project, context, commit),
      queryFn: ({ signal }) => fetchAllRows(project, context, commit, signal),
      // A commit never changes; the current rows do.
      staleTime: commit ? Infinity : 0,
    }),
  commits: (project: string, context: string) =>
    queryOptions({
      queryKey: projectKeys.commits(project, context),
      queryFn: ({ signal }) => api.get<Commit[]>(`${contextPath(project, context)}/commits`, { signal }),
    }),
};
