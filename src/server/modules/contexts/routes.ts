import type { FastifyInstance } from 'fastify';
import {
  commitContext,
  createContext,
  createLogs,
  deleteContext,
  deleteLog,
  listCommits,
  listContexts,
  listLogs,
  rollbackContext,
  updateLog,
} from '../../../shared/operations/contexts.ts';
import { scopeOf } from '../../auth/principal.ts';
import { RawJson } from '../../http/raw-json.ts';
import { route } from '../../http/route.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import * as contexts from './repository.ts';
import { addRows, commit, contextInScopeOr404, createContextIn, removeRow, rollbackTo, rowsPage, updateRow } from './service.ts';
import * as versions from './commits-repository.ts';
import { recordAudit } from '../audit/service.ts';

export function contextsRoutes(app: FastifyInstance): void {
  route(app, listContexts, async ({ principal, params, query, deps }) => {
    const project = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    return new RawJson(await contexts.contextsJson(deps.db, deps.dialect, project.id, { prefix: query.prefix, search: query.search }));
  });

  route(app, createContext, async ({ principal, params, body, deps }) => {
    const project = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    const now = deps.now();
    const audit = {
      workspace: scopeOf(principal),
      actor: principal,
      action: 'context.created',
      target: { type: 'context', id: null, label: `${project.name}/${body.name}` },
      at: now,
    } as const;
    return createContextIn(deps.db, deps.dialect, project, body, now, (tx) => recordAudit(tx, audit));
  });

  route(app, deleteContext, async ({ principal, params, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    await deps.db.transaction().execute(async (tx) => {
      await contexts.deleteContext(tx, context.id);
      const target = { type: 'context', id: context.id, label: `${params.project_name}/${context.name}` };
      await recordAudit(tx, { workspace: scopeOf(principal), actor: principal, action: 'context.deleted', target, at: deps.now() });
    });
    return { info: 'Context deleted successfully!' };
  });

  route(app, listLogs, async ({ principal, params, query, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    return rowsPage(deps.db, context, query.commit, query.offset ?? 0, query.limit ?? 100);
  });

  route(app, createLogs, async ({ principal, params, body, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    return { ids: await addRows(deps.db, context, body.entries, deps.now()) };
  });

  route(app, updateLog, async ({ principal, params, body, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    await updateRow(deps.db, context, params.log_id, body.entries, deps.now());
    return { info: 'Log updated successfully!' };
  });

  route(app, deleteLog, async ({ principal, params, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    await removeRow(deps.db, context, params.log_id);
    return { info: 'Log deleted successfully!' };
  });

  route(app, commitContext, async ({ principal, params, body, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    return { commit_hash: await commit(deps.db, context, body.commit_message ?? null, deps.now()) };
  });

  route(app, listCommits, async ({ principal, params, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    return versions.listCommits(deps.db, context.id);
  });

  route(app, rollbackContext, async ({ principal, params, body, deps, idempotency }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    const now = deps.now();
    return idempotency.transaction(deps.db, async (tx) => {
      const answer = await rollbackTo(tx, context, body.commit_hash, now);
      const target = { type: 'context', id: context.id, label: `${params.project_name}/${context.name}` };
      await recordAudit(tx, {
        workspace: scopeOf(principal),
        actor: principal,
        action: 'context.rolled_back',
        target,
        detail: { commit_hash: body.commit_hash },
        at: now,
      });
      return answer;
    });
  });
}
