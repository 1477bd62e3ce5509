import { z } from 'zod';
import { intId, name, Timestamp } from './common.ts';
import { PermissionSchema } from './roles.ts';

/** "Last used" is written at most this often per key: a coarse time, never a write per request. */
export const LAST_USED_RESOLUTION_MINUTES = 1;
/** The newest keys a list answers with (revoked ones included); older ones stay in the database. */
export const KEYS_LISTED = 200;
/** What the person types to revoke every key they hold (the API asks for it too: it cannot be undone). */
export const REVOKE_ALL_CONFIRMATION = 'revoke all my keys';

export const KeyName = name(100);
export const CreatePersonalKeyInput = z.object({ name: KeyName });

export const CreateOrganizationKeyInput = z.object({
  name: KeyName,
  permissions: z
    .array(PermissionSchema)
    .min(1, 'Choose at least one permission.')
    .max(PermissionSchema.options.length)
    .refine((list) => new Set(list).size === list.length, 'List each permission once.'),
});
export type CreateOrganizationKeyInputType = z.input<typeof CreateOrganizationKeyInput>;

export const RevokeAllKeysInput = z.object({
  confirm: z.string().max(100, 'Must be at most 100 characters.'),
});

export const KeyPathParams = z.object({ key_id: intId('key_id') });
export const OrganizationKeyPathParams = z.object({ organization_id: intId('organization_id'), key_id: intId('key_id') });

/** A key as its lists show it: never the key itself, only the prefix that recognises it. */
export const ApiKeySchema = z.object({
  id: z.number().int(),
  /** Null for keys issued before keys had names (by the CLI, a sign-up or a membership). */
  name: z.string().nullable(),
  kind: z.enum(['personal', 'organization']),
  prefix: z.string(),
  created_at: Timestamp,
  /** Coarse: to the minute at best. Null: never used since names and last use were recorded. */
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const OrganizationKeySchema = ApiKeySchema.extend({
  organization_id: z.number().int(),
  /** The member the key acts as (its answers are capped by their current role). */
  user_id: z.string(),
  holder: z.string().describe('The member’s name or e-mail address'),
  /** The key's own permissions; null: whatever the member's role grants. */
  permissions: z.array(PermissionSchema).nullable(),
});
export type OrganizationKey = z.infer<typeof OrganizationKeySchema>;

/** A key just created: the only answer that carries `api_key`. */
export const CreatedPersonalKeySchema = ApiKeySchema.extend({ api_key: z.string() });
export const CreatedOrganizationKeySchema = OrganizationKeySchema.extend({ api_key: z.string() });

export const RevokedAllKeysSchema = z.object({
  message: z.string(),
  revoked: z.number().int(),
  /** A new personal key, so that someone without a browser session is not locked out (shown once). */
  api_key: z.string(),
});
