import type { AddedMember, Member } from '../../../shared/organizations.ts';
import { ROLE_IDS, roleById, roleByName } from '../../../shared/roles.ts';
import type { Conn } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequestError, conflictError, invalidField, notFoundError } from '../../domain-errors.ts';
import { openAccount } from '../credits/repository.ts';
import { findUser } from '../users/repository.ts';
import { findMembership, insertMembership, insertOrganization, listMembers, removeMembership, setMemberRole } from './repository.ts';

const OWNER_VIA_ROLE = 'Cannot assign Owner role via invite. Use ownership transfer instead.';
const ALREADY_MEMBER = 'User is already a member of this organization.';

/** Resolves role_id / role_name (role_id wins) to a system role; unknown → invalid field; Owner → bad request. */
export function resolveAssignableRole(roleId: number | undefined, roleName: string | undefined, ownerMessage = OWNER_VIA_ROLE): number {
  let id: number = ROLE_IDS.Member;
  if (roleId !== undefined) {
    if (!roleById(roleId)) throw invalidField(['body', 'role_id'], `Unknown role ${roleId}. Roles are 1 Owner, 2 Admin, 3 Member, 4 Viewer.`);
    id = roleId;
  } else if (roleName !== undefined) {
    const role = roleByName(roleName);
    if (!role) throw invalidField(['body', 'role_name'], `Unknown role "${roleName}". Roles are Owner, Admin, Member, Viewer.`);
    id = role.id;
  }
  if (id === ROLE_IDS.Owner) throw badRequestError(ownerMessage);
  return id;
}

/**
 * Creates an organization owned by `ownerId` with its billing account and the owner's organization
 * key, in one transaction (the API, the CLI and tests all create organizations here).
 */
export async function createOrganization(db: Conn, ownerId: string, name: string, now: Date): Promise<{ organizationId: number; apiKey: string; createdAt: string }> {
  return db.transaction().execute(async (tx) => {
    const createdAt = now.toISOString();
    const organizationId = await insertOrganization(tx, ownerId, name, createdAt);
    await openAccount(tx, { organizationId }, 0, now);
    const { apiKey } = await insertMembership(tx, organizationId, ownerId, ROLE_IDS.Owner, now);
    return { organizationId, apiKey, createdAt };
  });
}

/**
 * Adds an existing user with a role and issues their organization key (shown once). `beforeCommit`
 * runs last in the transaction with the answer (the route stores its idempotent response there).
 */
export async function addMember(
  db: Conn,
  organizationId: number,
  input: { user_id: string; role_id?: number },
  now: Date,
  beforeCommit?: (tx: Conn, added: AddedMember) => Promise<void>,
): Promise<AddedMember> {
  const roleId = resolveAssignableRole(input.role_id, undefined, 'Cannot assign Owner role to a new member. Use ownership transfer instead.');
  if (!(await findUser(db, input.user_id))) throw notFoundError(`User ${input.user_id} not found.`);
  if (await findMembership(db, organizationId, input.user_id)) throw conflictError(ALREADY_MEMBER);
  try {
    return await db.transaction().execute(async (tx) => {
      const { apiKey } = await insertMembership(tx, organizationId, input.user_id, roleId, now);
      const added = { message: 'Member added successfully', user_id: input.user_id, api_key: apiKey };
      await beforeCommit?.(tx, added);
      return added;
    });
  } catch (error) {
    // A concurrent add of the same user: the unique index lets one win.
    if (isUniqueViolation(error)) throw conflictError(ALREADY_MEMBER);
    throw error;
  }
}

/** A member of the organization other than its owner, whose role and membership are not to be touched. */
async function nonOwnerMember(db: Conn, organizationId: number, userId: string, ownerMessage: string) {
  const membership = await findMembership(db, organizationId, userId);
  if (!membership) throw notFoundError('Member not found.');
  if (membership.role_id === ROLE_IDS.Owner) throw badRequestError(ownerMessage);
  return membership;
}

/** Gives a member another role (never Owner, never the owner's); returns the member as listed. */
export async function changeMemberRole(db: Conn, organizationId: number, userId: string, input: { role_id?: number; role_name?: string }): Promise<Member> {
  const roleId = resolveAssignableRole(input.role_id, input.role_name, 'Cannot assign Owner role. Use ownership transfer instead.');
  const membership = await nonOwnerMember(db, organizationId, userId, 'The owner’s role cannot be changed.');
  await setMemberRole(db, membership.id, roleId);
  const members = await listMembers(db, organizationId);
  return members.find((m) => m.id === membership.id)!;
}

/** Removes a member (never the owner) and revokes their organization key. */
export async function removeMember(db: Conn, organizationId: number, userId: string, now: Date): Promise<void> {
  const membership = await nonOwnerMember(db, organizationId, userId, 'The owner cannot be removed from the organization.');
  await removeMembership(db, membership.id, now);
}
