import { sql } from 'kysely';
import type { Conn } from '../../db/connection.ts';
import { generateApiKey } from '../../auth/keys.ts';
import { personName } from '../users/person-name.ts';

/**
 * Adds a member and issues their organization key, in the caller's transaction.
 * Returns the raw key (shown once).
 */
export async function insertMembership(tx: Conn, organizationId: number, userId: string, roleId: number, now: Date): Promise<{ membershipId: number; apiKey: string }> {
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

/** Inserts the organization row only (service.ts adds its account and owner). */
export async function insertOrganization(tx: Conn, ownerId: string, name: string, createdAt: string): Promise<number> {
  const { id } = await tx.insertInto('organizations').values({ name, owner_id: ownerId, created_at: createdAt }).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** The spec's Organization member records of one organization, oldest first. */
export async function listMembers(db: Conn, organizationId: number) {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('roles as r', 'r.id', 'm.role_id')
    .select([
      'm.id',
      'm.user_id',
      'm.organization_id',
      'm.role_id',
      'r.name as role_name',
      'm.created_at',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.image',
      'u.bio',
      'u.timezone',
      'u.phone_number',
    ])
    .where('m.organization_id', '=', organizationId)
    .orderBy('m.id')
    .execute();
  return rows.map(({ first_name, last_name, ...r }) => ({ ...r, name: personName(first_name, last_name) }));
}

/** The organizations `userId` belongs to, with their role. */
export async function listOrganizationsOf(db: Conn, userId: string) {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .innerJoin('roles as r', 'r.id', 'm.role_id')
    .select((eb) => [
      'o.id',
      'o.name',
      'o.owner_id',
      'o.created_at',
      'm.role_id',
      'r.name as role_name',
      eb
        .selectFrom('memberships as mm')
        .whereRef('mm.organization_id', '=', 'o.id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('member_count'),
    ])
    .where('m.user_id', '=', userId)
    .orderBy('o.id')
    .execute();
  return rows.map((r) => ({ ...r, member_count: Number(r.member_count ?? 0) }));
}

/** The member whose account has that e-mail (lowercase), if any. */
export function findMembershipByEmail(db: Conn, organizationId: number, email: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('m.id')
    .where('m.organization_id', '=', organizationId)
    .where(sql<string>`lower(u.email)`, '=', email)
    .executeTakeFirst();
}

export async function findMembership(db: Conn, organizationId: number, userId: string) {
  return db.selectFrom('memberships').selectAll().where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
}

export async function setMemberRole(db: Conn, membershipId: number, roleId: number): Promise<void> {
  await db.updateTable('memberships').set({ role_id: roleId }).where('id', '=', membershipId).execute();
}

/** Removes a membership and revokes that member's organization key(s), in one transaction. */
export async function removeMembership(db: Conn, membershipId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString(), membership_id: null })
      .where('membership_id', '=', membershipId)
      .where('revoked_at', 'is', null)
      .execute();
    await tx.deleteFrom('memberships').where('id', '=', membershipId).execute();
  });
}
