import { AuditPageSchema, AuditQuery } from '../audit.ts';
import { ACCOUNT, inOrganization, operation } from '../operation.ts';
import { OrgPathParams } from '../organizations.ts';

// The audit log (issue 19). Reading an organization's log takes org:write, the permission that manages
// the organization (members, invites, keys): Owners and Admins have it, Members and Viewers get 403. An
// organization key reads it when its own permissions include org:write and its member is Owner or Admin.

export const listOrganizationAudit = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/audit',
  operationId: 'listOrganizationAudit',
  summary: 'The organization’s activity: every change, who made it and when, newest first (Owners and Admins: org:write)',
  description:
    'Filter by `actor` (a user id) and `action` (a dotted action such as `invite.sent`). Pages are keyset-paginated: pass `next_cursor` as `cursor` for older events; a page never repeats or skips an event written meanwhile.',
  tag: 'audit',
  extension: true,
  access: inOrganization('org:write'),
  params: OrgPathParams,
  query: AuditQuery,
  response: AuditPageSchema,
  errors: [400, 403, 404],
});

export const listPersonalAudit = operation({
  method: 'GET',
  path: '/v0/user/audit',
  operationId: 'listPersonalAudit',
  summary: 'Your personal workspace’s activity (keys, assistants, projects, sign-outs…), newest first',
  description: 'Same filters and pagination as the organization’s log. An organization key is refused (403): use your personal key or a session.',
  tag: 'audit',
  extension: true,
  access: ACCOUNT,
  query: AuditQuery,
  response: AuditPageSchema,
  errors: [400, 403],
});
