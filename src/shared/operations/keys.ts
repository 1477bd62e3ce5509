import { z } from 'zod';
import {
  ApiKeySchema,
  CreatedOrganizationKeySchema,
  CreatedPersonalKeySchema,
  CreateOrganizationKeyInput,
  CreatePersonalKeyInput,
  KeyPathParams,
  OrganizationKeyPathParams,
  OrganizationKeySchema,
  RevokeAllKeysInput,
  RevokedAllKeysSchema,
} from '../keys.ts';
import { ACCOUNT, inOrganization, operation } from '../operation.ts';
import { OrgPathParams } from '../organizations.ts';

// The API keys page (issue 19) and "revoke all my keys" (issue 21). A person's own keys are account
// operations: an organization key is refused (403). Organization keys are managed by those whose role
// grants org:write (Admins and Owners), and a new key never gets more than its creator holds.

export const listPersonalKeys = operation({
  method: 'GET',
  path: '/v0/keys',
  operationId: 'listPersonalKeys',
  summary: 'Your personal API keys, newest first (revoked ones included; the keys themselves are never shown again)',
  tag: 'keys',
  extension: true,
  access: ACCOUNT,
  response: z.array(ApiKeySchema),
  errors: [403],
});

export const createPersonalKey = operation({
  method: 'POST',
  path: '/v0/keys',
  operationId: 'createPersonalKey',
  summary: 'Create a named personal API key: the answer is the only time it is shown',
  tag: 'keys',
  extension: true,
  access: ACCOUNT,
  body: CreatePersonalKeyInput,
  response: CreatedPersonalKeySchema,
  status: 201,
  errors: [403],
});

export const revokePersonalKey = operation({
  method: 'DELETE',
  path: '/v0/keys/{key_id}',
  operationId: 'revokePersonalKey',
  summary: 'Revoke one of your personal API keys (revoking a revoked key changes nothing)',
  tag: 'keys',
  extension: true,
  access: ACCOUNT,
  params: KeyPathParams,
  response: ApiKeySchema,
  errors: [403, 404],
});

export const revokeAllKeys = operation({
  method: 'POST',
  path: '/v0/keys/revoke-all',
  operationId: 'revokeAllKeys',
  summary: 'Revoke every key you hold, personal and organization ones, and get one new personal key',
  description:
    'For a key leaked to an unknown extent (the CLI’s `key revoke-all` does the same). `confirm` must be "revoke all my keys". Browser sessions stay signed in (end them with DELETE /v0/sessions). The new personal key is shown once.',
  tag: 'keys',
  extension: true,
  access: ACCOUNT,
  body: RevokeAllKeysInput,
  response: RevokedAllKeysSchema,
  errors: [400, 403],
});

export const listOrganizationKeys = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/keys',
  operationId: 'listOrganizationKeys',
  summary: 'The organization’s API keys, every member’s, newest first (revoked ones included)',
  tag: 'keys',
  extension: true,
  access: inOrganization('org:write'),
  params: OrgPathParams,
  response: z.array(OrganizationKeySchema),
  errors: [403, 404],
});

export const createOrganizationKey = operation({
  method: 'POST',
  path: '/v0/organizations/{organization_id}/keys',
  operationId: 'createOrganizationKey',
  summary: 'Create a named organization key with its own permissions: the answer is the only time it is shown',
  description:
    'The key acts as its creator in this organization only, with the lesser of its permissions and the creator’s current role. Asking for a permission the creator does not hold is refused (422).',
  tag: 'keys',
  extension: true,
  access: inOrganization('org:write'),
  params: OrgPathParams,
  body: CreateOrganizationKeyInput,
  response: CreatedOrganizationKeySchema,
  status: 201,
  errors: [403, 404],
});

export const revokeOrganizationKey = operation({
  method: 'DELETE',
  path: '/v0/organizations/{organization_id}/keys/{key_id}',
  operationId: 'revokeOrganizationKey',
  summary: 'Revoke one of the organization’s API keys (any member’s)',
  tag: 'keys',
  extension: true,
  access: inOrganization('org:write'),
  params: OrganizationKeyPathParams,
  response: OrganizationKeySchema,
  errors: [403, 404],
});
