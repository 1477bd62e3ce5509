import { notifications } from '@mantine/notifications';
import { commitMutations, projectCommitMutations } from '../../data/commits.ts';
import { contextMutations } from '../../data/contexts.ts';
import { projectMutations } from '../../data/projects.ts';
import { rowMutations } from '../../data/rows.ts';
import { useApiMutation } from '../../lib/mutation.ts';

// The project pages' changes: the data files' mutations with what the pages tell the user.

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
  return useApiMutation(contextMutations.create(project), {
    onSuccess: (created) => notifications.show({ color: 'teal', message: `Context ${created.name} created.` }),
  });
}

export function useDeleteContext(project: string) {
  return useApiMutation(contextMutations.delete(project), {
    onSuccess: (_r, name) => notifications.show({ color: 'teal', message: `Context ${name} deleted.` }),
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the context', message: error.message }),
  });
}

export function useAddRow(project: string, context: string) {
  return useApiMutation(rowMutations.add(project, context));
}

export function useUpdateRow(project: string, context: string) {
  return useApiMutation(rowMutations.update(project, context));
}

export function useDeleteRow(project: string, context: string) {
  return useApiMutation(rowMutations.delete(project, context), {
    onSuccess: (_r, id) => notifications.show({ color: 'teal', message: `Row ${id} deleted.` }),
    onError: (error) => notifications.show({ color: 'red', title: 'Could not delete the row', message: error.message }),
  });
}

export function useCommit(project: string, context: string) {
  return useApiMutation(commitMutations.commit(project, context), {
    onSuccess: (result) => notifications.show({ color: 'teal', message: `Committed ${result.commit_hash.slice(0, 7)}.` }),
  });
}

/** `forward`: the target is a later commit than HEAD (after a rollback), so the notice says "moved forward". */
export function useRollback(project: string, context: string, forward: boolean) {
  return useApiMutation(commitMutations.rollback(project, context), {
    onSuccess: (result, hash) =>
      notifications.show({
        color: 'teal',
        message: `${forward ? 'Moved forward to' : 'Rolled back to'} ${hash.slice(0, 7)}.${result.auto_saved_commit_hash ? ` Your uncommitted changes were saved as ${result.auto_saved_commit_hash.slice(0, 7)}.` : ''}`,
      }),
  });
}

export function useCommitProject(project: string) {
  return useApiMutation(projectCommitMutations.commit(project), {
    onSuccess: (result) => notifications.show({ color: 'teal', message: `Project ${project} committed as ${result.commit_hash.slice(0, 7)}.` }),
  });
}

export function useRollbackProject(project: string) {
  return useApiMutation(projectCommitMutations.rollback(project), {
    onSuccess: (result, hash) =>
      notifications.show({
        color: 'teal',
        message: `Restored ${project} to ${hash.slice(0, 7)}${result.restored_contexts.length ? ` (${result.restored_contexts.join(', ')})` : ''}.${result.auto_saved_commit_hash ? ` Your uncommitted changes were saved as ${result.auto_saved_commit_hash.slice(0, 7)}.` : ''}`,
      }),
  });
}
