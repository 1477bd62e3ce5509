import { InfoString } from '../common.ts';
import { inScope, operation } from '../operation.ts';
import {
  AtomicBody,
  AtomicPath,
  AtomicResponse,
  CreateFieldsBody,
  CreateLogsBody,
  DeleteFieldsBody,
  DeleteLogsBody,
  DeleteLogsQuery,
  FieldsQuery,
  FieldsResponse,
  GroupsQuery,
  GroupsResponse,
  LogsCreatedResponse,
  MAX_LOGS_BODY_BYTES,
  MetricPath,
  MetricQuery,
  MetricResponse,
  LogsQuery,
  LogsRead,
  LogsUpdatedResponse,
  RenameFieldBody,
  UpdateLogsBody,
} from '../logs.ts';
import {
  AnyObject,
  ClaimBody,
  ClaimResponse,
  DerivedBody,
  DerivedResponse,
  FederatedBody,
  FederatedResponse,
  JoinBody,
  JoinQueryBody,
  JoinQueryResponse,
  JoinResponse,
} from '../logs-queries.ts';

// The logs API of the platform's clients (logs-api.md §4): logs are the rows of their context, so the
// row routes, commits and rollback of shared/operations/contexts.ts see them too.

export const createLogs = operation({
  method: 'POST',
  path: '/v0/logs',
  operationId: 'createLogEvents',
  summary: 'Write one log or a batch into a context (created on first write); per-entry failures are reported, not fatal',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: CreateLogsBody,
  response: LogsCreatedResponse,
  bodyLimit: MAX_LOGS_BODY_BYTES,
  errors: [400, 403, 404, 413],
});

export const readLogs = operation({
  method: 'GET',
  path: '/v0/logs',
  operationId: 'getLogEvents',
  summary: 'Logs of a context, filtered (`filter` or `filter_expr`), sorted and paged; newest first by default',
  tag: 'logs',
  extension: true,
  access: inScope('project:read'),
  query: LogsQuery,
  response: LogsRead,
  errors: [400, 403, 404],
});

export const updateLogs = operation({
  method: 'PUT',
  path: '/v0/logs',
  operationId: 'updateLogEvents',
  summary: 'Change entries of logs given by id (one object for all, or one per log); immutable fields are refused per log',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: UpdateLogsBody,
  response: LogsUpdatedResponse,
  bodyLimit: MAX_LOGS_BODY_BYTES,
  errors: [400, 403, 404, 413],
});

export const deleteLogs = operation({
  method: 'DELETE',
  path: '/v0/logs',
  operationId: 'deleteLogEvents',
  summary: 'Delete logs of a context, or only some of their fields (`ids_and_fields`)',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  query: DeleteLogsQuery,
  body: DeleteLogsBody,
  response: InfoString,
  errors: [400, 403, 404],
});

export const listFields = operation({
  method: 'GET',
  path: '/v0/logs/fields',
  operationId: 'getLogFields',
  summary: 'Fields of a context in creation order, with their types',
  tag: 'logs',
  extension: true,
  access: inScope('project:read'),
  query: FieldsQuery,
  response: FieldsResponse,
  errors: [403, 404],
});

export const createFields = operation({
  method: 'POST',
  path: '/v0/logs/fields',
  operationId: 'createLogFields',
  summary: 'Declare fields (type, mutability, uniqueness, description) of a context',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: CreateFieldsBody,
  response: InfoString,
  errors: [400, 403, 404],
});

export const deleteFields = operation({
  method: 'DELETE',
  path: '/v0/logs/fields',
  operationId: 'deleteLogFields',
  summary: 'Delete fields of a context and their values from every log',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: DeleteFieldsBody,
  response: InfoString,
  errors: [403, 404],
});

export const renameField = operation({
  method: 'PATCH',
  path: '/v0/logs/rename_field',
  operationId: 'renameLogField',
  summary: 'Rename a field of a context, in its definition and in every log',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: RenameFieldBody,
  response: InfoString,
  errors: [400, 403, 404],
});

export const logsMetric = operation({
  method: 'GET',
  path: '/v0/logs/metric/{metric}',
  operationId: 'getLogsMetric',
  summary: 'Reduce a field (count, sum, mean, var, std, min, max, median, mode) over the filtered logs, optionally per group',
  tag: 'logs',
  extension: true,
  access: inScope('project:read'),
  params: MetricPath,
  query: MetricQuery,
  response: MetricResponse,
  errors: [400, 403, 404],
});

