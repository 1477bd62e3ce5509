import { AUDIT_ACTIONS, type AuditEvent } from '../../../shared/audit.ts';
import { roleById } from '../../../shared/roles.ts';

// How the Activity page words an event: the action as a sentence fragment, the target with the facts
// that matter (the role given, the commit rolled back to…), and times relative to now.

const roleName = (id: unknown) => (typeof id === 'number' ? (roleById(id)?.name ?? `role ${id}`) : null);

export function actionWords(event: Pick<AuditEvent, 'action'>): string {
  return AUDIT_ACTIONS[event.action] ?? event.action;
}

/** A few words after the target: what changed about it. */
export function detailWords(event: Pick<AuditEvent, 'action' | 'detail'>): string | null {
  const d = event.detail ?? {};
  switch (event.action) {
    case 'invite.sent':
    case 'invite.accepted':
    case 'member.added':
      return roleName(d.role_id) && `as ${roleName(d.role_id)}`;
    case 'member.role_changed':
      return roleName(d.from_role_id) && roleName(d.role_id) ? `${roleName(d.from_role_id)} → ${roleName(d.role_id)}` : null;
    case 'context.rolled_back':
    case 'project.rolled_back':
      return typeof d.commit_hash === 'string' ? `to commit ${d.commit_hash.slice(0, 10)}` : null;
    case 'key.revoked_all':
      return typeof d.revoked === 'number' ? `${d.revoked} key${d.revoked === 1 ? '' : 's'}` : null;
    case 'sessions.signed_out_everywhere':
      return typeof d.sessions_ended === 'number' ? `${d.sessions_ended} session${d.sessions_ended === 1 ? '' : 's'} ended` : null;
    case 'assistant.reconfigured':
      return Array.isArray(d.fields) && d.fields.length > 0 ? `changed ${d.fields.join(', ')}` : null;
    case 'organization.ownership_transferred':
      return typeof d.organization_name === 'string' ? `of ${d.organization_name}` : null;
    default:
      return null;
  }
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "just now". */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

export const exactTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' });
