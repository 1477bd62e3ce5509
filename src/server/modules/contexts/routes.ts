import type { FastifyInstance } from 'fastify';
import { InfoString } from '../../../shared/common.ts';
import {
  CommitCreated,
  CommitInput,
  CommitList,
  ContextInput,
  ContextPath,
  ContextSchema,
  type Context,
  ContextsQuery,
  LogPatch,
  LogPath,
  LogsCreated,
  LogsInput,
  LogsQuery,
  LogsResponse,
  ProjectPath,
  RollbackInput,
  RollbackResponse,
} from '../../../shared/projects.ts';
import { requireKeyPermission, type Principal } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { RawJson } from '../../http/raw-json.ts';
import { route } from '../../http/route.ts';
import { projectOr404 } from '../projects/routes.ts';
import { contextsJson, createContext, deleteContext, deleteRow, findContext, insertRows, listRows, patchRow, rulesOf } from './repository.ts';
import { createCommit, findCommit, listCommits, rollback, rowsAtCommit } from './versioning.ts';

async function contextOr404(db: Conn, principal: Principal, projectName: string, contextName: string) {
  const project = await projectOr404(db, principal, projectName);
  const context = await findContext(db, project.id, contextName);
  if (!context) throw notFound('Context not found.');
  return context;
}

const parseEntries = (text: string) => JSON.parse(text) as Record<string, unknown>;

