import type { FastifyInstance } from 'fastify';
import {
  atomicUpdate,
  createFields,
  createLogs,
  deleteFields,
  deleteLogs,
  listFields,
  logsGroups,
  logsMetric,
  readLogs,
  renameField,
  updateLogs,
} from '../../../shared/operations/logs.ts';
import { scopeOf } from '../../auth/principal.ts';
import { RawJson } from '../../http/raw-json.ts';
import { route } from '../../http/route.ts';
import * as fields from './fields.ts';
import { logsGroups as groupsOf, logsMetric as metricOf } from './metrics.ts';
import { readLogs as read } from './reads.ts';
import * as logs from './service.ts';

export function logsRoutes(app: FastifyInstance): void {
  route(app, createLogs, ({ principal, body, deps }) => logs.createLogs(deps.db, scopeOf(principal), body, deps.now()));
  route(app, readLogs, ({ principal, query, deps }) => read(deps.db, deps.dialect, scopeOf(principal), query));
  route(app, updateLogs, ({ principal, body, deps }) => logs.updateLogs(deps.db, scopeOf(principal), body, deps.now()));
  // The SDK sends delete_empty_logs in the query, the hosted platform reads it from the body: either counts.
  route(app, deleteLogs, ({ principal, query, body, deps }) =>
    logs.deleteLogs(deps.db, scopeOf(principal), body, (body.delete_empty_logs ?? query.delete_empty_logs) === true, deps.now()),
  );
  // A bare scalar (or null) is a valid answer here: sent as JSON text as is.
  route(
    app,
    logsMetric,
    async ({ principal, params, query, deps }) => new RawJson(JSON.stringify(await metricOf(deps.db, deps.dialect, scopeOf(principal), params.metric, query))),
  );
  route(app, logsGroups, ({ principal, query, deps }) => groupsOf(deps.db, deps.dialect, scopeOf(principal), query));
  route(app, atomicUpdate, ({ principal, params, body, deps }) =>
    logs.atomicUpdate(deps.db, deps.dialect, scopeOf(principal), params.log_id, params.field, body.operation, deps.now()),
  );
  route(app, listFields, ({ principal, query, deps }) => fields.listFields(deps.db, scopeOf(principal), query));
  route(app, createFields, ({ principal, body, deps }) => fields.createFields(deps.db, scopeOf(principal), body, deps.now()));
  route(app, deleteFields, ({ principal, body, deps }) => fields.deleteFields(deps.db, scopeOf(principal), body, deps.now()));
  route(app, renameField, ({ principal, body, deps }) => fields.renameField(deps.db, scopeOf(principal), body, deps.now()));
}
