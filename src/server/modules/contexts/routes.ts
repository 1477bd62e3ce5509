import type { FastifyInstance } from 'fastify';
import {
  addLogsToContext,
  commitContext,
  createContext,
  deleteAllContexts,
  getContext,
  renameContext,
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
import type { Conn } from '../../db/connection.ts';
import {
  addLogsTo,
  addRows,
  commit,
  contextAnswer,
  contextInScopeOr404,
  createContextIn,
  createContextsBatch,
  deleteContextsNamed,
  removeRow,
  renameContextTo,
  rollbackTo,
  rowsPage,
  updateRow,
} from './service.ts';
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
    const audit = (tx: Conn, name: string) =>
      recordAudit(tx, {
        workspace: scopeOf(principal),
        actor: principal,
        action: 'context.created',
        target: { type: 'context', id: null, label: `${project.name}/${name}` },
        at: now,
      });
    if (Array.isArray(body)) return createContextsBatch(deps.db, project, body, now, audit);
    return createContextIn(deps.db, deps.dialect, project, body, now, (tx) => audit(tx, body.name));
  });

  route(app, getContext, async ({ principal, params, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    return contextAnswer(deps.db, deps.dialect, context.project_id, context.name);
  });

  route(app, deleteContext, async ({ principal, params, query, deps }) => {
    const project = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    const at = deps.now();
    const deleted = await deleteContextsNamed(deps.db, project, params.context_name, query.include_children ?? false, async (tx, rows) => {
      for (const r of rows) {
        const target = { type: 'context', id: r.id, label: `${project.name}/${r.name}` };
        await recordAudit(tx, { workspace: scopeOf(principal), actor: principal, action: 'context.deleted', target, at });
      }
    });
    return { info: deleted.length === 1 ? 'Context deleted successfully!' : `${deleted.length} contexts deleted successfully!`, deleted };
  });

  route(app, deleteAllContexts, async ({ principal, params, deps }) => {
    const project = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    const count = await deps.db.transaction().execute(async (tx) => {
      const n = await contexts.deleteAllContexts(tx, project.id);
      const target = { type: 'project', id: project.id, label: project.name };
      await recordAudit(tx, { workspace: scopeOf(principal), actor: principal, action: 'contexts.deleted_all', target, detail: { contexts: n }, at: deps.now() });
      return n;
    });
    return { info: `Deleted ${count} context(s) of project '${project.name}'.` };
  });

  route(app, renameContext, async ({ principal, params, body, deps }) => {
    const context = await contextInScopeOr404(deps.db, scopeOf(principal), params.project_name, params.context_name);
    await renameContextTo(deps.db, context, body.name, (tx) => {
      const target = { type: 'context', id: context.id, label: `${params.project_name}/${body.name}` };
      const detail = { from: context.name, to: body.name };
      return recordAudit(tx, { workspace: scopeOf(principal), actor: principal, action: 'context.renamed', target, detail, at: deps.now() });
    });
    return { info: `Context '${context.name}' renamed to '${body.name}'.` };
  });

  route(app, addLogsToContext, async ({ principal, params, body, deps }) => {
    const project = await projectInScopeOr404(deps.db, scopeOf(principal), params.project_name);
    const ids = Array.isArray(body.log_ids) ? body.log_ids : [body.log_ids];
    return { info: await addLogsTo(deps.db, project, body.context_name, ids, deps.now()) };
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
