import {
  AdminListQuery,
  AdminOrganizationListSchema,
  AdminUserListSchema,
  AdminUserPath,
  AdminUserSchema,
  CreditGrantInput,
  CreditGrantListSchema,
  CreditGrantSchema,
} from '../admin.ts';
import { INSTANCE_ADMIN, operation } from '../operation.ts';

// Instance administration (issue 19). Every operation here is for instance administrators only: anyone
// else, and any organization key, gets 403.

export const listAdminUsers = operation({
  method: 'GET',
  path: '/v0/admin/users',
  operationId: 'listAdminUsers',
  summary: 'Every person of the instance, searched by e-mail or name (instance administrators)',
  tag: 'admin',
  extension: true,
  access: INSTANCE_ADMIN,
  query: AdminListQuery,
  response: AdminUserListSchema,
  errors: [403],
});

export const disableUser = operation({
  method: 'POST',
  path: '/v0/admin/users/{user_id}/disable',
  operationId: 'disableUser',
  summary: 'Disable an account: its keys, sessions and sign-in links are refused at once (instance administrators)',
  description: 'An administrator cannot disable their own account (409). Disabling a disabled account changes nothing.',
  tag: 'admin',
  extension: true,
  access: INSTANCE_ADMIN,
  params: AdminUserPath,
  response: AdminUserSchema,
  errors: [403, 404, 409],
});

export const enableUser = operation({
  method: 'POST',
  path: '/v0/admin/users/{user_id}/enable',
  operationId: 'enableUser',
  summary: 'Enable a disabled account again (instance administrators)',
  tag: 'admin',
  extension: true,
  access: INSTANCE_ADMIN,
  params: AdminUserPath,
  response: AdminUserSchema,
  errors: [403, 404],
});

export const listAdminOrganizations = operation({
  method: 'GET',
  path: '/v0/admin/organizations',
  operationId: 'listAdminOrganizations',
  summary: 'Every organization of the instance with owner, member count and credits (instance administrators)',
  tag: 'admin',
  extension: true,
  access: INSTANCE_ADMIN,
  query: AdminListQuery,
  response: AdminOrganizationListSchema,
  errors: [403],
});

export const listCreditGrants = operation({
  method: 'GET',
  path: '/v0/admin/credit-grants',
  operationId: 'listCreditGrants',
  summary: 'Credit grants, newest first (instance administrators)',
  tag: 'admin',
  extension: true,
  access: INSTANCE_ADMIN,
  query: AdminListQuery,
  response: CreditGrantListSchema,
  errors: [403],
});

export const grantCredits = operation({
  method: 'POST',
  path: '/v0/admin/credit-grants',
  operationId: 'grantCredits',
  summary: 'Grant credits to a person or an organization, with a reason (instance administrators)',
  description: 'The balance and the grant record change in one transaction. Unknown recipient: 404.',
  tag: 'admin',
  extension: true,
  access: INSTANCE_ADMIN,
  body: CreditGrantInput,
  response: CreditGrantSchema,
  status: 201,
  errors: [403, 404],
});
