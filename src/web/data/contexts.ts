import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { createContext, deleteContext, listContexts } from '../../shared/operations/contexts.ts';
import type { Context, ContextInputType } from '../../shared/projects.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { projectKeys } from './projects.ts';

// Contexts of a project: cache keys, reads and changes. Under ['projects', …]: deleting a project drops them.

export const contextKeys = {
  /** Every context read of a project (lists and single contexts): what row and version changes refresh. */
  all: (project: string) => [...projectKeys.all, 'contexts', project] as const,
  list: (project: string, filter: ContextFilter) => [...contextKeys.all(project), 'list', filter.prefix ?? '', filter.search ?? ''] as const,
  one: (project: string, context: string) => [...contextKeys.all(project), 'one', context] as const,
  // The rows and the history of a context (rows.ts, commits.ts) are keyed here, so that those files
  // import this one and never each other.
  rows: (project: string, context: string) => [...projectKeys.all, 'rows', project, context] as const,
  commits: (project: string, context: string) => [...projectKeys.all, 'commits', project, context] as const,
};

/** A literal name prefix (the spec's), and/or text the name contains anywhere, ignoring case (extension). */
export interface ContextFilter {
  prefix?: string;
  search?: string;
}

/** The project page's filter as its address holds it (`?prefix=` or `?search=`), for the route's prefetch. */
export const contextFilterOf = (params: URLSearchParams): ContextFilter => ({ prefix: params.get('prefix') ?? '', search: params.get('search') ?? '' });

const list = (project: string, filter: ContextFilter, signal: AbortSignal) =>
  api(listContexts, { params: { project_name: project }, query: { prefix: filter.prefix || undefined, search: filter.search || undefined }, signal });

export const contextQueries = {
  list: (project: string, filter: ContextFilter = {}) =>
    queryOptions({
      queryKey: contextKeys.list(project, filter),
      queryFn: ({ signal }) => list(project, filter, signal),
      placeholderData: keepPreviousData,
    }),
  /** One context: the list filtered by its exact name as prefix (there is no single-context GET). */
  one: (project: string, context: string) =>
    queryOptions({
      queryKey: contextKeys.one(project, context),
      queryFn: async ({ signal }) => (await list(project, { prefix: context }, signal)).find((c) => c.name === context) ?? null,
    }),
};

export const contextMutations = {
  create: (project: string) =>
    mutation({
      // An object body creates one context and answers it (an array body is the clients' batch create).
      mutationFn: async (body: ContextInputType): Promise<Context> => {
        const created = await api(createContext, { params: { project_name: project }, body });
        if (!('name' in created)) throw new Error('The server answered a batch create to a single one.');
        return created;
      },
      invalidates: () => [contextKeys.all(project)],
    }),
  delete: (project: string) =>
    mutation({
      mutationFn: (name: string) => api(deleteContext, { params: { project_name: project, context_name: name } }),
      invalidates: () => [contextKeys.all(project)],
      removes: (_r, name) => [contextKeys.rows(project, name), contextKeys.commits(project, name)],
    }),
};
