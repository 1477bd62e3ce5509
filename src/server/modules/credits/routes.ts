import type { FastifyInstance } from 'fastify';
import { CreditsSchema } from '../../../shared/credits.ts';
import { requireKeyPermission, scopeOf } from '../../auth/principal.ts';
import { route } from '../../http/route.ts';
import { accountOf, fromMicros } from './repository.ts';

export function creditsRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'GET',
    url: '/v0/credits',
    operationId: 'getCredits',
    summary: 'Credit balance of the key’s scope',
    tag: 'credits',
    extension: true,
    response: CreditsSchema,
    errors: [403],
    handler: async ({ principal, deps }) => {
      requireKeyPermission(principal, 'billing:read');
      const account = await accountOf(deps.db, scopeOf(principal));
      return {
        id: account.organization_id === null ? account.user_id! : String(account.organization_id),
        credits: fromMicros(account.credits_micros),
      };
    },
  });
}
