import type { FastifyInstance } from 'fastify';
import {
  CustomEndpointCreated,
  CustomEndpointInput,
  CustomEndpointList,
  DeleteCustomEndpointQuery,
} from '../../../shared/custom-endpoints.ts';
import { InfoString } from '../../../shared/common.ts';
import { requireKeyPermission, scopeOf } from '../../auth/principal.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { createCustomEndpoint, deleteCustomEndpoint, listCustomEndpoints } from './repository.ts';

// Endpoints are model configuration of a workspace: reading needs project:read, changing project:write
// (an organization's Members may register models; Viewers only see them).
export function customEndpointRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'POST',
    url: '/v0/custom_endpoint',
    operationId: 'createCustomEndpoint',
    summary: 'Register an OpenAI-compatible model endpoint in the key’s workspace',
    tag: 'custom endpoints',
    extension: true,
    body: CustomEndpointInput,
    response: CustomEndpointCreated,
    status: 201,
    errors: [403, 409, 422],
    handler: async ({ principal, body, deps }) => {
      requireKeyPermission(principal, 'project:write');
      const endpoint = await createCustomEndpoint(deps.db, scopeOf(principal), body, deps.now());
      if (!endpoint) throw conflict(`A custom endpoint named ${body.name} already exists.`);
      return { info: 'Custom endpoint created successfully!', endpoint };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/custom_endpoint/list',
    operationId: 'listCustomEndpoints',
    summary: 'Custom endpoints of the key’s workspace, by name',
    tag: 'custom endpoints',
    extension: true,
    response: CustomEndpointList,
    errors: [403],
    handler: async ({ principal, deps }) => {
      requireKeyPermission(principal, 'project:read');
      return listCustomEndpoints(deps.db, scopeOf(principal));
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/custom_endpoint',
    operationId: 'deleteCustomEndpoint',
    summary: 'Delete a custom endpoint by name',
    tag: 'custom endpoints',
    query: DeleteCustomEndpointQuery,
    response: InfoString,
    errors: [403, 404, 422],
    handler: async ({ principal, query, deps }) => {
      requireKeyPermission(principal, 'project:write');
      if (!(await deleteCustomEndpoint(deps.db, scopeOf(principal), query.name))) throw notFound('Custom endpoint not found.');
      return { info: 'Custom endpoint deleted successfully!' };
    },
  });
}