export function contextsRoutes(app: FastifyInstance): void {
  const base = '/v0/project/{project_name}/contexts';

  route(app, {
    method: 'GET',
    url: base,
    operationId: 'listContexts',
    summary: 'Contexts of a project; `prefix` filters by a literal name prefix',
    tag: 'contexts',
    params: ProjectPath,
    query: ContextsQuery,
    response: ContextSchema.array(),
    errors: [403, 404],
    handler: async ({ principal, params, query, deps }) => {
      requireKeyPermission(principal, 'project:read');
      const project = await projectOr404(deps.db, principal, params.project_name);
      return new RawJson(await contextsJson(deps.db, deps.dialect, project.id, { prefix: query.prefix }));
    },
  });

  route(app, {
    method: 'POST',
    url: base,
    operationId: 'createContext',
    summary: 'Create a context with its rules (unique keys, duplicates, counters, versioning)',
    tag: 'contexts',
    extension: true,
    params: ProjectPath,
    body: ContextInput,
    response: ContextSchema,
    errors: [400, 403, 404, 422],
    handler: async ({ principal, params, body, deps }) => {
      requireKeyPermission(principal, 'project:write');
      const project = await projectOr404(deps.db, principal, params.project_name);
      const created = await createContext(deps.db, project.id, body, deps.now());
      if (!created) throw badRequest('A context with this name already exists in the project.');
      return (new RawJson(await contextsJson(deps.db, deps.dialect, project.id, { name: body.name })).parse() as Context[])[0];
    },
  });

  route(app, {
    method: 'DELETE',
    url: `${base}/{context_name}`,
    operationId: 'deleteContext',
    summary: 'Delete a context with its rows and history',
    tag: 'contexts',
    extension: true,
    params: ContextPath,
    response: InfoString,
    errors: [403, 404],
    handler: async ({ principal, params, deps }) => {
      requireKeyPermission(principal, 'project:delete');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      await deleteContext(deps.db, context.id);
      return { info: 'Context deleted successfully!' };
    },
  });

  route(app, {
    method: 'GET',
    url: `${base}/{context_name}/logs`,
    operationId: 'listLogs',
    summary: 'Rows of a context (now, or at a commit with `commit`)',
    tag: 'contexts',
    extension: true,
    params: ContextPath,
    query: LogsQuery,
    response: LogsResponse,
    errors: [400, 403, 404],
    handler: async ({ principal, params, query, deps }) => {
      requireKeyPermission(principal, 'project:read');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 100;
      if (query.commit) {
        const commit = await findCommit(deps.db, context.id, query.commit);
        if (!commit) throw badRequest(`Commit hash ${query.commit} not found for context ${context.name}.`);
        const { rows, count } = await rowsAtCommit(deps.db, commit.id, offset, limit);
        return { logs: rows.map((r) => ({ id: Number(r.row_id), entries: parseEntries(r.entries), created_at: r.created_at, updated_at: r.updated_at })), count };
      }
      const { rows, count } = await listRows(deps.db, context.id, offset, limit);
      return { logs: rows.map((r) => ({ id: r.id, entries: parseEntries(r.entries), created_at: r.created_at, updated_at: r.updated_at })), count };
    },
  });

  route(app, {
    method: 'POST',
    url: `${base}/{context_name}/logs`,
    operationId: 'createLogs',
    summary: 'Add rows; unique keys, duplicates and counters are enforced for the whole batch',
    tag: 'contexts',
    extension: true,
    params: ContextPath,
    body: LogsInput,
    response: LogsCreated,
    errors: [403, 404, 409, 422],
    handler: async ({ principal, params, body, deps }) => {
      requireKeyPermission(principal, 'project:write');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      const ids = await deps.db.transaction().execute((tx) => insertRows(tx, rulesOf(context), body.entries, deps.now()));
      return { ids };
    },
  });

  route(app, {
    method: 'PATCH',
    url: `${base}/{context_name}/logs/{log_id}`,
    operationId: 'updateLog',
    summary: 'Change columns of a row (null clears one)',
    tag: 'contexts',
    extension: true,
    params: LogPath,
    body: LogPatch,
    response: InfoString,
    errors: [403, 404, 409, 422],
    handler: async ({ principal, params, body, deps }) => {
      requireKeyPermission(principal, 'project:write');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      const found = await deps.db.transaction().execute((tx) => patchRow(tx, rulesOf(context), params.log_id, body.entries, deps.now()));
      if (!found) throw notFound('Log not found.');
      return { info: 'Log updated successfully!' };
    },
  });

  route(app, {
    method: 'DELETE',
    url: `${base}/{context_name}/logs/{log_id}`,
    operationId: 'deleteLog',
    summary: 'Delete a row',
    tag: 'contexts',
    extension: true,
    params: LogPath,
    response: InfoString,
    errors: [403, 404],
    handler: async ({ principal, params, deps }) => {
      requireKeyPermission(principal, 'project:write');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      const found = await deps.db.transaction().execute((tx) => deleteRow(tx, rulesOf(context), params.log_id));
      if (!found) throw notFound('Log not found.');
      return { info: 'Log deleted successfully!' };
    },
  });

  route(app, {
    method: 'POST',
    url: `${base}/{context_name}/commit`,
    operationId: 'commitContext',
    summary: 'Commit the current rows of a versioned context',
    tag: 'contexts',
    extension: true,
    params: ContextPath,
    body: CommitInput,
    response: CommitCreated,
    errors: [400, 403, 404],
    handler: async ({ principal, params, body, deps }) => {
      requireKeyPermission(principal, 'project:write');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      if (!context.is_versioned) throw badRequest('Context is not versioned.');
      const hash = await deps.db.transaction().execute((tx) => createCommit(tx, context.id, body.commit_message ?? null, deps.now()));
      return { commit_hash: hash };
    },
  });

  route(app, {
    method: 'GET',
    url: `${base}/{context_name}/commits`,
    operationId: 'listCommits',
    summary: 'Commit history of a context, newest first, with the DAG links',
    tag: 'contexts',
    extension: true,
    params: ContextPath,
    response: CommitList,
    errors: [403, 404],
    handler: async ({ principal, params, deps }) => {
      requireKeyPermission(principal, 'project:read');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      return listCommits(deps.db, context.id);
    },
  });

  route(app, {
    method: 'POST',
    url: `${base}/{context_name}/rollback`,
    operationId: 'rollbackContext',
    summary: 'Move a context to a commit (uncommitted changes are auto-saved first)',
    tag: 'contexts',
    params: ContextPath,
    body: RollbackInput,
    response: RollbackResponse,
    errors: [400, 403, 404, 422],
    idempotent: true,
    handler: async ({ principal, params, body, deps, idempotency }) => {
      requireKeyPermission(principal, 'project:write');
      const context = await contextOr404(deps.db, principal, params.project_name, params.context_name);
      return idempotency.transaction(deps.db, async (tx) => {
        const autoSaved = await rollback(tx, context.id, context.name, body.commit_hash, deps.now());
        return { status: 'success' as const, message: `Context ${context.name} rolled back to ${body.commit_hash}`, auto_saved_commit_hash: autoSaved };
      });
    },
  });
}
