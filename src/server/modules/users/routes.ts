import type { FastifyInstance } from 'fastify';
import { getBasicInfo } from '../../../shared/operations/users.ts';
import type { AccountType } from '../../../shared/users.ts';
import { scopeOf } from '../../auth/principal.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { accountOf, fromMicros } from '../credits/repository.ts';
import { findUserWithBalance } from './repository.ts';

export function usersRoutes(app: FastifyInstance): void {
  route(app, getBasicInfo, async ({ principal, deps }) => {
    const user = await findUserWithBalance(deps.db, principal.userId);
    if (!user) throw notFound('User not found.');
    const credits = principal.organizationId === null ? user.credits_micros : (await accountOf(deps.db, scopeOf(principal))).credits_micros;
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
      credits: fromMicros(credits ?? 0),
      is_admin: user.is_admin === 1,
      key: {
        kind: principal.keyKind,
        prefix: principal.keyPrefix,
        organization_id: principal.organizationId,
        organization_name: principal.organizationName,
        role_name: principal.roleName,
        permissions: [...principal.permissions],
      },
    };
  });
}
