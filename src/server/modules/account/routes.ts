import type { FastifyInstance } from 'fastify';
import {
  canDeleteAccount,
  createUserWithBusinessInfo,
  deleteAccount,
  getClassification,
  getSpendingLimit,
  setSpendingLimit,
} from '../../../shared/operations/account.ts';
import { HttpError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { fromMicros, toMicros } from '../credits/repository.ts';
import { classifyUser } from '../users/repository.ts';
import * as account from './repository.ts';
import { businessInfoOf, createAccountFor, deleteAccount as deleteAccountOf } from './service.ts';

export function accountRoutes(app: FastifyInstance): void {
  route(app, createUserWithBusinessInfo, async ({ principal, body, deps, idempotency }) => {
    const businessInfo = businessInfoOf(body);
    if (!body.email) {
      // No e-mail: the caller classifies their own account.
      return idempotency.transaction(deps.db, async (tx) => {
        await classifyUser(tx, principal.userId, { accountType: body.account_type, businessInfo, firstName: body.name, lastName: body.last_name }, deps.now());
        return { message: `Account type updated to ${body.account_type}`, user_id: principal.userId };
      });
    }
    const created = ({ userId, apiKey }: { userId: string; apiKey: string }) => ({
      message: `User created successfully with account type: ${body.account_type}`,
      user_id: userId,
      api_key: apiKey,
    });
    const input = {
      email: body.email,
      firstName: body.name ?? null,
      lastName: body.last_name ?? null,
      accountType: body.account_type,
      businessInfo,
      // Credits only when the administrator asks for them.
      creditsMicros: toMicros(body.credits ?? 0),
    };
    return created(await createAccountFor(deps.db, principal.userId, input, deps.now(), (tx, user) => idempotency.record(tx, created(user))));
  });

  route(app, getClassification, async ({ principal, deps }) => account.classificationOf(deps.db, principal.userId));

  route(app, getSpendingLimit, async ({ principal, deps }) => ({
    user_id: principal.userId,
    monthly_spending_cap: await account.spendingLimitOf(deps.db, principal.userId),
  }));

  route(app, setSpendingLimit, async ({ principal, body, deps }) => {
    const micros = body.monthly_spending_cap === null ? null : toMicros(body.monthly_spending_cap);
    const capped = await account.setSpendingLimit(deps.db, principal.userId, micros);
    return { user_id: principal.userId, monthly_spending_cap: micros === null ? null : fromMicros(micros), assistants_capped: capped };
  });

  route(app, canDeleteAccount, async ({ principal, deps }) => {
    const [blockers, deletes] = await Promise.all([account.deletionBlockers(deps.db, principal.userId), account.deletionSummary(deps.db, principal.userId)]);
    return { can_delete: blockers.length === 0, blockers, deletes };
  });

  route(app, deleteAccount, async ({ req, principal, body, deps }) => {
    const { blockers, cleanups } = await deleteAccountOf(deps, principal.userId, body.confirm_email);
    if (blockers.length > 0) throw new HttpError(409, 'The account cannot be deleted while blockers exist.', {}, { blockers });
    // The account is gone; a file that fails to go is logged, never turned into an error.
    for (const cleanup of cleanups) await cleanup().catch((err) => req.log.warn({ err }, 'cleanup after account deletion failed'));
    return { message: 'Account deleted.' };
  });
}
