import { z } from 'zod';
import { email, intId, opt, Timestamp } from './common.ts';
import { SessionSchema } from './sessions.ts';

export const INVITE_MIN_DAYS = 1;
export const INVITE_MAX_DAYS = 30;
export const INVITE_DEFAULT_DAYS = 7;
/** Invites (and re-invites) one organization may send per hour. */
export const INVITES_PER_HOUR = 50;
/** Invite mails one person may cause per hour, across every organization they can invite in. */
export const INVITES_PER_SENDER_PER_HOUR = 100;
/** Invite mails one address may receive per hour, from every organization together. */
export const INVITES_PER_ADDRESS_PER_HOUR = 5;
/** Invite mails the whole instance sends per hour. */
export const INVITES_PER_INSTANCE_PER_HOUR = 1000;

/** 12. POST /v0/organizations/{organization_id}/invites */
export const InviteInput = z.object({
  email: email(),
  role_id: opt(intId('role_id')),
  role_name: opt(z.string().trim().max(50, 'Must be at most 50 characters.')),
  expires_in_days: opt(
    z
      .number({ error: 'expires_in_days must be an integer.' })
      .int('expires_in_days must be an integer.')
      .min(INVITE_MIN_DAYS, `Must be between ${INVITE_MIN_DAYS} and ${INVITE_MAX_DAYS} days.`)
      .max(INVITE_MAX_DAYS, `Must be between ${INVITE_MIN_DAYS} and ${INVITE_MAX_DAYS} days.`),
  ),
});
export type InviteInput = z.input<typeof InviteInput>;

/** The spec's Organization invite; `token` is set only in the create response. */
export const InviteSchema = z.object({
  id: z.string(),
  token: z.string().nullable(),
  organization_id: z.number().int(),
  organization_name: z.string(),
  invitee_email: z.string(),
  invited_by_user_id: z.string(),
  invited_by_name: z.string().nullable(),
  role_id: z.number().int(),
  role_name: z.string().nullable(),
  expires_at: Timestamp,
  created_at: Timestamp,
});
export type Invite = z.infer<typeof InviteSchema>;
export const InviteListSchema = z.object({ invites: z.array(InviteSchema) });

export const AcceptedInviteSchema = z.object({
  message: z.string(),
  organization_id: z.number().int(),
  organization_name: z.string(),
  api_key: z.string(),
});
export type AcceptedInvite = z.infer<typeof AcceptedInviteSchema>;

/**
 * What the link's holder (the invited mailbox) sees before answering, signed in or not: who invites which
 * address, with what role, and whether that address already has an account (then: sign in, then accept).
 */
export const InvitePreviewSchema = z.object({
  organization_id: z.number().int(),
  organization_name: z.string(),
  invitee_email: z.string(),
  invited_by_name: z.string().nullable(),
  role_id: z.number().int(),
  role_name: z.string().nullable(),
  expires_at: Timestamp,
  /** The invited address has an account: sign in with it, then accept (joining would be refused with 409). */
  account_exists: z.boolean(),
  /** Joining without an account may create one here (ROSTER_SIGNUP is not `closed`). */
  can_join: z.boolean(),
});
export type InvitePreview = z.infer<typeof InvitePreviewSchema>;

/** Joining by invitation without an account: the new account's name is optional. */
export const JoinByInviteInput = z.object({
  name: opt(z.string().trim().max(100, 'Must be at most 100 characters.')),
});
export type JoinByInviteInput = z.input<typeof JoinByInviteInput>;

/** The new account's session (its cookie is set), and the organization it joined. */
export const JoinedByInviteSchema = SessionSchema.extend({
  message: z.string(),
  organization_id: z.number().int(),
  organization_name: z.string(),
  role_name: z.string().nullable(),
  account_created: z.boolean(),
});
export type JoinedByInvite = z.infer<typeof JoinedByInviteSchema>;

export const InviteIdParams = z.object({
  organization_id: intId('organization_id'),
  invite_id: z.string().min(1).max(100),
});
export const TokenParams = z.object({ token: z.string().min(1).max(200) });
