import type { FastifyInstance } from 'fastify';
import { getBasicInfo } from '../../../shared/operations/users.ts';
import type { AccountType, BasicInfo } from '../../../shared/users.ts';
import { scopeOf, type Principal } from '../../auth/principal.ts';
import { RawJson } from '../../http/raw-json.ts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { accountOf, fromMicros } from '../credits/repository.ts';
import { findUserWithBalance, type UserWithBalance } from './repository.ts';

/**
 * The last answer made from a person's row, and for whom: sent again while the cache (users/repository.ts)
 * holds the same row and the caller is the same principal (a key's or a session's is shared until its row is
 * read again, auth/principal.ts) with the same balance. Building and serializing it anew was ~8 % of the
 * request's CPU.
 */
const lastAnswers = new WeakMap<UserWithBalance, { principal: Principal; credits: number; json: RawJson }>();

export function usersRoutes(app: FastifyInstance): void {
  route(app, getBasicInfo, async ({ principal, deps }) => {
    const user = await findUserWithBalance(deps.db, principal.userId);
    if (!user) throw notFound('User not found.');
    const credits = (principal.organizationId === null ? user.credits_micros : (await accountOf(deps.db, scopeOf(principal))).credits_micros) ?? 0;
    const last = lastAnswers.get(user);
    if (last && last.principal === principal && last.credits === credits) return last.json;
    const json = new RawJson(
      JSON.stringify({
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
        credits: fromMicros(credits),
        is_admin: user.is_admin === 1,
        key: {
          kind: principal.keyKind,
          prefix: principal.keyPrefix,
          organization_id: principal.organizationId,
          organization_name: principal.organizationName,
          role_name: principal.roleName,
          permissions: [...principal.permissions],
        },
      } satisfies BasicInfo),
    );
    lastAnswers.set(user, { principal, credits, json });
    return json;
  });
}
