import { z } from 'zod';
import { inOrganization, inScope, operation, SIGNED_IN } from '../operation.ts';
import {
  AddedMemberSchema,
  AddMemberInput,
  ChangeRoleInput,
  CreatedOrganizationSchema,
  CreateOrganizationInput,
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
