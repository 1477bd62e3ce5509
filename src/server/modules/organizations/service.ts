import type { AddedMember, Member, OrganizationDeletionSummary, TransferOwnershipInput } from '../../../shared/organizations.ts';
import { ROLE_IDS, roleById, roleByName } from '../../../shared/roles.ts';
import type { z } from 'zod';
import type { OwnershipTransferredSchema } from '../../../shared/organizations.ts';
import type { Conn } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequestError, conflictError, invalidField, notFoundError } from '../../domain-errors.ts';
import { deleteAssistantsIn } from '../assistants/service.ts';
import { accountOf, chargeCredits, creditAccount, fromMicros, openAccount, toMicros } from '../credits/repository.ts';
import { findUser } from '../users/repository.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { personName } from '../users/person-name.ts';
import {
  deleteOrganizationRow,
  findMembership,
  findOrganization,
  insertMembership,
  insertOrganization,
  listMembers,
  moveOwnership,
  organizationDeletionSummary,
  removeMembership,
  setMemberRole,
} from './repository.ts';

type OwnershipTransferred = z.infer<typeof OwnershipTransferredSchema>;

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
export async function createOrganization(
  db: Conn,
  ownerId: string,
  name: string,
  now: Date,
  actor: AuditActor = { userId: ownerId, keyId: null },
): Promise<{ organizationId: number; apiKey: string; createdAt: string }> {
  return db.transaction().execute(async (tx) => {
    const createdAt = now.toISOString();
    const organizationId = await insertOrganization(tx, ownerId, name, createdAt);
    await openAccount(tx, { organizationId }, 0, now);
    const { apiKey } = await insertMembership(tx, organizationId, ownerId, ROLE_IDS.Owner, now);
    await recordAudit(tx, {
      workspace: { organizationId },
      actor,
      action: 'organization.created',
      target: { type: 'organization', id: organizationId, label: name },
      at: now,
    });
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
  actor?: AuditActor,
): Promise<AddedMember> {
  const roleId = resolveAssignableRole(input.role_id, undefined, 'Cannot assign Owner role to a new member. Use ownership transfer instead.');
  const user = await findUser(db, input.user_id);
  if (!user) throw notFoundError(`User ${input.user_id} not found.`);
  if (await findMembership(db, organizationId, input.user_id)) throw conflictError(ALREADY_MEMBER);
  try {
    return await db.transaction().execute(async (tx) => {
      const { apiKey } = await insertMembership(tx, organizationId, input.user_id, roleId, now);
      const added = { message: 'Member added successfully', user_id: input.user_id, api_key: apiKey };
      if (actor)
        await recordAudit(tx, { workspace: { organizationId }, actor, action: 'member.added', target: memberTarget(user), detail: { role_id: roleId }, at: now });
      await beforeCommit?.(tx, added);
      return added;
    });
  } catch (error) {
    // A concurrent add of the same user: the unique index lets one win.
    if (isUniqueViolation(error)) throw conflictError(ALREADY_MEMBER);
    throw error;
  }
}

/** A person as the audit log names them. */
function memberTarget(user: { id: string; first_name: string | null; last_name: string | null; email: string | null } | undefined, userId = user?.id ?? '') {
  return { type: 'user', id: userId, label: user ? (personName(user.first_name, user.last_name) ?? user.email) : null };
}

/** A member of the organization other than its owner, whose role and membership are not to be touched. */
async function nonOwnerMember(db: Conn, organizationId: number, userId: string, ownerMessage: string) {
  const membership = await findMembership(db, organizationId, userId);
  if (!membership) throw notFoundError('Member not found.');
  if (membership.role_id === ROLE_IDS.Owner) throw badRequestError(ownerMessage);
  return membership;
}

/** Gives a member another role (never Owner, never the owner's); returns the member as listed. */
export async function changeMemberRole(
  db: Conn,
  organizationId: number,
  userId: string,
  input: { role_id?: number; role_name?: string },
  actor: AuditActor,
  now: Date,
): Promise<Member> {
  const roleId = resolveAssignableRole(input.role_id, input.role_name, 'Cannot assign Owner role. Use ownership transfer instead.');
  const membership = await nonOwnerMember(db, organizationId, userId, 'The owner’s role cannot be changed.');
  await db.transaction().execute(async (tx) => {
    await setMemberRole(tx, membership.id, roleId);
    const detail = { from_role_id: membership.role_id, role_id: roleId };
    await recordAudit(tx, {
      workspace: { organizationId },
      actor,
      action: 'member.role_changed',
      target: memberTarget(await findUser(tx, userId), userId),
      detail,
      at: now,
    });
  });
  const members = await listMembers(db, organizationId);
  return members.find((m) => m.id === membership.id)!;
}

/** Removes a member (never the owner) and revokes their organization key. */
export async function removeMember(db: Conn, organizationId: number, userId: string, now: Date, actor: AuditActor): Promise<void> {
  const membership = await nonOwnerMember(db, organizationId, userId, 'The owner cannot be removed from the organization.');
  await removeMembership(db, membership.id, now, async (tx) =>
    recordAudit(tx, { workspace: { organizationId }, actor, action: 'member.removed', target: memberTarget(await findUser(tx, userId), userId), at: now }),
  );
}

/** The organization as the caller named it, if `typed` (trimmed, NFC) is its name; a 400 that says so otherwise. */
async function confirmedOrganization(db: Conn, organizationId: number, typed: string) {
  const organization = await findOrganization(db, organizationId);
  if (!organization) throw notFoundError('Organization not found.');
  if (typed !== organization.name) throw badRequestError(`confirm_name must be the organization’s name, "${organization.name}".`);
  return organization;
}

/** Where the owner of an organization goes instead of leaving it, or before deleting their account. */
export function ownerWayOut(organizationId: number): string {
  return `Transfer ownership to another member (POST /v0/organizations/${organizationId}/transfer-ownership) or delete the organization (DELETE /v0/organizations/${organizationId}).`;
}

/**
 * Makes another member the Owner; the caller (the Owner) becomes an Admin. Their organization keys keep
 * working and carry the new roles from the next request (a key's role is its member's current role).
 */
export async function transferOwnership(
  db: Conn,
  organizationId: number,
  ownerId: string,
  input: TransferOwnershipInput,
  actor: AuditActor = { userId: ownerId, keyId: null },
  now = new Date(),
): Promise<OwnershipTransferred> {
  const organization = await confirmedOrganization(db, organizationId, input.confirm_name);
  if (input.user_id === ownerId) throw badRequestError('You already own this organization: choose another member.');
  if (!(await findMembership(db, organizationId, input.user_id))) {
    throw notFoundError(`User ${input.user_id} is not a member of ${organization.name}. Invite or add them first; only a member can become the owner.`);
  }
  await db.transaction().execute(async (tx) => {
    // Throwing rolls back a half move (the owner column moved, but the new owner's membership was gone).
    if (!(await moveOwnership(tx, organizationId, ownerId, input.user_id))) {
      throw conflictError('The organization’s owner or members changed meanwhile. Reload and try again.');
    }
    // In the organization's log, and in the previous owner's own (their account's history).
    const event = { actor, action: 'organization.ownership_transferred', target: memberTarget(await findUser(tx, input.user_id), input.user_id), at: now } as const;
    const detail = { organization_id: organizationId, organization_name: organization.name };
    await recordAudit(tx, { ...event, workspace: { organizationId }, detail });
    await recordAudit(tx, { ...event, workspace: { userId: ownerId }, detail });
  });
  return {
    message: `Ownership of ${organization.name} transferred.`,
    organization_id: organizationId,
    owner_id: input.user_id,
    previous_owner_id: ownerId,
    previous_owner_role_name: 'Admin',
  };
}

/** The caller leaves the organization (their keys there are revoked); its owner cannot. */
export async function leaveOrganization(
  db: Conn,
  organizationId: number,
  userId: string,
  confirmName: string,
  now: Date,
  actor?: AuditActor,
): Promise<{ message: string }> {
  const organization = await confirmedOrganization(db, organizationId, confirmName);
  const membership = await findMembership(db, organizationId, userId);
  if (!membership) throw notFoundError('Organization not found.');
  if (organization.owner_id === userId || membership.role_id === ROLE_IDS.Owner) {
    throw conflictError(`You are the owner of ${organization.name}, and an organization needs its owner. ${ownerWayOut(organizationId)}`);
  }
  await removeMembership(db, membership.id, now, async (tx) =>
    recordAudit(tx, {
      workspace: { organizationId },
      actor: actor ?? { userId, keyId: null },
      action: 'member.left',
      target: memberTarget(await findUser(tx, userId), userId),
      at: now,
    }),
  );
  return { message: `You left ${organization.name}.` };
}

/**
 * Deletes the organization and everything in it in one transaction (the summary counted inside it is
 * what went). Returns the cleanup of stored files and cloned voices, to run after the commit as account
 * deletion does.
 */
export async function deleteOrganization(
  deps: Pick<Deps, 'db' | 'storage' | 'voiceProviders'>,
  organizationId: number,
  confirmName: string,
): Promise<{ deleted: OrganizationDeletionSummary; cleanup: (() => Promise<void>) | undefined }> {
  await confirmedOrganization(deps.db, organizationId, confirmName);
  return deps.db.transaction().execute(async (tx) => {
    const deleted = await organizationDeletionSummary(tx, organizationId);
    // An organization scope names no user: its rows are the organization's, whoever made them.
    const cleanup = await deleteAssistantsIn(tx, { userId: '', organizationId }, deps);
    await deleteOrganizationRow(tx, organizationId);
    return { deleted, cleanup };
  });
}

/**
 * Moves credits from the caller's personal balance to the organization, in one transaction: the personal
 * debit is one conditional update (so concurrent moves can never overdraw it) and both ledger rows name
 * each other's account. More than the balance is refused with 402 and nothing changes.
 */
export async function moveCreditsToOrganization(db: Conn, organizationId: number, userId: string, amount: number, now: Date) {
  const micros = toMicros(amount);
  return db.transaction().execute(async (tx) => {
    const personal = await accountOf(tx, { userId, organizationId: null });
    const organization = await accountOf(tx, { userId, organizationId });
    await chargeCredits(
      tx,
      personal.id,
      micros,
      'transfer_out',
      `organization:${organizationId}`,
      now,
      `You have ${fromMicros(personal.credits_micros)} personal credits; you cannot move ${fromMicros(micros)}. Move at most your balance.`,
    );
    await creditAccount(tx, organization.id, micros, 'transfer_in', `user:${userId}`, now);
    const after = await Promise.all([accountOf(tx, { userId, organizationId: null }), accountOf(tx, { userId, organizationId })]);
    return { moved: fromMicros(micros), personal_credits: fromMicros(after[0].credits_micros), organization_credits: fromMicros(after[1].credits_micros) };
  });
}
