import type { FastifyInstance } from 'fastify';
import { createCustomEndpoint, deleteCustomEndpoint, listCustomEndpoints } from '../../../shared/operations/custom-endpoints.ts';
import { scopeOf } from '../../auth/principal.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as endpoints from './repository.ts';

export function customEndpointRoutes(app: FastifyInstance): void {
  route(app, createCustomEndpoint, async ({ principal, body, deps }) => {
    const endpoint = await endpoints.createCustomEndpoint(deps.db, scopeOf(principal), body, deps.now());
    if (!endpoint) throw conflict(`A custom endpoint named ${body.name} already exists.`);
    return { info: 'Custom endpoint created successfully!', endpoint };
  });

  route(app, listCustomEndpoints, ({ principal, deps }) => endpoints.listCustomEndpoints(deps.db, scopeOf(principal)));

  route(app, deleteCustomEndpoint, async ({ principal, query, deps }) => {
    if (!(await endpoints.deleteCustomEndpoint(deps.db, scopeOf(principal), query.name))) throw notFound('Custom endpoint not found.');
    return { info: 'Custom endpoint deleted successfully!' };
  });
}
