import { sql, type ExpressionBuilder } from 'kysely';
import type { OrganizationDeletionSummary } from '../../../shared/organizations.ts';
import { ROLE_IDS } from '../../../shared/roles.ts';
import type { Conn } from '../../db/connection.ts';
import type { Database } from '../../db/types.ts';
import { fromMicros } from '../credits/repository.ts';
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
export async function removeMembership(db: Conn, membershipId: number, now: Date, beforeCommit?: (tx: Conn) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString(), membership_id: null })
      .where('membership_id', '=', membershipId)
      .where('revoked_at', 'is', null)
      .execute();
    await tx.deleteFrom('memberships').where('id', '=', membershipId).execute();
    await beforeCommit?.(tx);
  });
}

export function findOrganization(db: Conn, organizationId: number) {
  return db.selectFrom('organizations').select(['id', 'name', 'owner_id']).where('id', '=', organizationId).executeTakeFirst();
}

/**
 * Hands the organization to `newOwnerId` in the caller's transaction: the owner column moves only if
 * `ownerId` still holds it (two transfers at once: one wins), the new owner's membership becomes Owner and
 * the previous owner's Admin. False when the organization's owner or the new owner's membership changed meanwhile.
 */
export async function moveOwnership(tx: Conn, organizationId: number, ownerId: string, newOwnerId: string): Promise<boolean> {
  const moved = await tx.updateTable('organizations').set({ owner_id: newOwnerId }).where('id', '=', organizationId).where('owner_id', '=', ownerId).executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  const promoted = await tx
    .updateTable('memberships')
    .set({ role_id: ROLE_IDS.Owner })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', newOwnerId)
    .executeTakeFirst();
  if (Number(promoted.numUpdatedRows) !== 1) return false;
  await tx.updateTable('memberships').set({ role_id: ROLE_IDS.Admin }).where('organization_id', '=', organizationId).where('user_id', '=', ownerId).execute();
  return true;
}

/** What deleting the organization removes, counted (the pre-flight, and the answer of the deletion). */
export async function organizationDeletionSummary(db: Conn, organizationId: number): Promise<OrganizationDeletionSummary> {
  const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: unknown }> }) => Number((await query.executeTakeFirstOrThrow()).n ?? 0);
  const n = (eb: ExpressionBuilder<Database, keyof Database>) => eb.fn.countAll().as('n');
  const inContexts = db.selectFrom('contexts as c').innerJoin('projects as p', 'p.id', 'c.project_id').where('p.organization_id', '=', organizationId);
  const inInterfaces = db.selectFrom('interfaces as i').innerJoin('projects as p', 'p.id', 'i.project_id').where('p.organization_id', '=', organizationId);
  const [members, pending_invites, api_keys, assistants, voices, files, projectCount, contextCount, rows, commits, dashboards, tiles, custom_endpoints, account] =
    await Promise.all([
      count(db.selectFrom('memberships').select(n).where('organization_id', '=', organizationId)),
      count(db.selectFrom('invites').select(n).where('organization_id', '=', organizationId).where('status', '=', 'pending')),
      count(db.selectFrom('api_keys').select(n).where('organization_id', '=', organizationId).where('revoked_at', 'is', null)),
      count(db.selectFrom('assistants').select(n).where('organization_id', '=', organizationId)),
      count(db.selectFrom('voices').select(n).where('organization_id', '=', organizationId)),
      count(db.selectFrom('stored_files').select(n).where('organization_id', '=', organizationId)),
      count(db.selectFrom('projects').select(n).where('organization_id', '=', organizationId)),
      count(inContexts.select((eb) => eb.fn.countAll().as('n'))),
      count(inContexts.innerJoin('context_rows as r', 'r.context_id', 'c.id').select((eb) => eb.fn.countAll().as('n'))),
      count(inContexts.innerJoin('commits as k', 'k.context_id', 'c.id').select((eb) => eb.fn.countAll().as('n'))),
      count(inInterfaces.select((eb) => eb.fn.countAll().as('n'))),
      count(
        inInterfaces
          .innerJoin('tabs as t', 't.interface_id', 'i.id')
          .innerJoin('tiles as x', 'x.tab_id', 't.id')
          .select((eb) => eb.fn.countAll().as('n')),
      ),
      count(db.selectFrom('custom_endpoints').select(n).where('organization_id', '=', organizationId)),
      db.selectFrom('billing_accounts').select('credits_micros').where('organization_id', '=', organizationId).executeTakeFirst(),
    ]);
  return {
    members,
    pending_invites,
    api_keys,
    assistants,
    voices,
    files,
    projects: projectCount,
    contexts: contextCount,
    rows,
    commits,
    dashboards,
    tiles,
    custom_endpoints,
    credits: fromMicros(account?.credits_micros ?? 0),
  };
}

/**
 * Deletes the organization row in the caller's transaction; every table that names it cascades (members,
 * keys, invites, billing account and ledger, assistants, voices, file records, projects with their
 * contexts, rows, commits and dashboards, custom endpoints). Its e-mails not yet sent (invitations whose
 * links would no longer work) go too; sent ones stay in the outbox without the organization.
 */
export async function deleteOrganizationRow(tx: Conn, organizationId: number): Promise<void> {
  await tx.deleteFrom('mail_outbox').where('organization_id', '=', organizationId).where('status', '=', 'pending').execute();
  await tx.deleteFrom('organizations').where('id', '=', organizationId).execute();
}
