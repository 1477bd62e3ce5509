import type { Generated } from 'kysely';

/** Rows of the audit-events migration (2026-11-26-03-audit-events). */
export interface AuditEventTable {
  id: Generated<number>;
  /** The organization the change happened in; null for a personal workspace. */
  organization_id: number | null;
  /** The person whose personal workspace it is; null for an organization. */
  user_id: string | null;
  actor_user_id: string | null;
  /** The API key used; null for a browser session (or the CLI). */
  actor_key_id: number | null;
  /** The person's name (or e-mail address) when they acted. */
  actor_name: string;
  /** The key's name (or prefix) when they acted with a key. */
  actor_key_name: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  /** Small JSON object (a role, a count…), or null. */
  detail: string | null;
  created_at: string;
}

export interface AuditTables {
  audit_events: AuditEventTable;
}
