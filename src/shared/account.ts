import { z } from 'zod';
import { email, name, opt, text } from './common.ts';
import { isCountryCode } from './countries.ts';
import { AccountTypeSchema } from './users.ts';

/** A currently assigned two-letter ISO 3166-1 code (`US`, `de` → `DE`). */
export const countryCode = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'Must be a two-letter ISO 3166-1 country code, such as US or DE.')
    // The format is reported by the regex above; only well-formed codes are looked up.
    .refine((code) => !/^[A-Z]{2}$/.test(code) || isCountryCode(code), 'Is not an assigned ISO 3166-1 country code (withdrawn codes such as DD or UK are not).');

export const BusinessAddressSchema = z.object({
  address_line1: name(200),
  address_line2: opt(text(200)),
  city: name(100),
  state: opt(text(100)),
  country: countryCode(),
  postal_code: opt(text(20)),
});

export const BusinessInfoSchema = z.object({
  business_name: name(200),
  business_type: name(100),
  tax_id: opt(text(50)),
  business_address: BusinessAddressSchema,
  tax_exempt: opt(z.boolean()).transform((v) => v ?? false),
});
export type BusinessInfo = z.infer<typeof BusinessInfoSchema>;
export type BusinessInfoInput = z.input<typeof BusinessInfoSchema>;

/** GET /v0/user/classification (extension): the account's classification as saved, to show it again. */
export const ClassificationSchema = z.object({
  account_type: AccountTypeSchema.nullable(),
  business_info: BusinessInfoSchema.nullable(),
});
export type Classification = z.infer<typeof ClassificationSchema>;

/** 16. POST /v0/user/create-with-business-info */
export const CreateWithBusinessInfoInput = z
  .object({
    account_type: AccountTypeSchema,
    business_info: opt(BusinessInfoSchema),
    email: opt(email()),
    name: opt(name(100)),
    last_name: opt(name(100)),
    /** With `email` (an administrator creating an account): the new account's starting credits, 0 unless given. */
    credits: opt(z.number({ error: 'Must be a number of credits.' }).min(0, 'Must be 0 or more.').max(1_000_000, 'Must be at most 1000000.')),
  })
  .superRefine((input, ctx) => {
    if (input.account_type === 'business' && !input.business_info) {
      ctx.addIssue({ code: 'custom', path: ['business_info'], message: 'Required for a business account.' });
    }
  });
export type CreateWithBusinessInfo = z.input<typeof CreateWithBusinessInfoInput>;

export const CreateWithBusinessInfoResponse = z.object({
  message: z.string(),
  user_id: z.string(),
  /** Only when a new user was created: their personal key, shown this once. */
  api_key: z.string().optional(),
});

/** 17. PUT /v0/user/spending-limit */
export const SpendingLimitInput = z.object({
  monthly_spending_cap: z
    .number({ error: 'Must be a number of dollars per month, or null for no limit.' })
    .min(0, 'Must be 0 or more.')
    .max(1_000_000_000, 'Must be at most 1 000 000 000.')
    .nullable(),
});
export const SpendingLimitSchema = z.object({
  user_id: z.string(),
  monthly_spending_cap: z.number().nullable(),
});
export const SetSpendingLimitResponse = SpendingLimitSchema.extend({ assistants_capped: z.number().int() });

/** 19. GET /v0/user/can-delete-account. Clients must tolerate reasons they do not know. */
export const BlockerSchema = z.object({
  reason: z.string(),
  details: z.object({ message: z.string() }).catchall(z.unknown()),
});
export type Blocker = z.infer<typeof BlockerSchema>;
/** What deleting the account removes (personal things only: what the person made in an organization stays there). */
export const DeletionSummarySchema = z.object({
  projects: z.number().int(),
  assistants: z.number().int(),
  voices: z.number().int(),
  custom_endpoints: z.number().int(),
  organization_memberships: z.number().int(),
  api_keys: z.number().int(),
});
export type DeletionSummary = z.infer<typeof DeletionSummarySchema>;
export const CanDeleteAccountSchema = z.object({ can_delete: z.boolean(), blockers: z.array(BlockerSchema), deletes: DeletionSummarySchema });

/** Extension: DELETE /v0/user/delete-account */
export const DeleteAccountInput = z.object({ confirm_email: z.string().trim().min(1, 'Type your e-mail address to confirm.') });
