import { queryOptions } from '@tanstack/react-query';
import { commitContext, listCommits, rollbackContext } from '../../shared/operations/contexts.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { contextKeys } from './contexts.ts';

// Versions of a context: its commit history, committing and rolling back.

export const commitKeys = {
  all: contextKeys.commits,
};

export const commitQueries = {
  list: (project: string, context: string) =>
    queryOptions({
      queryKey: commitKeys.all(project, context),
      queryFn: ({ signal }) => api(listCommits, { params: { project_name: project, context_name: context }, signal }),
    }),
};

/** A commit or a rollback moves HEAD (the context), the history, and (rollback) the rows. */
const moved = (project: string, context: string) => [contextKeys.all(project), contextKeys.rows(project, context), contextKeys.commits(project, context)];

export const commitMutations = {
  commit: (project: string, context: string) =>
    mutation({
      mutationFn: (message: string | null) => api(commitContext, { params: { project_name: project, context_name: context }, body: { commit_message: message } }),
      invalidates: () => moved(project, context),
    }),
  rollback: (project: string, context: string) =>
    mutation({
      mutationFn: (hash: string) => api(rollbackContext, { params: { project_name: project, context_name: context }, body: { commit_hash: hash } }),
      invalidates: () => moved(project, context),
    }),
};
