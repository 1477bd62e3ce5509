import type { OrganizationDeletionSummary } from '../../../shared/organizations.ts';

/** How long until an invitation expires, in words a table cell can hold. */
export function timeLeft(expiresAt: string, now = Date.now()): string {
  const ms = new Date(expiresAt).getTime() - now;
  if (ms <= 0) return 'expired';
  const hours = Math.floor(ms / 3_600_000);
  if (hours >= 36) return `in ${Math.round(ms / 86_400_000)} days`;
  if (hours >= 1) return `in ${hours} h`;
  return `in ${Math.max(1, Math.floor(ms / 60_000))} min`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What deleting the organization removes, in words (only what there is). */
export function deletedThings(d: OrganizationDeletionSummary): string[] {
  return [
    d.members > 0 && plural(d.members, 'membership'),
    d.api_keys > 0 && `${plural(d.api_keys, 'organization API key')} (they stop working)`,
    d.pending_invites > 0 && plural(d.pending_invites, 'pending invitation'),
    d.assistants > 0 && plural(d.assistants, 'assistant'),
    d.voices > 0 && plural(d.voices, 'cloned voice'),
    d.files > 0 && plural(d.files, 'stored file'),
    d.projects > 0 && `${plural(d.projects, 'project')} with ${plural(d.contexts, 'context')}, ${plural(d.rows, 'row')} and ${plural(d.commits, 'commit')}`,
    d.dashboards > 0 && `${plural(d.dashboards, 'dashboard')} with ${plural(d.tiles, 'tile')}`,
    d.custom_endpoints > 0 && plural(d.custom_endpoints, 'custom endpoint'),
    d.credits > 0 && `${d.credits} credits (they are not refunded)`,
  ].filter((x): x is string => typeof x === 'string');
}
