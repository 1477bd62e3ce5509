import { z } from 'zod';
import { intId, jsonObject, opt, text } from './common.ts';

/** Extension GET /v0/credits: the balance of the key's scope (the user's, or the organization's). */
export const CreditsSchema = z.object({ id: z.string(), credits: z.number() });
export type Credits = z.infer<typeof CreditsSchema>;

/** Credits are counted in millionths: an amount with more decimals cannot be deducted as sent. */
const MICRO = 1_000_000;
const wholeMicros = (n: number) => Math.round(n * MICRO) / MICRO === n;

/** The largest single deduction (keeps every balance an exact integer of millionths). */
export const MAX_DEDUCTION = 1_000_000_000;

/**
 * POST /v0/credits/deduct (logs-api.md §9). Optional keys are omitted by the SDK when unset; null counts
 * as omitted. `description` and `detail` are not required (the 2026-04 SDK deducts without them; §15.8).
 */
export const DeductCreditsInput = z.object({
  amount: z
    .number({ error: 'Must be a number of credits greater than 0.' })
    .gt(0, 'Must be greater than 0.')
    .max(MAX_DEDUCTION, `Must be at most ${MAX_DEDUCTION}.`)
    .refine(wholeMicros, 'Must have at most 6 decimal places (credits are counted in millionths).'),
  category: opt(text(100).trim().min(1, 'Must not be empty.')),
  assistant_id: opt(intId('assistant_id')),
  user_id: opt(text(100)),
  organization_id: opt(intId('organization_id')),
  description: opt(text(2000)),
  detail: opt(jsonObject()),
});
export type DeductCredits = z.input<typeof DeductCreditsInput>;

/** `current_credits` = `previous_credits` − `deducted`, and may be below zero. */
export const DeductCreditsResponse = z.object({
  previous_credits: z.number().describe('The balance just before this deduction'),
  deducted: z.number().describe('The amount sent'),
  current_credits: z.number().describe('previous_credits − deducted; may be below zero'),
});

/** The category a deduction without one is counted under. */
export const DEFAULT_SPEND_CATEGORY = 'other';
/** The category of hiring an assistant (POST /v0/assistant). */
export const HIRE_CATEGORY = 'assistant_hire';

export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const SpendQuery = z.object({
  month: opt(z.string().regex(MONTH, 'Must be a month as YYYY-MM, such as 2026-11.')),
});

/** A month's charges (UTC calendar month) of an account, an assistant or a member. */
export const SpendSchema = z.object({
  month: z.string().describe('The month read, YYYY-MM (UTC calendar month)'),
  currency: z.literal('credits').describe('Amounts are in credits'),
  total: z.number().describe('Sum of the month’s charges: deductions and assistant hires'),
  by_category: z.record(z.string(), z.number()).describe('The same sum per category: a deduction’s category (`other` when it gave none), `assistant_hire` for hires'),
  charges: z.number().int().describe('How many charges'),
});
export type Spend = z.infer<typeof SpendSchema>;

export const SpendAssistantParams = z.object({ assistant_id: intId('assistant_id') });
export const SpendMemberParams = z.object({ organization_id: intId('organization_id'), user_id: text(100) });

/** POST /v0/user/spending-limit-reached: whatever object the caller reports, at most this many bytes. */
export const SPENDING_NOTICE_MAX_BYTES = 16 * 1024;
export const SpendingLimitReachedInput = jsonObject();
