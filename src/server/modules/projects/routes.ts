import type { FastifyInstance } from 'fastify';
import { commitProject, createProject, deleteProject, getProject, listProjectCommits, listProjects, rollbackProject } from '../../../shared/operations/projects.ts';
import { scopeOf } from '../../auth/principal.ts';
import { badRequest } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as projects from './repository.ts';
import { projectInScopeOr404 } from './service.ts';
import { recordAudit } from '../audit/service.ts';
import { listProjectCommits as projectCommits } from './commits-repository.ts';
import { commitProjectIn, rollbackProjectIn } from './versioning.ts';

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

  route(app, commitProject, async ({ principal, params, body, deps }) => {
    const p = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    const hash = await deps.db.transaction().execute((tx) => commitProjectIn(tx, p, body.commit_message ?? null, deps.now()));
    return { info: `Project ${p.name} committed.`, commit_hash: hash };
  });

  route(app, listProjectCommits, async ({ principal, params, deps }) => {
    const p = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    return projectCommits(deps.db, p.id);
  });

  route(app, rollbackProject, async ({ principal, params, body, deps, idempotency }) => {
    const p = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    const now = deps.now();
    return idempotency.transaction(deps.db, async (tx) => {
      const answer = await rollbackProjectIn(tx, p, body.commit_hash, now);
      await recordAudit(tx, {
        workspace: scopeOf(principal),
        actor: principal,
        action: 'project.rolled_back',
        target: { type: 'project', id: p.id, label: p.name },
        detail: { commit_hash: body.commit_hash, restored_contexts: answer.restored_contexts },
        at: now,
      });
      return answer;
    });
  });
}
