import type { Conn } from '../../db/connection.ts';
import { insertShape, runPrepared } from '../../db/prepared.ts';
import { actorNamesOf, type ActorNames } from './actor-names.ts';
import type { AuditEventTable } from './tables.ts';

export type NewAuditRow = Omit<AuditEventTable, 'id'>;

/** Whose log a row is in: an organization's, or a person's personal workspace. */
export type AuditWorkspace = { organizationId: number } | { userId: string };

// Every audited change writes one (POST /v0/project and the like): built once, not per request.
const auditRow = insertShape<NewAuditRow>({
  organization_id: null,
  user_id: null,
  actor_user_id: null,
  actor_key_id: null,
  actor_name: null,
  actor_key_name: null,
  action: null,
  target_type: null,
  target_id: null,
  target_label: null,
  detail: null,
  created_at: null,
});
const insertAudit = (db: Conn) => db.insertInto('audit_events').values(auditRow.placeholders);

export async function insertAuditEvent(tx: Conn, row: NewAuditRow): Promise<void> {
  await runPrepared(tx, 'insert-audit', insertAudit, auditRow.params(row));
}

const userNames = (db: Conn) => db.selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', '?');
const keyNames = (db: Conn) => db.selectFrom('api_keys').select(['name', 'prefix']).where('id', '=', 0);

/** The actor's name and the key's as they are now (captured into the row: later renames do not rewrite history). */
export async function readActorNames(tx: Conn, userId: string, keyId: number | null): Promise<ActorNames> {
  const [user] = await runPrepared(tx, 'actor-user', userNames, [userId]);
  const [key] = keyId === null ? [] : await runPrepared(tx, 'actor-key', keyNames, [keyId]);
  return actorNamesOf(userId, user, key);
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
