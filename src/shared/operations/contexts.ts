import { InfoString } from '../common.ts';
import { inScope, operation } from '../operation.ts';
import {
  CommitCreated,
  CommitInput,
  CommitList,
  ContextInput,
  ContextPath,
  ContextSchema,
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
} from '../projects.ts';

// Contexts of a project, their rows (logs) and their versions (commits).

const contexts = '/v0/project/{project_name}/contexts';
const context = `${contexts}/{context_name}`;

export const listContexts = operation({
  method: 'GET',
  path: contexts,
  operationId: 'listContexts',
  summary: 'Contexts of a project; `prefix` filters by a literal name prefix',
  description: 'Extension: `search` keeps the contexts whose name contains the text anywhere, ignoring case; with `prefix` too, both must hold.',
  tag: 'contexts',
  access: inScope('project:read'),
  params: ProjectPath,
  query: ContextsQuery,
  response: ContextSchema.array(),
  errors: [403, 404],
});

export const createContext = operation({
  method: 'POST',
  path: contexts,
  operationId: 'createContext',
  summary: 'Create a context with its rules (unique keys, duplicates, counters, versioning)',
  description: "Without `is_versioned`, the context takes its project's setting: in a versioned project it is versioned.",
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: ProjectPath,
  body: ContextInput,
  response: ContextSchema,
  errors: [400, 403, 404, 422],
});

export const deleteContext = operation({
  method: 'DELETE',
  path: context,
  operationId: 'deleteContext',
  summary: 'Delete a context with its rows and history',
  tag: 'contexts',
  extension: true,
  access: inScope('project:delete'),
  params: ContextPath,
  response: InfoString,
  errors: [403, 404],
});

export const listLogs = operation({
  method: 'GET',
  path: `${context}/logs`,
  operationId: 'listLogs',
  summary: 'Rows of a context (now, or at a commit with `commit`)',
  tag: 'contexts',
  extension: true,
  access: inScope('project:read'),
  params: ContextPath,
  query: LogsQuery,
  response: LogsResponse,
  errors: [400, 403, 404],
});

export const createLogs = operation({
  method: 'POST',
  path: `${context}/logs`,
  operationId: 'createLogs',
  summary: 'Add rows; unique keys, duplicates and counters are enforced for the whole batch',
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: ContextPath,
  body: LogsInput,
  response: LogsCreated,
  errors: [403, 404, 409, 422],
});

export const updateLog = operation({
  method: 'PATCH',
  path: `${context}/logs/{log_id}`,
  operationId: 'updateLog',
  summary: 'Change columns of a row (null clears one)',
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: LogPath,
  body: LogPatch,
  response: InfoString,
  errors: [403, 404, 409, 422],
});

export const deleteLog = operation({
  method: 'DELETE',
  path: `${context}/logs/{log_id}`,
  operationId: 'deleteLog',
  summary: 'Delete a row',
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: LogPath,
  response: InfoString,
  errors: [403, 404],
});

export const commitContext = operation({
  method: 'POST',
  path: `${context}/commit`,
  operationId: 'commitContext',
  summary: 'Commit the current rows of a versioned context',
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: ContextPath,
  body: CommitInput,
  response: CommitCreated,
  errors: [400, 403, 404],
});

export const listCommits = operation({
  method: 'GET',
  path: `${context}/commits`,
  operationId: 'listCommits',
  summary: 'Commit history of a context, newest first, with the DAG links',
  tag: 'contexts',
  extension: true,
  access: inScope('project:read'),
  params: ContextPath,
  response: CommitList,
  errors: [403, 404],
});

export const rollbackContext = operation({
  method: 'POST',
  path: `${context}/rollback`,
  operationId: 'rollbackContext',
  summary: 'Move a context to a commit (uncommitted changes are auto-saved first)',
  tag: 'contexts',
  access: inScope('project:write'),
  params: ContextPath,
  body: RollbackInput,
  response: RollbackResponse,
  errors: [400, 403, 404, 422],
  idempotent: true,
});
