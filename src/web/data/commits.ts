import { queryOptions } from '@tanstack/react-query';
import { commitContext, listCommits, rollbackContext } from '../../shared/operations/contexts.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { commitProject, listProjectCommits, rollbackProject } from '../../shared/operations/projects.ts';
import { contextKeys } from './contexts.ts';
import { projectKeys } from './projects.ts';

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

// Versions of a whole project: one commit of every versioned context, restored together.

export const projectCommitKeys = {
  list: (project: string) => [...projectKeys.all, 'project-commits', project] as const,
};

export const projectCommitQueries = {
  list: (project: string) =>
    queryOptions({
      queryKey: projectCommitKeys.list(project),
      queryFn: ({ signal }) => api(listProjectCommits, { params: { project_name: project }, signal }),
    }),
};

/** A project commit or rollback moves every versioned context: their list, rows and histories, and the project's history. */
const projectMoved = (project: string) => [
  projectCommitKeys.list(project),
  contextKeys.all(project),
  [...projectKeys.all, 'rows', project],
  [...projectKeys.all, 'commits', project],
];

export const projectCommitMutations = {
  commit: (project: string) =>
    mutation({
      mutationFn: (message: string | null) => api(commitProject, { params: { project_name: project }, body: { commit_message: message } }),
      invalidates: () => projectMoved(project),
    }),
  rollback: (project: string) =>
    mutation({
      mutationFn: (hash: string) => api(rollbackProject, { params: { project_name: project }, body: { commit_hash: hash } }),
      invalidates: () => projectMoved(project),
    }),
};
