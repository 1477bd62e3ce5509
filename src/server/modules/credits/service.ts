import { DEFAULT_SPEND_CATEGORY, type Spend } from '../../../shared/credits.ts';
import type { ParsedBody } from '../../../shared/operation.ts';
import type { deductCredits } from '../../../shared/operations/credits.ts';
import { inOrganization } from '../../../shared/operation.ts';
import { authorize, scopeOf, type Principal, type Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { forbiddenError, notFoundError } from '../../domain-errors.ts';
import { ASSISTANT_MESSAGES } from '../../../shared/assistants.ts';
import { findAssistant } from '../assistants/repository.ts';
import { accountOf, deductFromAccount, fromMicros, MICROS, spendByCategory, toMicros, type SpendFilter } from './repository.ts';

type DeductBody = ParsedBody<typeof deductCredits>;

/**
 * The scope a deduction charges. The route has checked billing:write in the caller's own scope. A body's
 * `organization_id` other than that scope's organization needs the same permission there, by the person's
 * role (not a member → 404, no permission → 403); an organization key (or a workspace header) acts in one
 * organization only, so any other is 404. `user_id` names the person charging: only the caller.
 */
async function deductionScope(db: Conn, principal: Principal, body: DeductBody): Promise<Scope> {
  if (body.user_id !== undefined && body.user_id !== principal.userId) {
    throw forbiddenError('user_id must be your own: credits can be deducted only from your own account or an organization you may bill.');
  }
  const organizationId = body.organization_id;
  if (organizationId === undefined || organizationId === principal.organizationId) return scopeOf(principal);
  if (principal.organizationId !== null) throw notFoundError('Organization not found.');
  await authorize(db, principal, inOrganization('billing:write'), { organization_id: organizationId });
  return { userId: principal.userId, organizationId };
}

export interface Deducted {
  previous_credits: number;
  deducted: number;
  current_credits: number;
}

/** POST /v0/credits/deduct: one transaction takes the amount (the balance may go negative) and ledgers it. */
export async function deduct(deps: Deps, principal: Principal, body: DeductBody, beforeCommit: (tx: Conn, result: Deducted) => Promise<void>): Promise<Deducted> {
  const scope = await deductionScope(deps.db, principal, body);
  const micros = toMicros(body.amount);
  const now = deps.now();
  return deps.db.transaction().execute(async (tx) => {
    if (body.assistant_id !== undefined && !(await findAssistant(tx, scope, body.assistant_id))) throw notFoundError(ASSISTANT_MESSAGES.notFound);
    const account = await accountOf(tx, scope);
    const after = await deductFromAccount(tx, account.id, micros, now, {
      category: body.category ?? DEFAULT_SPEND_CATEGORY,
      userId: principal.userId,
      assistantId: body.assistant_id ?? null,
      description: body.description ?? null,
      detail: body.detail ?? null,
    });
    const result = { previous_credits: fromMicros(after + micros), deducted: fromMicros(micros), current_credits: fromMicros(after) };
    await beforeCommit(tx, result);
    return result;
  });
}

/**
 * The month asked for (`YYYY-MM`, already checked), or the current UTC month, and its [from, to) range as
 * ISO timestamps, which compare as text the way created_at is stored (no date arithmetic in SQL).
 */
export function monthRange(month: string | undefined, now: Date): { month: string; from: string; to: string } {
  const m = month ?? now.toISOString().slice(0, 7);
  const year = Number(m.slice(0, 4));
  const index = Number(m.slice(5, 7));
  const next = index === 12 ? `${String(year + 1).padStart(4, '0')}-01` : `${m.slice(0, 4)}-${String(index + 1).padStart(2, '0')}`;
  // After 9999-12 comes no four-digit year: any text above every timestamp of that month ends the range.
  return { month: m, from: `${m}-01T00:00:00.000Z`, to: year === 9999 && index === 12 ? '9999-12-99' : `${next}-01T00:00:00.000Z` };
}

/** A month's charges of an account (optionally one assistant's or one person's) in the API's shape. */
export async function spendOf(db: Conn, scope: Scope, month: string | undefined, now: Date, only: Pick<SpendFilter, 'assistantId' | 'userId'> = {}): Promise<Spend> {
  const range = monthRange(month, now);
  const account = await accountOf(db, scope);
  const rows = await spendByCategory(db, { accountId: account.id, from: range.from, to: range.to, ...only });
  const totalMicros = rows.reduce((sum, r) => sum + r.micros, 0);
  return {
    month: range.month,
    currency: 'credits',
    total: totalMicros / MICROS,
    by_category: Object.fromEntries(rows.map((r) => [r.category, fromMicros(r.micros)])),
    charges: rows.reduce((sum, r) => sum + r.charges, 0),
  };
}
