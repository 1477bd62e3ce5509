import { KEYS_LISTED, type ApiKey, type OrganizationKey } from '../../../shared/keys.ts';
import type { Permission } from '../../../shared/roles.ts';
import { generateApiKey } from '../../auth/keys.ts';
import type { Conn } from '../../db/connection.ts';
import { personName } from '../users/person-name.ts';

const KEY_COLUMNS = ['k.id', 'k.name', 'k.kind', 'k.prefix', 'k.created_at', 'k.last_used_at', 'k.revoked_at'] as const;

/** The person's personal keys, newest first (never the hash). */
export function listPersonalKeys(db: Conn, userId: string): Promise<ApiKey[]> {
  return db
    .selectFrom('api_keys as k')
    .select(KEY_COLUMNS)
    .where('k.user_id', '=', userId)
    .where('k.kind', '=', 'personal')
    .orderBy('k.id', 'desc')
    .limit(KEYS_LISTED)
    .execute();
}

/** One personal key of the person; another person's key is not found. */
export function findPersonalKey(db: Conn, userId: string, keyId: number): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys as k').select(KEY_COLUMNS).where('k.id', '=', keyId).where('k.user_id', '=', userId).where('k.kind', '=', 'personal').executeTakeFirst();
}

const organizationKeys = (db: Conn, organizationId: number) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select([...KEY_COLUMNS, 'k.organization_id', 'k.user_id', 'k.permissions', 'u.first_name', 'u.last_name', 'u.email'])
    .where('k.organization_id', '=', organizationId)
    .where('k.kind', '=', 'organization');

type OrganizationKeyRow = Awaited<ReturnType<ReturnType<typeof organizationKeys>['executeTakeFirstOrThrow']>>;

function toOrganizationKey(row: OrganizationKeyRow): OrganizationKey {
  const { first_name, last_name, email, permissions, organization_id, ...key } = row;
  return {
    ...key,
    organization_id: organization_id!,
    holder: personName(first_name, last_name) ?? email ?? row.user_id,
    permissions: permissions === null ? null : (JSON.parse(permissions) as Permission[]),
  };
}

/** Every member's keys in the organization, newest first. */
export async function listOrganizationKeys(db: Conn, organizationId: number): Promise<OrganizationKey[]> {
  const rows = await organizationKeys(db, organizationId).orderBy('k.id', 'desc').limit(KEYS_LISTED).execute();
  return rows.map(toOrganizationKey);
}

/** One key of the organization; a key of another organization (or a personal key) is not found. */
export async function findOrganizationKey(db: Conn, organizationId: number, keyId: number): Promise<OrganizationKey | undefined> {
  const row = await organizationKeys(db, organizationId).where('k.id', '=', keyId).executeTakeFirst();
  return row && toOrganizationKey(row);
}

/** Stores a named organization key of a member (its hash only); returns its id and the raw key, shown once. */
export async function insertOrganizationKey(
  db: Conn,
  key: { organizationId: number; userId: string; membershipId: number; name: string; permissions: readonly Permission[] },
  at: string,
): Promise<{ id: number; apiKey: string }> {
  const raw = generateApiKey('organization');
  const { id } = await db
    .insertInto('api_keys')
    .values({
      key_hash: raw.hash,
      prefix: raw.prefix,
      kind: 'organization',
      user_id: key.userId,
      organization_id: key.organizationId,
      membership_id: key.membershipId,
      created_at: at,
      revoked_at: null,
      name: key.name,
      permissions: JSON.stringify(key.permissions),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, apiKey: raw.raw };
}

/** Revokes a key unless it already is (the first revocation's time stays). */
export async function revokeKey(db: Conn, keyId: number, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
}
