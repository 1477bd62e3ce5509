import { z } from 'zod';
import { PermissionSchema } from './roles.ts';

/** What a request is signed in with: a personal or organization API key, or a browser session (acts as the personal key). */
export const KeyKindSchema = z.enum(['personal', 'organization', 'session']);
export type KeyKind = z.infer<typeof KeyKindSchema>;

/** What the key in use opens: the dashboard's workspace. */
export const KeyInfoSchema = z.object({
  kind: KeyKindSchema,
  /** The key's recognisable start; null for a session. */
  prefix: z.string().nullable(),
  organization_id: z.number().int().nullable(),
  organization_name: z.string().nullable(),
  role_name: z.string().nullable(),
  permissions: z.array(PermissionSchema),
});
export type KeyInfo = z.infer<typeof KeyInfoSchema>;

export const AccountTypeSchema = z.enum(['individual', 'business']);
export type AccountType = z.infer<typeof AccountTypeSchema>;

/** 18. GET /v0/user/basic-info */
export const BasicInfoSchema = z.object({
  user_id: z.string(),
  first: z.string().nullable(),
  last: z.string().nullable(),
  email: z.string().nullable(),
  job_title: z.string().nullable(),
  bio: z.string().nullable(),
  timezone: z.string().nullable(),
  phone_number: z.string().nullable(),
  whatsapp_number: z.string().nullable(),
  discord_id: z.string().nullable(),
  account_type: AccountTypeSchema.nullable(),
  credits: z.number(),
  /** An instance administrator: may create accounts for other people. */
  is_admin: z.boolean(),
  key: KeyInfoSchema,
});
export type BasicInfo = z.infer<typeof BasicInfoSchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok'), version: z.string() });
