import { z } from 'zod';
import { text, Timestamp } from './common.ts';

// The audit log (issue 19): who changed what, and when, in a workspace. Actions are stable dotted
// strings: clients filter on them and the dashboard words them (AUDIT_ACTIONS).

/** Every action the log records, with how the dashboard says it. */
export const AUDIT_ACTIONS = {
  'organization.created': 'created the organization',
  'organization.ownership_transferred': 'transferred ownership',
  'invite.sent': 'sent an invite',
  'invite.accepted': 'accepted an invite',
  'invite.cancelled': 'cancelled an invite',
  'member.added': 'added a member',
  'member.role_changed': 'changed a role',
  'member.removed': 'removed a member',
  'member.left': 'left the organization',
  'key.created': 'created an API key',
  'key.revoked': 'revoked an API key',
  'key.revoked_all': 'revoked all their keys',
  'assistant.hired': 'hired an assistant',
  'assistant.reconfigured': 'reconfigured an assistant',
  'assistant.deleted': 'deleted an assistant',
  'project.created': 'created a project',
  'project.deleted': 'deleted a project',
  'project.rolled_back': 'rolled back a project',
  'context.created': 'created a context',
  'context.deleted': 'deleted a context',
  'context.renamed': 'renamed a context',
  'contexts.deleted_all': 'deleted every context of a project',
  'context.rolled_back': 'rolled back a context',
  'template.imported': 'imported a tile template',
  'sessions.signed_out_everywhere': 'signed out everywhere',
  'spending_limit.reached': 'reported reaching a spending limit',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AuditActionSchema = z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]);

/** Events a page holds at most (and by default). */
export const AUDIT_PAGE_MAX = 100;
export const AUDIT_PAGE_DEFAULT = 50;

export const AuditEventSchema = z.object({
  id: z.number().int(),
  created_at: Timestamp,
  action: AuditActionSchema,
  actor: z.object({
    /** Null when the change was made by the server itself (the CLI). */
    user_id: z.string().nullable(),
    /** The person's name (or e-mail address) when they acted. */
    name: z.string(),
    /** The API key they acted with (null: a browser session). */
    key_id: z.number().int().nullable(),
    key_name: z.string().nullable(),
  }),
  target: z
    .object({
      type: z.string(),
      id: z.string().nullable(),
      label: z.string().nullable(),
    })
    .nullable(),
  /** A few facts about the change (a role, a commit…), or null. */
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditQuery = z.object({
  /** Only changes made by this person (their user id). */
  actor: text(64).trim().min(1).optional(),
  action: AuditActionSchema.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .max(AUDIT_PAGE_MAX, `limit must be at most ${AUDIT_PAGE_MAX}.`)
    .optional(),
  /** next_cursor of the previous page. */
  cursor: text(200).optional(),
});
export type AuditQueryInput = z.input<typeof AuditQuery>;

export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
