import type { Conn } from '../../db/connection.ts';
import { generateApiKey } from '../../auth/keys.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import { openAccount } from '../credits/repository.ts';

/**
 * Adds a member and issues their organization key, in the caller's transaction.
 * Returns the raw key (shown once).
 */
export async function insertMembership(
  tx: Conn,
  organizationId: number,
  userId: string,
  roleId: number,
  now: Date,
): Promise<{ membershipId: number; apiKey: string }> {
  const at = now.toISOString();
  const { id: membershipId } = await tx
    .insertInto('memberships')
    .values({ organization_id: organizationId, user_id: userId, role_id: roleId, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const key = generateApiKey('organization');
  await tx
    .insertInto('api_keys')
    .values({
      key_hash: key.hash,
      prefix: key.prefix,
      kind: 'organization',
      user_id: userId,
      organization_id: organizationId,
      membership_id: membershipId,
      created_at: at,
      revoked_at: null,
    })
    .execute();
  return { membershipId, apiKey: key.raw };
}

/** Creates an organization owned by `ownerId`, its billing account, and the owner's org key. */
export async function createOrganization(
  db: Conn,
  ownerId: string,
  name: string,
  now: Date,
): Promise<{ organizationId: number; apiKey: string; createdAt: string }> {
  return db.transaction().execute(async (tx) => {
    const createdAt = now.toISOString();
    const { id: organizationId } = await tx
      .insertInto('organizations')
      .values({ name, owner_id: ownerId, created_at: createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    await openAccount(tx, { organizationId }, 0, now);
    const { apiKey } = await insertMembership(tx, organizationId, ownerId, ROLE_IDS.Owner, now);
    return { organizationId, apiKey, createdAt };
  });
}
