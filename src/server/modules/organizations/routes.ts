import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AddedMemberSchema,
  AddMemberInput,
  ChangeRoleInput,
  CreatedOrganizationSchema,
  CreateOrganizationInput,
  MemberListSchema,
  MemberPathParams,
  OrganizationListSchema,
  OrgPathParams,
  RoleListSchema,
} from '../../../shared/organizations.ts';
import { ROLE_IDS, roleById, roleByName, SYSTEM_ROLES } from '../../../shared/roles.ts';
import { requireKeyPermission, requireOrgPermission } from '../../auth/principal.ts';
import { badRequest, conflict, invalid, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { startMailWorker } from '../../mail/worker.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import {
  createOrganization,
  findMembership,
  insertMembership,
  listMembers,
  listOrganizationsOf,
  removeMembership,
} from './repository.ts';

const OWNER_VIA_ROLE = 'Cannot assign Owner role via invite. Use ownership transfer instead.';

/** Resolves role_id / role_name (role_id wins) to a system role; unknown → 422; Owner → 400. */
export function resolveAssignableRole(
  roleId: number | undefined,
  roleName: string | undefined,
  ownerMessage = OWNER_VIA_ROLE,
): number {
  let id: number = ROLE_IDS.Member;
  if (roleId !== undefined) {
    if (!roleById(roleId)) throw invalid(['body', 'role_id'], `Unknown role ${roleId}. Roles are 1 Owner, 2 Admin, 3 Member, 4 Viewer.`);
    id = roleId;
  } else if (roleName !== undefined) {
    const role = roleByName(roleName);
    if (!role) throw invalid(['body', 'role_name'], `Unknown role "${roleName}". Roles are Owner, Admin, Member, Viewer.`);
    id = role.id;
  }
  if (id === ROLE_IDS.Owner) throw badRequest(ownerMessage);
  return id;
}

export function organizationsRoutes(app: FastifyInstance): void {
  if (app.deps.config.mailWorker) {
    let stop: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      stop = startMailWorker({ ...app.deps, log: app.log });
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });
  }

  route(app, {
    method: 'POST',
    url: '/v0/organizations',
    operationId: 'createOrganization',
    summary: 'Create an organization (the caller becomes its Owner and gets an organization key)',
    tag: 'organizations',
    extension: true,
    body: CreateOrganizationInput,
    response: CreatedOrganizationSchema,
    status: 201,
    errors: [422],
    handler: async ({ body, principal, deps }) => {
      const { organizationId, apiKey, createdAt } = await createOrganization(deps.db, principal.userId, body.name, deps.now());
      return { id: organizationId, name: body.name, owner_id: principal.userId, created_at: createdAt, api_key: apiKey };
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/organizations',
    operationId: 'listOrganizations',
    summary: 'The organizations the caller belongs to, with their role',
    tag: 'organizations',
    extension: true,
    response: OrganizationListSchema,
    handler: async ({ principal, deps }) => ({ organizations: await listOrganizationsOf(deps.db, principal.userId) }),
  });

  route(app, {
    method: 'GET',
    url: '/v0/organizations/members',
    operationId: 'listMembers',
    summary: 'Members of the organization of the API key (a personal key lists none)',
    tag: 'organizations',
    response: MemberListSchema,
    errors: [403],
    handler: async ({ principal, deps }) => {
      if (principal.organizationId === null) return [];
      requireKeyPermission(principal, 'org:read');
      return listMembers(deps.db, principal.organizationId);
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/organizations/{organization_id}/members',
    operationId: 'listOrganizationMembers',
    summary: 'Members of an organization the caller belongs to',
    tag: 'organizations',
    extension: true,
    params: OrgPathParams,
    response: MemberListSchema,
    errors: [403, 404],
    handler: async ({ params, principal, deps }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:read');
      return listMembers(deps.db, params.organization_id);
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/organizations/{organization_id}/members',
    operationId: 'addMember',
    summary: 'Add a member; their organization key is created and shown once',
    tag: 'organizations',
    params: OrgPathParams,
    body: AddMemberInput,
    response: AddedMemberSchema,
    status: 201,
    errors: [400, 403, 404, 409, 422],
    idempotent: true,
    handler: async ({ params, body, principal, deps, idempotency }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:write');
      const roleId = resolveAssignableRole(body.role_id, undefined, 'Cannot assign Owner role to a new member. Use ownership transfer instead.');
      const user = await deps.db.selectFrom('users').select('id').where('id', '=', body.user_id).executeTakeFirst();
      if (!user) throw notFound(`User ${body.user_id} not found.`);
      if (await findMembership(deps.db, params.organization_id, body.user_id)) {
        throw conflict('User is already a member of this organization.');
      }
      try {
        return await idempotency.transaction(deps.db, async (tx) => {
          const { apiKey } = await insertMembership(tx, params.organization_id, body.user_id, roleId, deps.now());
          return { message: 'Member added successfully', user_id: body.user_id, api_key: apiKey };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('User is already a member of this organization.');
        throw error;
      }
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/v0/organizations/{organization_id}/members/{user_id}',
    operationId: 'changeMemberRole',
    summary: 'Change a member’s role (not the owner’s, and never to Owner)',
    tag: 'organizations',
    extension: true,
    params: MemberPathParams,
    body: ChangeRoleInput,
    response: MemberListSchema.element,
    errors: [400, 403, 404, 422],
    handler: async ({ params, body, principal, deps }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:write');
      const roleId = resolveAssignableRole(body.role_id, body.role_name, 'Cannot assign Owner role. Use ownership transfer instead.');
      const membership = await findMembership(deps.db, params.organization_id, params.user_id);
      if (!membership) throw notFound('Member not found.');
      if (membership.role_id === ROLE_IDS.Owner) throw badRequest('The owner’s role cannot be changed.');
      await deps.db.updateTable('memberships').set({ role_id: roleId }).where('id', '=', membership.id).execute();
      const members = await listMembers(deps.db, params.organization_id);
      return members.find((m) => m.id === membership.id)!;
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/organizations/{organization_id}/members/{user_id}',
    operationId: 'removeMember',
    summary: 'Remove a member and revoke their organization key (the owner cannot be removed)',
    tag: 'organizations',
    extension: true,
    params: MemberPathParams,
    response: z.null().optional(),
    status: 204,
    errors: [400, 403, 404],
    handler: async ({ params, principal, deps }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:write');
      const membership = await findMembership(deps.db, params.organization_id, params.user_id);
      if (!membership) throw notFound('Member not found.');
      if (membership.role_id === ROLE_IDS.Owner) throw badRequest('The owner cannot be removed from the organization.');
      await removeMembership(deps.db, membership.id, deps.now());
      return undefined;
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/organizations/{organization_id}/roles',
    operationId: 'listRoles',
    summary: 'The roles of an organization and their permissions',
    tag: 'organizations',
    extension: true,
    params: OrgPathParams,
    response: RoleListSchema,
    errors: [403, 404],
    handler: async ({ params, principal, deps }) => {
      await requireOrgPermission(deps.db, principal, params.organization_id, 'org:read');
      return { roles: SYSTEM_ROLES.map((r) => ({ id: r.id, name: r.name, permissions: [...r.permissions] })) };
    },
  });
}
