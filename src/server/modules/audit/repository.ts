import type { Conn } from '../../db/connection.ts';
import type { AuditEventTable } from './tables.ts';

export type NewAuditRow = Omit<AuditEventTable, 'id'>;

/** Whose log a row is in: an organization's, or a person's personal workspace. */
export type AuditWorkspace = { organizationId: number } | { userId: string };

export async function insertAuditEvent(tx: Conn, row: NewAuditRow): Promise<void> {
  await tx.insertInto('audit_events').values(row).execute();
}

/** The actor's name and the key's as they are now (captured into the row: later renames do not rewrite history). */
export async function actorNames(tx: Conn, userId: string, keyId: number | null) {
  const user = await tx.selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', userId).executeTakeFirst();
  const key = keyId === null ? undefined : await tx.selectFrom('api_keys').select(['name', 'prefix']).where('id', '=', keyId).executeTakeFirst();
  return { user, key };
}

export interface AuditPageQuery {
  actor?: string;
  action?: string;
  /** Rows strictly older than this (created_at, id), newest first. */
  before?: { createdAt: string; id: number };
  limit: number;
}

/** One page of a workspace's log, newest first (one more row than asked, to tell whether another page follows). */
export function listAuditEvents(db: Conn, workspace: AuditWorkspace, q: AuditPageQuery) {
  let query = db.selectFrom('audit_events').selectAll();
  query =
    'organizationId' in workspace
      ? query.where('organization_id', '=', workspace.organizationId)
      : query.where('organization_id', 'is', null).where('user_id', '=', workspace.userId);
  if (q.actor !== undefined) query = query.where('actor_user_id', '=', q.actor);
  if (q.action !== undefined) query = query.where('action', '=', q.action);
  const before = q.before;
  if (before) {
    query = query.where((eb) => eb.or([eb('created_at', '<', before.createdAt), eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)])]));
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}
