import type { FastifyInstance } from 'fastify';
import * as ops from '../../../shared/operations/credits.ts';
import { inOrganization } from '../../../shared/operation.ts';
import { ASSISTANT_MESSAGES } from '../../../shared/assistants.ts';
import { authorize, scopeOf } from '../../auth/principal.ts';
import { notFoundError } from '../../domain-errors.ts';
import { route } from '../../http/route.ts';
import { findAssistant } from '../assistants/repository.ts';
import { recordAudit } from '../audit/service.ts';
import { findMembership } from '../organizations/repository.ts';
import { mailLimitReached } from './limit-notice.ts';
import { accountOf, fromMicros } from './repository.ts';
import { deduct, spendOf } from './service.ts';

/** What POST /v0/user/spending-limit-reached answers. */
export const SPENDING_NOTICE_RECORDED = "Spending limit notice recorded in the audit log; the workspace's billing managers are e-mailed, at most once a day.";

export function creditsRoutes(app: FastifyInstance): void {
  route(app, ops.getCredits, async ({ principal, deps }) => {
    const account = await accountOf(deps.db, scopeOf(principal));
    return {
      id: account.organization_id === null ? account.user_id! : String(account.organization_id),
      credits: fromMicros(account.credits_micros),
    };
  });

  route(app, ops.deductCredits, ({ principal, body, deps, idempotency }) => deduct(deps, principal, body, (tx, result) => idempotency.record(tx, result)));

  // The person's own account, whatever key asks: a personal spending limit is about it (account.ts).
  route(app, ops.getUserSpend, ({ principal, query, deps }) => spendOf(deps.db, { userId: principal.userId, organizationId: null }, query.month, deps.now()));

  route(app, ops.getAssistantSpend, async ({ principal, params, query, deps }) => {
    const scope = scopeOf(principal);
    if (!(await findAssistant(deps.db, scope, params.assistant_id))) throw notFoundError(ASSISTANT_MESSAGES.notFound);
    return spendOf(deps.db, scope, query.month, deps.now(), { assistantId: params.assistant_id });
  });

  route(app, ops.getOrganizationSpend, ({ principal, params, query, deps }) =>
    spendOf(deps.db, { userId: principal.userId, organizationId: params.organization_id }, query.month, deps.now()),
  );

  route(app, ops.getMemberSpend, async ({ principal, params, query, deps }) => {
    const organizationId = params.organization_id;
    if (!(await findMembership(deps.db, organizationId, params.user_id))) throw notFoundError('Member not found.');
    // Anyone else's spend is the organization's billing: Owner and Admin (as GET …/spend).
    if (params.user_id !== principal.userId) await authorize(deps.db, principal, inOrganization('billing:write'), { organization_id: organizationId });
    return spendOf(deps.db, { userId: principal.userId, organizationId }, query.month, deps.now(), { userId: params.user_id });
  });

  // Recorded in the workspace's audit log, and e-mailed to its billing managers at most once a day each (limit-notice.ts).
  route(app, ops.notifySpendingLimitReached, ({ principal, body, deps }) =>
    deps.db.transaction().execute(async (tx) => {
      const now = deps.now();
      const workspace = scopeOf(principal);
      await recordAudit(tx, { workspace, actor: { userId: principal.userId, keyId: principal.keyId }, action: 'spending_limit.reached', detail: body, at: now });
      await mailLimitReached(tx, deps.dialect, deps.config.publicUrl, workspace, body, now);
      return { info: SPENDING_NOTICE_RECORDED };
    }),
  );
}
