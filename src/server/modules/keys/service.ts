import { REVOKE_ALL_CONFIRMATION, type OrganizationKey } from '../../../shared/keys.ts';
import { roleById, type Permission } from '../../../shared/roles.ts';
import type { OrganizationAccess, Principal } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { badRequestError, invalidField, notFoundError } from '../../domain-errors.ts';
import { findMembership } from '../organizations/repository.ts';
import { insertPersonalKey, revokeAllKeys } from '../users/repository.ts';
import * as keys from './repository.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';

const keyTarget = (key: { id: number; name: string | null; prefix: string }) => ({ type: 'key', id: key.id, label: key.name ?? `${key.prefix}…` });

export async function createPersonalKey(db: Conn, userId: string, name: string, now: Date, actor: AuditActor = { userId, keyId: null }) {
  return db.transaction().execute(async (tx) => {
    const { id, apiKey } = await insertPersonalKey(tx, userId, now.toISOString(), name);
    const key = (await keys.findPersonalKey(tx, userId, id))!;
    await recordAudit(tx, { workspace: { userId }, actor, action: 'key.created', target: keyTarget(key), at: now });
    return { ...key, api_key: apiKey };
  });
}

export async function revokePersonalKey(db: Conn, userId: string, keyId: number, now: Date, actor: AuditActor = { userId, keyId: null }) {
  return db.transaction().execute(async (tx) => {
    const key = await keys.findPersonalKey(tx, userId, keyId);
    if (!key) throw notFoundError(`API key ${keyId} not found among your personal keys.`);
    // Revoking a revoked key changes nothing, and is not logged again.
    if (key.revoked_at === null) {
      await keys.revokeKey(tx, keyId, now.toISOString());
      await recordAudit(tx, { workspace: { userId }, actor, action: 'key.revoked', target: keyTarget(key), at: now });
    }
    return (await keys.findPersonalKey(tx, userId, keyId))!;
  });
}

/** "Revoke all my keys": the CLI's revoke-all, behind a typed confirmation (it cannot be undone). */
export async function revokeAllKeysConfirmed(db: Conn, userId: string, confirm: string, now: Date, actor: AuditActor = { userId, keyId: null }) {
  if (confirm.trim().toLowerCase() !== REVOKE_ALL_CONFIRMATION) {
    throw badRequestError(`To revoke every key you hold, send confirm: "${REVOKE_ALL_CONFIRMATION}".`);
  }
  const { apiKey, revoked } = await revokeAllKeys(db, userId, now, (tx, count) =>
    recordAudit(tx, { workspace: { userId }, actor, action: 'key.revoked_all', detail: { revoked: count }, at: now }),
  );
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
  return db.transaction().execute(async (tx) => {
    const { id, apiKey } = await keys.insertOrganizationKey(
      tx,
      { organizationId: organization.id, userId: principal.userId, membershipId: membership.id, name: input.name, permissions: input.permissions },
      now.toISOString(),
    );
    const key = (await keys.findOrganizationKey(tx, organization.id, id))!;
    const detail = { permissions: input.permissions };
    await recordAudit(tx, { workspace: { organizationId: organization.id }, actor: principal, action: 'key.created', target: keyTarget(key), detail, at: now });
    return { ...key, api_key: apiKey };
  });
}

export async function revokeOrganizationKey(db: Conn, organizationId: number, keyId: number, now: Date, actor: AuditActor): Promise<OrganizationKey> {
  return db.transaction().execute(async (tx) => {
    const key = await keys.findOrganizationKey(tx, organizationId, keyId);
    if (!key) throw notFoundError(`API key ${keyId} not found among this organization's keys.`);
    if (key.revoked_at === null) {
      await keys.revokeKey(tx, keyId, now.toISOString());
      await recordAudit(tx, { workspace: { organizationId }, actor, action: 'key.revoked', target: keyTarget(key), detail: { holder: key.holder }, at: now });
    }
    return (await keys.findOrganizationKey(tx, organizationId, keyId))!;
  });
}
