import type { FastifyInstance } from 'fastify';
import { createProject, deleteProject, getProject, listProjects } from '../../../shared/operations/projects.ts';
import { scopeOf } from '../../auth/principal.ts';
import { badRequest } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as projects from './repository.ts';
import { projectInScopeOr404 } from './service.ts';
import { recordAudit } from '../audit/service.ts';

export function projectsRoutes(app: FastifyInstance): void {
  route(app, createProject, async ({ principal, body, deps }) => {
    const now = deps.now();
    const created = await deps.db.transaction().execute(async (tx) => {
      const row = await projects.createProject(tx, scopeOf(principal), body, now);
      if (row)
        await recordAudit(tx, {
          workspace: scopeOf(principal),
          actor: principal,
          action: 'project.created',
          target: { type: 'project', id: row.id, label: body.name },
          at: now,
        });
      return row;
    });
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
    await deps.db.transaction().execute(async (tx) => {
      await projects.deleteProject(tx, p.id);
      await recordAudit(tx, {
        workspace: scopeOf(principal),
        actor: principal,
        action: 'project.deleted',
        target: { type: 'project', id: p.id, label: p.name },
        at: deps.now(),
      });
    });
    return { info: 'Project deleted successfully!' };
  });
}
