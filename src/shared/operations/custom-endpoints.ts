import { InfoString } from '../common.ts';
import { CustomEndpointCreated, CustomEndpointInput, CustomEndpointList, DeleteCustomEndpointQuery } from '../custom-endpoints.ts';
import { inScope, operation } from '../operation.ts';

// Endpoints are model configuration of a workspace: reading needs project:read, changing project:write
// (an organization's Members may register models; Viewers only see them).

export const createCustomEndpoint = operation({
  method: 'POST',
  path: '/v0/custom_endpoint',
  operationId: 'createCustomEndpoint',
  summary: 'Register an OpenAI-compatible model endpoint in the key’s workspace',
  tag: 'custom endpoints',
  extension: true,
  access: inScope('project:write'),
  body: CustomEndpointInput,
  response: CustomEndpointCreated,
  status: 201,
  errors: [403, 409, 422],
});

export const listCustomEndpoints = operation({
  method: 'GET',
  path: '/v0/custom_endpoint/list',
  operationId: 'listCustomEndpoints',
  summary: 'Custom endpoints of the key’s workspace, by name',
  tag: 'custom endpoints',
  extension: true,
  access: inScope('project:read'),
  response: CustomEndpointList,
  errors: [403],
});

export const deleteCustomEndpoint = operation({
  method: 'DELETE',
  path: '/v0/custom_endpoint',
  operationId: 'deleteCustomEndpoint',
  summary: 'Delete a custom endpoint by name',
  tag: 'custom endpoints',
  access: inScope('project:write'),
  query: DeleteCustomEndpointQuery,
  response: InfoString,
  errors: [403, 404, 422],
});
