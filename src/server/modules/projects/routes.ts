import type { FastifyInstance } from 'fastify';
import { InfoString } from '../../../shared/common.ts';
import { ProjectInput, ProjectNames, ProjectPath, ProjectSchema } from '../../../shared/projects.ts';
import { requireKeyPermission, scopeOf, type Principal } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { createProject, deleteProject, findProjectByName, listProjectNames } from './repository.ts';
import './tiles-access.ts';

/** The project of the key's scope with that name, or 404 (another tenant's project does not exist for you). */
export async function projectOr404(db: Conn, principal: Principal, name: string) {
  const project = await findProjectByName(db, scopeOf(principal), name);
  if (!project) throw notFound('Project not found.');
  return project;
}

export function projectsRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'POST',
    url: '/v0/project',
    operationId: 'createProject',
    summary: 'Create a logging project in the key’s scope',
    tag: 'projects',
    body: ProjectInput,
    response: InfoString,
    errors: [400, 403, 422],
    handler: async ({ principal, body, deps }) => {
      requireKeyPermission(principal, 'project:write');
      const created = await createProject(deps.db, scopeOf(principal), body, deps.now());
      // Status and wording as the real service: its SDK treats a 400 saying "already exists" as success.
      if (!created) throw badRequest('A logging project with this name already exists.');
      return { info: 'Project created successfully!' };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/projects',
    operationId: 'listProjects',
    summary: 'Project names of the key’s scope, in order',
    tag: 'projects',
    response: ProjectNames,
    errors: [403],
    handler: async ({ principal, deps }) => {
      requireKeyPermission(principal, 'project:read');
      return listProjectNames(deps.db, scopeOf(principal));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/project/{project_name}',
    operationId: 'getProject',
    summary: 'One project',
    tag: 'projects',
    extension: true,
    params: ProjectPath,
    response: ProjectSchema,
    errors: [403, 404],
    handler: async ({ principal, params, deps }) => {
      requireKeyPermission(principal, 'project:read');
      const p = await projectOr404(deps.db, principal, params.project_name);
      return { name: p.name, is_versioned: p.is_versioned === 1, icon: p.icon, order: p.sort_order, description: p.description, created_at: p.created_at };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/project/{project_name}',
    operationId: 'deleteProject',
    summary: 'Delete a project with its contexts, rows, history and dashboards',
    tag: 'projects',
    extension: true,
    params: ProjectPath,
    response: InfoString,
    errors: [403, 404],
    handler: async ({ principal, params, deps }) => {
      requireKeyPermission(principal, 'project:delete');
      const p = await projectOr404(deps.db, principal, params.project_name);
      await deleteProject(deps.db, p.id);
      return { info: 'Project deleted successfully!' };
    },
  });
}
