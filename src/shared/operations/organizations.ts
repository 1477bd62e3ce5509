import { z } from 'zod';
import { inOrganization, inScope, operation, SIGNED_IN } from '../operation.ts';
import {
  AddedMemberSchema,
  AddMemberInput,
  ChangeRoleInput,
  CreatedOrganizationSchema,
  CreateOrganizationInput,
  CreditsMovedSchema,
  DeleteOrganizationInput,
  LeaveOrganizationInput,
  MoveCreditsInput,
  OrganizationDeletedSchema,
  OrganizationDeletionSchema,
  OwnershipTransferredSchema,
  TransferOwnershipInput,
  MemberListSchema,
  MemberPathParams,
  MemberSchema,
  OrganizationListSchema,
  OrgPathParams,
  RoleListSchema,
} from '../organizations.ts';

// Organizations and their members. Operations on an organization of the path check the caller's role
// there (inOrganization), whichever key is used.

export const createOrganization = operation({
  method: 'POST',
  path: '/v0/organizations',
  operationId: 'createOrganization',
  summary: 'Create an organization (the caller becomes its Owner and gets an organization key)',
  tag: 'organizations',
  extension: true,
  access: SIGNED_IN,
  body: CreateOrganizationInput,
  response: CreatedOrganizationSchema,
  status: 201,
  errors: [422],
});

export const listOrganizations = operation({
  method: 'GET',
  path: '/v0/organizations',
  operationId: 'listOrganizations',
  summary: 'The organizations the caller belongs to, with their role',
  tag: 'organizations',
  extension: true,
  access: SIGNED_IN,
  response: OrganizationListSchema,
});

/** A personal key holds every permission of its own scope, so it passes and lists no one. */
export const listMembers = operation({
  method: 'GET',
  path: '/v0/organizations/members',
  operationId: 'listMembers',
  summary: 'Members of the organization of the API key (a personal key lists none)',
  tag: 'organizations',
  access: inScope('org:read'),
  response: MemberListSchema,
  errors: [403],
});

export const listOrganizationMembers = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/members',
  operationId: 'listOrganizationMembers',
  summary: 'Members of an organization the caller belongs to',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:read'),
  params: OrgPathParams,
  response: MemberListSchema,
  errors: [403, 404],
});

export const addMember = operation({
  method: 'POST',
  path: '/v0/organizations/{organization_id}/members',
  operationId: 'addMember',
  summary: 'Add a member; their organization key is created and shown once',
  tag: 'organizations',
  access: inOrganization('org:write'),
  params: OrgPathParams,
  body: AddMemberInput,
  response: AddedMemberSchema,
  status: 201,
  errors: [400, 403, 404, 409, 422],
  idempotent: true,
});

export const changeMemberRole = operation({
  method: 'PATCH',
  path: '/v0/organizations/{organization_id}/members/{user_id}',
  operationId: 'changeMemberRole',
  summary: 'Change a member’s role (not the owner’s, and never to Owner)',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:write'),
  params: MemberPathParams,
  body: ChangeRoleInput,
  response: MemberSchema,
  errors: [400, 403, 404, 422],
});

export const removeMember = operation({
  method: 'DELETE',
  path: '/v0/organizations/{organization_id}/members/{user_id}',
  operationId: 'removeMember',
  summary: 'Remove a member and revoke their organization key (the owner cannot be removed)',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:write'),
  params: MemberPathParams,
  response: z.null().optional(),
  status: 204,
  errors: [400, 403, 404],
});

export const listRoles = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/roles',
  operationId: 'listRoles',
  summary: 'The roles of an organization and their permissions',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:read'),
  params: OrgPathParams,
  response: RoleListSchema,
  errors: [403, 404],
});

// Ownership (issue 19). What only the Owner may do to the organization as a whole (hand it over, delete
// it, fund it from their own balance) needs org:delete, the one permission Admins lack.

export const transferOwnership = operation({
  method: 'POST',
  path: '/v0/organizations/{organization_id}/transfer-ownership',
  operationId: 'transferOwnership',
  summary: 'Make another member the Owner; the previous owner becomes an Admin',
  description: 'confirm_name must be the organization’s name. The new owner must already be a member (404 otherwise).',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:delete'),
  params: OrgPathParams,
  body: TransferOwnershipInput,
  response: OwnershipTransferredSchema,
  errors: [400, 403, 404, 409],
});

export const leaveOrganization = operation({
  method: 'POST',
  path: '/v0/organizations/{organization_id}/leave',
  operationId: 'leaveOrganization',
  summary: 'Leave an organization; your organization keys there stop working',
  description: 'confirm_name must be the organization’s name. The owner cannot leave (409): transfer ownership or delete the organization first.',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:read'),
  params: OrgPathParams,
  body: LeaveOrganizationInput,
  response: z.object({ message: z.string() }),
  errors: [400, 403, 404, 409],
});

export const getOrganizationDeletion = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/deletion',
  operationId: 'getOrganizationDeletion',
  summary: 'What deleting the organization would remove, counted',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:delete'),
  params: OrgPathParams,
  response: OrganizationDeletionSchema,
  errors: [403, 404],
});

export const deleteOrganization = operation({
  method: 'DELETE',
  path: '/v0/organizations/{organization_id}',
  operationId: 'deleteOrganization',
  summary: 'Delete an organization with its members, keys, invites, assistants, projects and credits',
  description: 'confirm_name must be the organization’s name. Cannot be undone; GET …/deletion says what goes.',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:delete'),
  params: OrgPathParams,
  body: DeleteOrganizationInput,
  response: OrganizationDeletedSchema,
  errors: [400, 403, 404],
});

export const moveCreditsToOrganization = operation({
  method: 'POST',
  path: '/v0/organizations/{organization_id}/credits',
  operationId: 'moveCreditsToOrganization',
  summary: 'Move credits from your personal balance to an organization you own',
  description: 'Both balances change in one transaction; more than your personal balance is refused with 402.',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:delete'),
  params: OrgPathParams,
  body: MoveCreditsInput,
  response: CreditsMovedSchema,
  errors: [402, 403, 404],
});
