import { queryOptions } from '@tanstack/react-query';
import { createProject, deleteProject, getProject, listProjects } from '../../shared/operations/projects.ts';
import type { ProjectInputType } from '../../shared/projects.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';

// Projects: cache keys, reads and changes. Contexts, rows and commits have their own files; their
// keys live under ['projects', …] so that deleting a project drops them too.

export const projectKeys = {
  all: ['projects'] as const,
  names: () => [...projectKeys.all, 'names'] as const,
  project: (name: string) => [...projectKeys.all, 'project', name] as const,
};

export const projectQueries = {
  names: () => queryOptions({ queryKey: projectKeys.names(), queryFn: ({ signal }) => api(listProjects, { signal }) }),
  project: (name: string) => queryOptions({ queryKey: projectKeys.project(name), queryFn: ({ signal }) => api(getProject, { params: { project_name: name }, signal }) }),
};

export const projectMutations = {
  create: mutation({
    mutationFn: (body: ProjectInputType) => api(createProject, { body }),
    invalidates: () => [projectKeys.names()],
  }),
  delete: mutation({
    mutationFn: (name: string) => api(deleteProject, { params: { project_name: name } }),
    invalidates: () => [projectKeys.names()],
    removes: (_r, name) => [projectKeys.project(name)],
  }),
};
