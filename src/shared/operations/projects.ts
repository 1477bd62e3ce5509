import { InfoString } from '../common.ts';
import { inScope, operation } from '../operation.ts';
import {
  ProjectCommitCreated,
  ProjectCommitInput,
  ProjectCommitList,
  ProjectInput,
  ProjectNames,
  ProjectPath,
  ProjectRollbackInput,
  ProjectRollbackResponse,
  ProjectSchema,
} from '../projects.ts';

export const createProject = operation({
  method: 'POST',
  path: '/v0/project',
  operationId: 'createProject',
  summary: 'Create a logging project in the key’s scope',
  tag: 'projects',
  access: inScope('project:write'),
  body: ProjectInput,
  response: InfoString,
  errors: [400, 403, 422],
});

export const listProjects = operation({
  method: 'GET',
  path: '/v0/projects',
  operationId: 'listProjects',
  summary: 'Project names of the key’s scope, in order',
  tag: 'projects',
  access: inScope('project:read'),
  response: ProjectNames,
  errors: [403],
});

export const getProject = operation({
  method: 'GET',
  path: '/v0/project/{project_name}',
  operationId: 'getProject',
  summary: 'One project',
  tag: 'projects',
  extension: true,
  access: inScope('project:read'),
  params: ProjectPath,
  response: ProjectSchema,
  errors: [403, 404],
});

export const deleteProject = operation({
  method: 'DELETE',
  path: '/v0/project/{project_name}',
  operationId: 'deleteProject',
  summary: 'Delete a project with its contexts, rows, history and dashboards',
  tag: 'projects',
  extension: true,
  access: inScope('project:delete'),
  params: ProjectPath,
  response: InfoString,
  errors: [403, 404],
});

// Project versions: one commit of every versioned context at once, and a rollback of all of them.

export const commitProject = operation({
  method: 'POST',
  path: '/v0/project/{project_name}/commit',
  operationId: 'commitProject',
  extension: true,
  summary: 'Commit every versioned context of the project at once',
  description:
    'One transaction: each versioned context with uncommitted changes (or no commit yet) gets a context commit with this message; a context with none is held at its HEAD. Unversioned contexts are not part of it. 400 when the project has no versioned context.',
  tag: 'projects',
  access: inScope('project:write'),
  params: ProjectPath,
  body: ProjectCommitInput,
  response: ProjectCommitCreated,
  errors: [400, 403, 404],
});

export const listProjectCommits = operation({
  method: 'GET',
  path: '/v0/project/{project_name}/commits',
  operationId: 'listProjectCommits',
  extension: true,
  summary: 'Commit history of a project, newest first, with the DAG links',
  tag: 'projects',
  access: inScope('project:read'),
  params: ProjectPath,
  response: ProjectCommitList,
  errors: [403, 404],
});

export const rollbackProject = operation({
  method: 'POST',
  path: '/v0/project/{project_name}/rollback',
  operationId: 'rollbackProject',
  extension: true,
  summary: 'Move every versioned context of the project to its state at a project commit',
  description:
    "One transaction (a failure changes nothing): uncommitted changes are first saved as a project commit, then each context the commit holds is rolled back (or forward) to its commit there, and the project's HEAD moves to it. Contexts the commit does not hold (created or made versioned since) and unversioned contexts are left as they are; a context deleted since is not brought back. 404 for a hash that is not one of the project's commits.",
  tag: 'projects',
  access: inScope('project:write'),
  params: ProjectPath,
  body: ProjectRollbackInput,
  response: ProjectRollbackResponse,
  errors: [403, 404, 422],
  idempotent: true,
});
