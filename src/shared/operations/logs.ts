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
