import { z } from 'zod';
import { InfoString } from '../common.ts';
import { inScope, operation } from '../operation.ts';
import {
  AddLogsInput,
  CommitCreated,
  ContextBatchCreated,
  ContextCreateInput,
  ContextsDeleted,
  DeleteContextQuery,
  RenameContextInput,
  CommitInput,
  CommitList,
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
//
// Context names may hold "/". The platform's clients put them in the path unescaped (logs-api.md §6), so
// `…/contexts/a/b/c/commit` arrives as several segments: the server reads such paths by suffix and
// re-encodes the name into the one `{context_name}` segment before routing (contexts/context-url.ts).
// Roster's own row routes (`…/{c}/logs`, `…/{c}/logs/{id}`) take the name as ONE segment (encoded).

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
  summary: 'Create a context with its rules (unique keys, duplicates, counters, versioning), or several at once',
  description:
    "Without `is_versioned`, the context takes its project's setting: in a versioned project it is versioned. Null values mean unset. " +
    '`foreign_keys` are kept, answered (with `is_nested` and `path_segments`) and enforced on writes and deletes of logs (a reference to a missing context is refused when a value is written); `owner_scope` and `owner_id` are kept. ' +
    'An object body creates one context (400 `already exists` when the name is taken) and answers it. A JSON array body (names or objects, ' +
    'even of one item) creates each item on its own and answers 200 `{info, created, errors: [{index, name, error}]}`: a taken name or an ' +
    'invalid item is an entry of `errors`, not a failure of the request.',
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: ProjectPath,
  body: ContextCreateInput,
  response: z.union([ContextSchema, ContextBatchCreated]),
  errors: [400, 403, 404, 422],
});

export const deleteAllContexts = operation({
  method: 'DELETE',
  path: contexts,
  operationId: 'deleteAllContexts',
  summary: 'Delete every context of a project with their rows and history; the project stays',
  description: 'The default context ("", logs written without a context) is emptied too.',
  tag: 'contexts',
  extension: true,
  access: inScope('project:delete'),
  params: ProjectPath,
  response: InfoString,
  errors: [403, 404],
});

export const getContext = operation({
  method: 'GET',
  path: context,
  operationId: 'getContext',
  summary: 'One context, as the list shows it',
  tag: 'contexts',
  extension: true,
  access: inScope('project:read'),
  params: ContextPath,
  response: ContextSchema,
  errors: [403, 404],
});

export const deleteContext = operation({
  method: 'DELETE',
  path: context,
  operationId: 'deleteContext',
  summary: 'Delete a context with its rows and history; with `include_children`, every context named `{context_name}/…` too',
  description:
    'Children are the contexts whose name starts with the name and a "/" (not siblings that merely share a prefix); they are deleted ' +
    'even when the context itself does not exist. `include_children` is False when absent. 404 when nothing was deleted.',
  tag: 'contexts',
  extension: true,
  access: inScope('project:delete'),
  params: ContextPath,
  query: DeleteContextQuery,
  response: ContextsDeleted,
  errors: [403, 404, 422],
});

export const renameContext = operation({
  method: 'PATCH',
  path: `${context}/rename`,
  operationId: 'renameContext',
  summary: 'Rename a context; its rows, fields and history follow it',
  description: "Contexts named `{context_name}/…` keep their names. The project's dashboard tiles that show the context follow it.",
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: ContextPath,
  body: RenameContextInput,
  response: InfoString,
  errors: [400, 403, 404, 422],
});

export const addLogsToContext = operation({
  method: 'POST',
  path: `${contexts}/add_logs`,
  operationId: 'addLogsToContext',
  summary: 'Add existing logs to a context (they become members of it with the same ids, no copies)',
  description:
    'Creates the context if needed. Each log keeps its id and its other contexts; a log already in the context is left as it is. ' +
    "The logs' fields are added to the context's fields (types inferred as on a first write); a value whose type does not fit a field " +
    "of the context, or a clash with the context's unique keys (or its refusal of duplicates), is a 400 naming the field or key, and nothing changes. " +
    'Unknown log ids are a 400 too.',
  tag: 'contexts',
  extension: true,
  access: inScope('project:write'),
  params: ProjectPath,
  body: AddLogsInput,
  response: InfoString,
  errors: [400, 403, 404, 422],
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
  errors: [400, 403, 404, 409, 422],
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
  errors: [400, 403, 404, 409, 422],
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
  errors: [400, 403, 404],
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
