import { useQuery } from '@tanstack/react-query';
import { meQuery, type Me } from '../data/account.ts';

/** "Who am I": name, credits, and the workspace the dashboard acts in (the address's), the role and permissions there. */
export function useMe() {
  return useQuery(meQuery);
}

export function displayName(me: Pick<Me, 'first' | 'last' | 'email'>): string {
  return [me.first, me.last].filter(Boolean).join(' ') || me.email || 'Unnamed user';
}

export function workspaceName(me: Me): string {
  return me.key.organization_id !== null ? (me.key.organization_name ?? 'Organization') : 'Personal workspace';
}

/** Why an action is unavailable to this key, or null when it is allowed. */
export type Permission = Me['key']['permissions'][number];

export function missingPermission(me: Me | undefined, permission: Permission): string | null {
  if (!me) return 'Loading permissions…';
  return me.key.permissions.includes(permission) ? null : `Your role lacks the ${permission} permission.`;
}
