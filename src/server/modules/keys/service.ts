import { REVOKE_ALL_CONFIRMATION, type OrganizationKey } from '../../../shared/keys.ts';
import { roleById, type Permission } from '../../../shared/roles.ts';
import type { OrganizationAccess, Principal } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { badRequestError, invalidField, notFoundError } from '../../domain-errors.ts';
import { findMembership } from '../organizations/repository.ts';
import { insertPersonalKey, revokeAllKeys } from '../users/repository.ts';
import * as keys from './repository.ts';

export async function createPersonalKey(db: Conn, userId: string, name: string, now: Date) {
  const at = now.toISOString();
  const { id, apiKey } = await insertPersonalKey(db, userId, at, name);
  const key = await keys.findPersonalKey(db, userId, id);
  return { ...key!, api_key: apiKey };
}

export async function revokePersonalKey(db: Conn, userId: string, keyId: number, now: Date) {
  const key = await keys.findPersonalKey(db, userId, keyId);
  if (!key) throw notFoundError(`API key ${keyId} not found among your personal keys.`);
  await keys.revokeKey(db, keyId, now.toISOString());
  return (await keys.findPersonalKey(db, userId, keyId))!;
}

/** "Revoke all my keys": the CLI's revoke-all, behind a typed confirmation (it cannot be undone). */
export async function revokeAllKeysConfirmed(db: Conn, userId: string, confirm: string, now: Date) {
  if (confirm.trim().toLowerCase() !== REVOKE_ALL_CONFIRMATION) {
    throw badRequestError(`To revoke every key you hold, send confirm: "${REVOKE_ALL_CONFIRMATION}".`);
  }
  const { apiKey, revoked } = await revokeAllKeys(db, userId, now);
  return {
    message: `Revoked ${revoked} key${revoked === 1 ? '' : 's'}, personal and organization ones. Browser sessions stay signed in (sign out everywhere to end them). The new personal key is shown only now.`,
    revoked,
    api_key: apiKey,
  };
}

/**
 * A new organization key acts as its creator, so it may hold only what the creator holds: their role's
 * permissions, and when they call with an organization key, that key's too (a key never mints a
 * stronger one).
 */
export async function createOrganizationKey(
  db: Conn,
  principal: Principal,
  organization: OrganizationAccess,
  input: { name: string; permissions: Permission[] },
  now: Date,
): Promise<OrganizationKey & { api_key: string }> {
  const role = roleById(organization.roleId)!;
  const held = role.permissions.filter((p) => principal.keyKind !== 'organization' || principal.permissions.has(p));
  const missing = input.permissions.filter((p) => !held.includes(p));
  if (missing.length > 0) {
    const by = principal.keyKind === 'organization' ? 'the key you call with' : `your role (${role.name})`;
    throw invalidField(['body', 'permissions'], `A key gets at most what you hold, and ${by} does not grant ${missing.join(', ')}.`);
  }
  const membership = await findMembership(db, organization.id, principal.userId);
  if (!membership) throw notFoundError('Organization not found.');
  const { id, apiKey } = await keys.insertOrganizationKey(
    db,
    { organizationId: organization.id, userId: principal.userId, membershipId: membership.id, name: input.name, permissions: input.permissions },
    now.toISOString(),
  );
  return { ...(await keys.findOrganizationKey(db, organization.id, id))!, api_key: apiKey };
}

export async function revokeOrganizationKey(db: Conn, organizationId: number, keyId: number, now: Date): Promise<OrganizationKey> {
  const key = await keys.findOrganizationKey(db, organizationId, keyId);
  if (!key) throw notFoundError(`API key ${keyId} not found among this organization's keys.`);
  await keys.revokeKey(db, keyId, now.toISOString());
  return (await keys.findOrganizationKey(db, organizationId, keyId))!;
}
