import type { FastifyInstance } from 'fastify';
import { acquireSyncLease, releaseSyncLease } from '../../../shared/operations/sync-lease.ts';
import {
  atomicUpdate,
  claimLogs,
  derivedLogs,
  federatedLogs,
  externalWrite,
  fieldBinding,
  hydrateLogs,
  joinLogs,
  joinQuery,
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
import { badRequestError } from '../../domain-errors.ts';
import * as fields from './fields.ts';
import * as joins from './joins.ts';
import { createDerived } from './derived.ts';
import * as current from './federated.ts';
import * as leases from './sync-lease.ts';
import { logsGroups as groupsOf, logsMetric as metricOf } from './metrics.ts';
import { readLogs as read } from './reads.ts';
import * as logs from './service.ts';

export function logsRoutes(app: FastifyInstance): void {
  route(app, createLogs, ({ principal, body, deps }) => logs.createLogs(deps.db, deps.dialect, scopeOf(principal), body, deps.now()));
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
  route(app, deleteFields, ({ principal, body, deps }) => fields.deleteFields(deps.db, deps.dialect, scopeOf(principal), body, deps.now()));
  route(app, joinQuery, async ({ principal, body, deps }) => new RawJson(JSON.stringify(await joins.joinQuery(deps.db, deps.dialect, scopeOf(principal), body))));
  route(app, joinLogs, ({ principal, body, deps }) => joins.joinLogs(deps.db, deps.dialect, scopeOf(principal), body, deps.now()));
  route(app, derivedLogs, ({ principal, body, deps }) => createDerived(deps.db, deps.dialect, scopeOf(principal), body, deps.now()));
  route(app, federatedLogs, ({ principal, body, deps }) => current.federatedLogs(deps.db, deps.dialect, scopeOf(principal), body));
  route(app, claimLogs, ({ principal, body, deps }) => current.claimLogs(deps.db, deps.dialect, scopeOf(principal), body, deps.now()));
  route(app, acquireSyncLease, ({ principal, body, deps }) => leases.acquireLease(deps.db, scopeOf(principal), body, deps.now()));
  route(app, releaseSyncLease, ({ principal, body, deps }) => leases.releaseLease(deps.db, scopeOf(principal), body));
  // The current release's external fields (logs-api.md §4.11, §15.11): their server side is not specified; refused by name.
  route(app, hydrateLogs, () => {
    throw badRequestError('POST /v0/logs/hydrate is not supported by this server: external fields (bindings, hydration) are not implemented.');
  });
  route(app, externalWrite, () => {
    throw badRequestError('POST /v0/logs/external_write is not supported by this server: writes to external bindings (outbox) are not implemented.');
  });
  route(app, fieldBinding, () => {
    throw badRequestError('PUT /v0/logs/fields/binding is not supported by this server: external field bindings are not implemented.');
  });
  route(app, renameField, ({ principal, body, deps }) => fields.renameField(deps.db, deps.dialect, scopeOf(principal), body, deps.now()));
}
