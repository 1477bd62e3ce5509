import type { FastifyInstance } from 'fastify';
import { getCredits } from '../../../shared/operations/credits.ts';
import { scopeOf } from '../../auth/principal.ts';
import { route } from '../../http/route.ts';
import { accountOf, fromMicros } from './repository.ts';

export function creditsRoutes(app: FastifyInstance): void {
  route(app, getCredits, async ({ principal, deps }) => {
    const account = await accountOf(deps.db, scopeOf(principal));
    return {
      id: account.organization_id === null ? account.user_id! : String(account.organization_id),
      credits: fromMicros(account.credits_micros),
    };
  });
}
