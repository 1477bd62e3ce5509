import { notifications } from '@mantine/notifications';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Commit, Context, ContextInputType, Log, Project, ProjectInputType } from '../../../shared/projects.ts';
import { api } from '../../lib/api-client.ts';

const enc = encodeURIComponent;
export const projectPath = (project: string) => `/v0/project/${enc(project)}`;
export const contextPath = (project: string, context: string) => `${projectPath(project)}/contexts/${enc(context)}`;

/** Dashboard URLs (a context name may contain "/", so it is encoded as one segment). */
export const projectUrl = (project: string) => `/projects/${enc(project)}`;
export const contextUrl = (project: string, context: string) => `${projectUrl(project)}/contexts/${enc(context)}`;

export const projectKeys = {
  all: ['projects'] as const,
  names: () => [...projectKeys.all, 'names'] as const,
  project: (name: string) => [...projectKeys.all, 'project', name] as const,
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
  names: () =>
    queryOptions({
      queryKey: projectKeys.names(),
      queryFn: ({ signal }) => api.get<string[]>('/v0/projects', { signal }),
    }),
  project: (name: string) =>
    queryOptions({
      queryKey: projectKeys.project(name),
      queryFn: ({ signal }) => api.get<Project>(projectPath(name), { signal }),
    }),
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

export function useCreateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProjectInputType) => api.post<{ info: string }>('/v0/project', input),
    onSuccess: (_r, input) => {
      void client.invalidateQueries({ queryKey: projectKeys.names() });
      notifications.show({ color: 'teal', message: `Project ${input.name.trim()} created.` });
    },
  });
}

export function useDeleteProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.delete<{ info: string }>(projectPath(name)),
    onSuccess: (_r, name) => {
      client.removeQueries({ queryKey: projectKeys.project(name) });
      void client.invalidateQueries({ queryKey: projectKeys.names() });
      notifications.show({ color: 'teal', message: `Project ${name} deleted.` });
    },
  });
}

export function useCreateContext(project: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ContextInputType) => api.post<Context>(`${projectPath(project)}/contexts`, input),
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: projectKeys.contexts(project) });
      notifications.show({ color: 'teal', message: `Context ${created.name} created.` });
    },
  });
}

export function useDeleteContext(project: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.delete<{ info: string }>(contextPath(project, name)),
    onSuccess: (_r, name) => {
      void client.invalidateQueries({ queryKey: projectKeys.contexts(project) });
      notifications.show({ color: 'teal', message: `Context ${name} deleted.` });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the context', message: error.message }),
  });
}

/** Row and version changes refresh the context (uncommitted count, HEAD), its rows and its history. */
function useInvalidateContext(project: string, context: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: projectKeys.contexts(project) }),
      client.invalidateQueries({ queryKey: projectKeys.rows(project, context) }),
      client.invalidateQueries({ queryKey: projectKeys.commits(project, context) }),
    ]);
}

export function useAddRow(project: string, context: string) {
  const invalidate = useInvalidateContext(project, context);
  return useMutation({
    mutationFn: (entries: Record<string, unknown>) => api.post<{ ids: number[] }>(`${contextPath(project, context)}/logs`, { entries: [entries] }),
    onSuccess: () => invalidate(),
  });
}

export function useUpdateRow(project: string, context: string) {
  const invalidate = useInvalidateContext(project, context);
  return useMutation({
    mutationFn: ({ id, entries }: { id: number; entries: Record<string, unknown> }) =>
      api.patch<{ info: string }>(`${contextPath(project, context)}/logs/${id}`, { entries }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteRow(project: string, context: string) {
  const invalidate = useInvalidateContext(project, context);
  return useMutation({
    mutationFn: (id: number) => api.delete<{ info: string }>(`${contextPath(project, context)}/logs/${id}`),
    onSuccess: (_r, id) => {
      void invalidate();
      notifications.show({ color: 'teal', message: `Row ${id} deleted.` });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the row', message: error.message }),
  });
}

export function useCommit(project: string, context: string) {
  const invalidate = useInvalidateContext(project, context);
  return useMutation({
    mutationFn: (message: string | null) => api.post<{ commit_hash: string }>(`${contextPath(project, context)}/commit`, { commit_message: message }),
    onSuccess: (result) => {
      void invalidate();
      notifications.show({ color: 'teal', message: `Committed ${result.commit_hash.slice(0, 7)}.` });
    },
  });
}

export function useRollback(project: string, context: string) {
  const invalidate = useInvalidateContext(project, context);
  return useMutation({
    mutationFn: (hash: string) =>
      api.post<{ status: 'success'; message: string; auto_saved_commit_hash: string | null }>(`${contextPath(project, context)}/rollback`, { commit_hash: hash }),
    onSuccess: (result, hash) => {
      void invalidate();
      notifications.show({
        color: 'teal',
        message: `Rolled back to ${hash.slice(0, 7)}.${result.auto_saved_commit_hash ? ` Your uncommitted changes were saved as ${result.auto_saved_commit_hash.slice(0, 7)}.` : ''}`,
      });
    },
  });
}
