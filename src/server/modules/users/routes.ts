import type { FastifyInstance } from 'fastify';
import { BasicInfoSchema, type AccountType } from '../../../shared/users.ts';
import { scopeOf } from '../../auth/principal.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { accountOf, fromMicros } from '../credits/repository.ts';
import { findUser } from './repository.ts';

export function usersRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'GET',
    url: '/v0/user/basic-info',
    operationId: 'getBasicInfo',
    summary: 'Basic information for the authenticated user, and what the key in use opens',
    tag: 'user',
    response: BasicInfoSchema,
    handler: async ({ principal, deps }) => {
      const [user, account] = await Promise.all([
        findUser(deps.db, principal.userId),
        accountOf(deps.db, scopeOf(principal)),
      ]);
      if (!user) throw notFound('User not found.');
      return {
        user_id: user.id,
        first: user.first_name,
        last: user.last_name,
        email: user.email,
        job_title: user.job_title,
        bio: user.bio,
        timezone: user.timezone,
        phone_number: user.phone_number,
        whatsapp_number: user.whatsapp_number,
        discord_id: user.discord_id,
        account_type: user.account_type as AccountType | null,
        credits: fromMicros(account.credits_micros),
        key: {
          kind: principal.keyKind,
          prefix: principal.keyPrefix,
          organization_id: principal.organizationId,
          organization_name: principal.organizationName,
          role_name: principal.roleName,
          permissions: [...principal.permissions],
        },
      };
    },
  });
}
