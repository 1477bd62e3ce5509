import { InfoString } from '../common.ts';
import { inScope, operation } from '../operation.ts';
import { ProjectInput, ProjectNames, ProjectPath, ProjectSchema } from '../projects.ts';

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