export const logsGroups = operation({
  method: 'GET',
  path: '/v0/logs/groups',
  operationId: 'getLogsGroups',
  summary: 'Distinct values of one field over the filtered logs, in first-seen order',
  tag: 'logs',
  extension: true,
  access: inScope('project:read'),
  query: GroupsQuery,
  response: GroupsResponse,
  errors: [400, 403, 404],
});

export const atomicUpdate = operation({
  method: 'PATCH',
  path: '/v0/logs/{log_id}/fields/{field}/atomic',
  operationId: 'atomicUpdateLogField',
  summary: 'Race-safe arithmetic on a numeric field of a log (+N, -N, *N, /N; missing counts as 0)',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  params: AtomicPath,
  body: AtomicBody,
  response: AtomicResponse,
  errors: [400, 403, 404],
});

// ---- Joins, derived entries, and the current release's routes (logs-api.md §4.9–§4.11) -----------

export const joinQuery = operation({
  method: 'POST',
  path: '/v0/logs/join_query',
  operationId: 'joinQueryLogs',
  summary: 'Join the logs of two selections (aliases A and B) without storing the result: rows `{logs, count}`, or a reduction with metric + key',
  description:
    'Rows are filtered (`filter`/`filter_expr` over output columns), sorted (`sorting`) and paged (`limit` 1–1000, `offset`). ' +
    'A reduction (`metric` with `key`, optionally `group_by`) answers a scalar or an object keyed by group. ' +
    '400 for `key` without `metric`, `metric` without `key`, `group_by` without `metric`, and `sorting`, `limit` or a non-zero `offset` with `metric`.',
  tag: 'logs',
  extension: true,
  access: inScope('project:read'),
  body: JoinQueryBody,
  response: JoinQueryResponse,
  errors: [400, 403, 404],
});

export const joinLogs = operation({
  method: 'POST',
  path: '/v0/logs/join',
  operationId: 'joinLogs',
  summary: 'Join the logs of two selections and write every joined row as a log of `new_context` (created; refused when it exists)',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: JoinBody,
  response: JoinResponse,
  errors: [400, 403, 404],
});

export const derivedLogs = operation({
  method: 'POST',
  path: '/v0/logs/derived',
  operationId: 'createDerivedLogs',
  summary: 'Compute `key` from an arithmetic equation over `{alias:field}` placeholders and store it on the referenced logs',
  description:
    '`derived: true` (the default) keeps the equation as a derived column of the context: reads show the value under `derived_entries`, ' +
    'and logs created later with `recompute_derived: true` get it computed. `derived: false` writes plain entries once.',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: DerivedBody,
  response: DerivedResponse,
  errors: [400, 403, 404],
});

export const federatedLogs = operation({
  method: 'POST',
  path: '/v0/logs/federated',
  operationId: 'getLogsFederated',
  summary: 'Logs of several contexts merged, then filtered, sorted and paged as one list, with a count per source',
  tag: 'logs',
  extension: true,
  access: inScope('project:read'),
  body: FederatedBody,
  response: FederatedResponse,
  errors: [400, 403, 404],
});

export const claimLogs = operation({
  method: 'POST',
  path: '/v0/logs/claim',
  operationId: 'claimLogs',
  summary: 'Atomically set `updates` on up to `limit` logs whose fields equal `expect` (compare-and-set; concurrent claimers never get the same log)',
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: ClaimBody,
  response: ClaimResponse,
  errors: [400, 403, 404],
});

const UNSUPPORTED = 'Not supported by this server: answers 400 naming what is not supported.';

export const hydrateLogs = operation({
  method: 'POST',
  path: '/v0/logs/hydrate',
  operationId: 'hydrateLogs',
  summary: 'External fields (hydration from bindings): not supported by this server',
  description: UNSUPPORTED,
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: AnyObject,
  response: InfoString,
  errors: [400, 403],
});

export const externalWrite = operation({
  method: 'POST',
  path: '/v0/logs/external_write',
  operationId: 'requestExternalWrite',
  summary: 'Writes to external bindings (outbox): not supported by this server',
  description: UNSUPPORTED,
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: AnyObject,
  response: InfoString,
  errors: [400, 403],
});

export const fieldBinding = operation({
  method: 'PUT',
  path: '/v0/logs/fields/binding',
  operationId: 'updateExternalFieldBinding',
  summary: 'External field bindings: not supported by this server',
  description: UNSUPPORTED,
  tag: 'logs',
  extension: true,
  access: inScope('project:write'),
  body: AnyObject,
  response: InfoString,
  errors: [400, 403],
});
