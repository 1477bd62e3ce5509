import type { FastifyInstance } from 'fastify';
import {
  CanDeleteAccountSchema,
  CreateWithBusinessInfoInput,
  CreateWithBusinessInfoResponse,
  DeleteAccountInput,
  SetSpendingLimitResponse,
  SpendingLimitInput,
  SpendingLimitSchema,
} from '../../../shared/account.ts';
import { MessageSchema } from '../../../shared/common.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequest, forbidden, HttpError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { fromMicros, toMicros } from '../credits/repository.ts';
import { createUser, findUser, findUserByEmail } from '../users/repository.ts';
import { deleteUserAccount, deletionBlockers, setSpendingLimit, spendingLimitOf } from './repository.ts';

const DUPLICATE_EMAIL = 'A user with this email already exists.';

export function accountRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'POST',
    url: '/v0/user/create-with-business-info',
    operationId: 'createUserWithBusinessInfo',
    summary: 'Create a user with a business classification, or classify your own account (email null)',
    tag: 'user',
    body: CreateWithBusinessInfoInput,
    response: CreateWithBusinessInfoResponse,
    errors: [400, 422],
    idempotent: true,
    handler: async ({ principal, body, deps, idempotency }) => {
      const businessInfo = body.account_type === 'business' ? (body.business_info ?? null) : null;
      if (!body.email) {
        return idempotency.transaction(deps.db, async (tx) => {
          await tx
            .updateTable('users')
            .set({
              account_type: body.account_type,
              business_info: businessInfo ? JSON.stringify(businessInfo) : null,
              ...(body.name ? { first_name: body.name } : {}),
              ...(body.last_name ? { last_name: body.last_name } : {}),
              updated_at: deps.now().toISOString(),
            })
            .where('id', '=', principal.userId)
            .execute();
          return { message: `Account type updated to ${body.account_type}`, user_id: principal.userId };
        });
      }
      if (await findUserByEmail(deps.db, body.email)) throw badRequest(DUPLICATE_EMAIL);
      const created = ({ userId, apiKey }: { userId: string; apiKey: string }) => ({
        message: `User created successfully with account type: ${body.account_type}`,
        user_id: userId,
        api_key: apiKey,
      });
      try {
        const user = await createUser(
          deps.db,
          {
            email: body.email,
            firstName: body.name ?? null,
            lastName: body.last_name ?? null,
            accountType: body.account_type,
            businessInfo,
            creditsMicros: toMicros(deps.config.signupCredits),
          },
          deps.now(),
          (tx, user) => idempotency.record(tx, created(user)),
        );
        return created(user);
      } catch (error) {
        // Two requests for one e-mail at once: the unique index lets one through.
        if (isUniqueViolation(error)) throw badRequest(DUPLICATE_EMAIL);
        throw error;
      }
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/user/spending-limit',
    operationId: 'getSpendingLimit',
    summary: 'Your monthly spending cap for personal usage (null = no limit)',
    tag: 'user',
    extension: true,
    response: SpendingLimitSchema,
    handler: async ({ principal, deps }) => ({
      user_id: principal.userId,
      monthly_spending_cap: await spendingLimitOf(deps.db, principal.userId),
    }),
  });

  route(app, {
    method: 'PUT',
    url: '/v0/user/spending-limit',
    operationId: 'setSpendingLimit',
    summary: 'Set your monthly spending cap; personal assistants above it are capped',
    tag: 'user',
    body: SpendingLimitInput,
    response: SetSpendingLimitResponse,
    errors: [403, 422],
    handler: async ({ principal, body, deps }) => {
      if (principal.keyKind !== 'personal') {
        throw forbidden('The spending limit applies to personal usage: set it with your personal API key, not an organization key.');
      }
      const micros = body.monthly_spending_cap === null ? null : toMicros(body.monthly_spending_cap);
      const capped = await setSpendingLimit(deps.db, principal.userId, micros);
      return {
        user_id: principal.userId,
        monthly_spending_cap: micros === null ? null : fromMicros(micros),
        assistants_capped: capped,
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/user/can-delete-account',
    operationId: 'canDeleteAccount',
    summary: 'Whether your account can be deleted now, and what blocks it',
    tag: 'user',
    response: CanDeleteAccountSchema,
    handler: async ({ principal, deps }) => {
      const blockers = await deletionBlockers(deps.db, principal.userId);
      return { can_delete: blockers.length === 0, blockers };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/user/delete-account',
    operationId: 'deleteAccount',
    summary: 'Delete your account: personal data, files and keys (refused while blockers exist)',
    tag: 'user',
    extension: true,
    body: DeleteAccountInput,
    response: MessageSchema,
    errors: [400, 409, 422],
    handler: async ({ req, principal, body, deps }) => {
      const user = await findUser(deps.db, principal.userId);
      if (!user || (user.email ?? '').toLowerCase() !== body.confirm_email.toLowerCase()) {
        throw badRequest('confirm_email does not match the e-mail address of this account.');
      }
      const { blockers, cleanups } = await deleteUserAccount(deps.db, principal.userId);
      if (blockers.length > 0) {
        throw new HttpError(409, 'The account cannot be deleted while blockers exist.', {}, { blockers });
      }
      // The account is gone; a file that fails to go is logged, never turned into an error.
      for (const cleanup of cleanups) await cleanup().catch((err) => req.log.warn({ err }, 'cleanup after account deletion failed'));
      return { message: 'Account deleted.' };
    },
  });
}
