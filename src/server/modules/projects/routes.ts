import type { FastifyInstance } from 'fastify';
import { createProject, deleteProject, getProject, listProjects } from '../../../shared/operations/projects.ts';
import { scopeOf } from '../../auth/principal.ts';
import { badRequest } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as projects from './repository.ts';
import { projectInScopeOr404 } from './service.ts';

export function projectsRoutes(app: FastifyInstance): void {
  route(app, createProject, async ({ principal, body, deps }) => {
    const created = await projects.createProject(deps.db, scopeOf(principal), body, deps.now());
    // Status and wording as the real service: its SDK treats a 400 saying "already exists" as success.
    if (!created) throw badRequest('A logging project with this name already exists.');
    return { info: 'Project created successfully!' };
  });

  route(app, listProjects, ({ principal, deps }) => projects.listProjectNames(deps.db, scopeOf(principal)));

  route(app, getProject, async ({ principal, params, deps }) => {
    const p = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    return { name: p.name, is_versioned: p.is_versioned === 1, icon: p.icon, order: p.sort_order, description: p.description, created_at: p.created_at };
  });

  route(app, deleteProject, async ({ principal, params, deps }) => {
    const p = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    await projects.deleteProject(deps.db, p.id);
    return { info: 'Project deleted successfully!' };
  });
}
