import { z } from 'zod';
import { intId, opt, Timestamp } from './common.ts';

// The instance administrators' area (issue 19): every person and organization of the instance, disabling
// an account, and credit grants with their reasons.

/** Search and page of an admin list. */
export const AdminListQuery = z.object({
  /** Part of an e-mail address or name (users), or of a name or its owner's e-mail (organizations); case is ignored. */
  search: opt(z.string().trim().max(200, 'Must be at most 200 characters.')),
  page: opt(z.coerce.number().int('Must be an integer.').min(1, 'Must be 1 or more.').max(100_000, 'Must be at most 100000.')),
  per_page: opt(z.coerce.number().int('Must be an integer.').min(1, 'Must be at least 1.').max(100, 'Must be at most 100.')),
});
export type AdminListQuery = z.infer<typeof AdminListQuery>;
export const ADMIN_PAGE_SIZE = 25;

const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), per_page: z.number().int() });

export const AdminUserSchema = z.object({
  user_id: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  is_admin: z.boolean(),
  /** When an administrator disabled the account (its keys, sessions and sign-in links are refused); null: active. */
  disabled_at: Timestamp.nullable(),
  created_at: Timestamp,
  /** Personal balance. */
  credits: z.number(),
  organization_count: z.number().int(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const AdminUserListSchema = page(AdminUserSchema);

export const AdminUserPath = z.object({ user_id: z.string().min(1).max(100) });

export const AdminOrganizationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  owner_id: z.string(),
  owner_email: z.string().nullable(),
  owner_name: z.string().nullable(),
  member_count: z.number().int(),
  credits: z.number(),
  created_at: Timestamp,
});
export type AdminOrganization = z.infer<typeof AdminOrganizationSchema>;
export const AdminOrganizationListSchema = page(AdminOrganizationSchema);

/** A grant goes to exactly one of a person (their personal balance) or an organization. */
export const CreditGrantInput = z
  .object({
    user_id: opt(z.string().min(1).max(100)),
    organization_id: opt(intId('organization_id')),
    amount: z
      .number({ error: 'amount must be a number of credits.' })
      .finite()
      .min(0.000001, 'Grant at least 0.000001 credits.')
      .max(1_000_000_000, 'Grant at most 1,000,000,000 credits at once.'),
    reason: z
      .string({ error: 'Give a reason: it is kept with the grant.' })
      .trim()
      .min(1, 'Give a reason: it is kept with the grant.')
      .max(500, 'Must be at most 500 characters.')
      .refine((s) => !s.includes('\u0000'), 'Must not contain NUL characters.'),
  })
  .refine((v) => (v.user_id === undefined) !== (v.organization_id === undefined), {
    message: 'Give user_id or organization_id (exactly one).',
    path: ['user_id'],
  });
export type CreditGrantInput = z.input<typeof CreditGrantInput>;

export const CreditGrantSchema = z.object({
  id: z.number().int(),
  /** E-mail of the administrator who granted, or `cli` for the server's command line. */
  granted_by: z.string(),
  user_id: z.string().nullable(),
  organization_id: z.number().int().nullable(),
  /** The recipient as it was named when granted (an e-mail address, or the organization's name). */
  recipient: z.string(),
  amount: z.number(),
  reason: z.string(),
  /** The recipient's balance right after the grant. */
  balance_after: z.number(),
  created_at: Timestamp,
});
export type CreditGrant = z.infer<typeof CreditGrantSchema>;
export const CreditGrantListSchema = page(CreditGrantSchema);
