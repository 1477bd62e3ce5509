import { z } from 'zod';
import { intId, name, opt, Timestamp } from './common.ts';
import { RoleSchema } from './roles.ts';

/** Extension: POST /v0/organizations */
export const CreateOrganizationInput = z.object({ name: name(100) });
export type CreateOrganizationInput = z.infer<typeof CreateOrganizationInput>;

export const CreatedOrganizationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  owner_id: z.string(),
  created_at: Timestamp,
  /** The creator's organization key, shown once. */
  api_key: z.string(),
});
export type CreatedOrganization = z.infer<typeof CreatedOrganizationSchema>;

/** Extension: GET /v0/organizations — the caller's organizations with their role. */
export const OrganizationSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  owner_id: z.string(),
  created_at: Timestamp,
  role_id: z.number().int(),
  role_name: z.string(),
  member_count: z.number().int(),
});
export type OrganizationSummary = z.infer<typeof OrganizationSummarySchema>;
export const OrganizationListSchema = z.object({ organizations: z.array(OrganizationSummarySchema) });

/** The spec's Organization member (12 fields). */
export const MemberSchema = z.object({
  id: z.number().int(),
  user_id: z.string(),
  organization_id: z.number().int(),
  role_id: z.number().int(),
  role_name: z.string().nullable(),
  created_at: Timestamp,
  name: z.string().nullable(),
  email: z.string().nullable(),
  image: z.string().nullable(),
  bio: z.string().nullable(),
  timezone: z.string().nullable(),
  phone_number: z.string().nullable(),
});
export type Member = z.infer<typeof MemberSchema>;
export const MemberListSchema = z.array(MemberSchema);

/** 14. POST /v0/organizations/{organization_id}/members */
export const AddMemberInput = z.object({
  user_id: z.string().trim().min(1, 'Must not be empty.').max(100, 'Must be at most 100 characters.'),
  role_id: opt(intId('role_id')),
});
export type AddMemberInput = z.infer<typeof AddMemberInput>;
export const AddedMemberSchema = z.object({ message: z.string(), user_id: z.string(), api_key: z.string() });
export type AddedMember = z.infer<typeof AddedMemberSchema>;

/** Extension: PATCH /v0/organizations/{organization_id}/members/{user_id} */
export const ChangeRoleInput = z
  .object({ role_id: opt(intId('role_id')), role_name: opt(z.string().trim().max(50)) })
  .refine((v) => v.role_id !== undefined || v.role_name !== undefined, {
    message: 'Give role_id or role_name.',
    path: ['role_id'],
  });
export type ChangeRoleInput = z.infer<typeof ChangeRoleInput>;

export const RoleListSchema = z.object({ roles: z.array(RoleSchema) });

export const OrgPathParams = z.object({ organization_id: intId('organization_id') });
export const MemberPathParams = z.object({
  organization_id: intId('organization_id'),
  user_id: z.string().min(1).max(100),
});

/**
 * The organization's name, typed to confirm a change that cannot be undone (leave, transfer, delete):
 * an id mistyped in a script must not act on another organization.
 */
const confirmName = z.string().trim().normalize('NFC').min(1, 'Type the organization’s name to confirm.').max(100, 'Must be at most 100 characters.');

/** Extension: POST /v0/organizations/{organization_id}/transfer-ownership */
export const TransferOwnershipInput = z.object({
  user_id: z.string().trim().min(1, 'Must not be empty.').max(100, 'Must be at most 100 characters.'),
  confirm_name: confirmName,
});
export type TransferOwnershipInput = z.infer<typeof TransferOwnershipInput>;
export const OwnershipTransferredSchema = z.object({
  message: z.string(),
  organization_id: z.number().int(),
  owner_id: z.string(),
  previous_owner_id: z.string(),
  /** The previous owner's role now. */
  previous_owner_role_name: z.string(),
});

/** Extension: POST /v0/organizations/{organization_id}/leave */
export const LeaveOrganizationInput = z.object({ confirm_name: confirmName });
export type LeaveOrganizationInput = z.infer<typeof LeaveOrganizationInput>;

/** What deleting an organization removes, counted (extension: GET /v0/organizations/{organization_id}/deletion). */
export const OrganizationDeletionSummarySchema = z.object({
  members: z.number().int(),
  pending_invites: z.number().int(),
  api_keys: z.number().int(),
  assistants: z.number().int(),
  voices: z.number().int(),
  files: z.number().int(),
  projects: z.number().int(),
  contexts: z.number().int(),
  rows: z.number().int(),
  commits: z.number().int(),
  dashboards: z.number().int(),
  tiles: z.number().int(),
  custom_endpoints: z.number().int(),
  /** The organization's balance, lost with it. */
  credits: z.number(),
});
export type OrganizationDeletionSummary = z.infer<typeof OrganizationDeletionSummarySchema>;
export const OrganizationDeletionSchema = z.object({
  organization_id: z.number().int(),
  name: z.string(),
  deletes: OrganizationDeletionSummarySchema,
});

/** Extension: DELETE /v0/organizations/{organization_id} */
export const DeleteOrganizationInput = z.object({ confirm_name: confirmName });
export type DeleteOrganizationInput = z.infer<typeof DeleteOrganizationInput>;
export const OrganizationDeletedSchema = z.object({ message: z.string(), deleted: OrganizationDeletionSummarySchema });

/** Extension: POST /v0/organizations/{organization_id}/credits — from the caller's personal balance. */
export const MoveCreditsInput = z.object({
  amount: z.number().finite().min(0.000001, 'Move at least 0.000001 credits.').max(1_000_000_000, 'Move at most 1,000,000,000 credits at once.'),
});
export type MoveCreditsInput = z.infer<typeof MoveCreditsInput>;
export const CreditsMovedSchema = z.object({
  moved: z.number(),
  /** Both balances after the move. */
  personal_credits: z.number(),
  organization_credits: z.number(),
});
