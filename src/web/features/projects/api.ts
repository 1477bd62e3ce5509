import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Context, ContextInputType } from '../../../shared/projects.ts';
import { projectMutations } from '../../data/projects.ts';
import { useApiMutation } from '../../lib/mutation.ts';
import { api } from '../../lib/api-client.ts';
import { contextPath, projectKeys } from './queries.ts';

const enc = encodeURIComponent;

/** Dashboard URLs (a context name may contain "/", so it is encoded as one segment). */
export const projectUrl = (project: string) => `/projects/${enc(project)}`;
export const contextUrl = (project: string, context: string) => `${projectUrl(project)}/contexts/${enc(context)}`;

export function useCreateProject() {
  return useApiMutation(projectMutations.create, {
    onSuccess: (_r, input) => notifications.show({ color: 'teal', message: `Project ${input.name.trim()} created.` }),
  });
}

export function useDeleteProject() {
  return useApiMutation(projectMutations.delete, {
    onSuccess: (_r, name) => notifications.show({ color: 'teal', message: `Project ${name} deleted.` }),
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
