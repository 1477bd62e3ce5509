import { InfoString } from '../common.ts';
import {
  CreditsSchema,
  DeductCreditsInput,
  DeductCreditsResponse,
  SPENDING_NOTICE_MAX_BYTES,
  SpendAssistantParams,
  SpendingLimitReachedInput,
  SpendMemberParams,
  SpendQuery,
  SpendSchema,
} from '../credits.ts';
import { OrgPathParams } from '../organizations.ts';
import { inOrganization, inScope, operation, SIGNED_IN } from '../operation.ts';

// Credits and spend (logs-api.md §9). A charge is recorded in the credit ledger with its category; spend
// is the sum of a month's charges (UTC calendar month, `?month=YYYY-MM`, this month when omitted).

export const getCredits = operation({
  method: 'GET',
  path: '/v0/credits',
  operationId: 'getCredits',
  summary: 'Credit balance of the key’s scope',
  tag: 'credits',
  extension: true,
  access: inScope('billing:read'),
  response: CreditsSchema,
  errors: [403],
});

export const deductCredits = operation({
  method: 'POST',
  path: '/v0/credits/deduct',
  operationId: 'deductCredits',
  summary: 'Deduct credits from the key’s account (the balance may go below zero); recorded as a charge',
  description:
    'Deducts from the account of the caller’s scope (billing:write): a personal key or a session the person’s, an organization key (or X-Roster-Organization) the organization’s. ' +
    '`organization_id` names an organization the caller belongs to with billing:write (not a member → 404, without the permission → 403; an organization key only its own). ' +
    '`user_id` must be the caller (anyone else → 403); the charge is attributed to the caller either way. `assistant_id` must be an assistant of the account charged (404 otherwise). ' +
    '`description` and `detail` are optional. The balance change and its ledger row are one transaction; concurrent deductions all count. Honours Idempotency-Key.',
  tag: 'credits',
  extension: true,
  access: inScope('billing:write'),
  body: DeductCreditsInput,
  response: DeductCreditsResponse,
  errors: [403, 404, 422],
  idempotent: true,
});

export const getUserSpend = operation({
  method: 'GET',
  path: '/v0/user/spend',
  operationId: 'getUserSpend',
  summary: 'A month’s spend of your personal account',
  description: 'Charges to the person’s own account, whatever key asks (organization spend: GET /v0/organizations/{organization_id}/spend).',
  tag: 'user',
  extension: true,
  access: SIGNED_IN,
  query: SpendQuery,
  response: SpendSchema,
  errors: [422],
});

export const getAssistantSpend = operation({
  method: 'GET',
  path: '/v0/assistant/{assistant_id}/spend',
  operationId: 'getAssistantSpend',
  summary: 'A month’s spend on one assistant of the key’s scope (its hire, and deductions naming it)',
  tag: 'assistants',
  extension: true,
  access: inScope('billing:read'),
  params: SpendAssistantParams,
  query: SpendQuery,
  response: SpendSchema,
  errors: [403, 404, 422],
});

export const getOrganizationSpend = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/spend',
  operationId: 'getOrganizationSpend',
  summary: 'A month’s spend of an organization (Owner and Admin)',
  description: 'billing:write, which Owner and Admin have: members see the balance (billing:read), not what was spent on what.',
  tag: 'organizations',
  extension: true,
  access: inOrganization('billing:write'),
  params: OrgPathParams,
  query: SpendQuery,
  response: SpendSchema,
  errors: [403, 404, 422],
});

export const getMemberSpend = operation({
  method: 'GET',
  path: '/v0/organizations/{organization_id}/members/{user_id}/spend',
  operationId: 'getMemberSpend',
  summary: 'A month’s charges to an organization made by one member (Owner and Admin, or the member)',
  description: 'Any member may read their own; anyone else’s needs billing:write (403). Someone who is not a member → 404.',
  tag: 'organizations',
  extension: true,
  access: inOrganization('org:read'),
  params: SpendMemberParams,
  query: SpendQuery,
  response: SpendSchema,
  errors: [403, 404, 422],
});

export const notifySpendingLimitReached = operation({
  method: 'POST',
  path: '/v0/user/spending-limit-reached',
  operationId: 'notifySpendingLimitReached',
  summary: 'Report that a spending limit was reached: recorded in the audit log of the caller’s workspace, e-mailed to its billing managers',
  description:
    'The body is any JSON object (at most 16 KiB) and is kept as the event’s detail (action `spending_limit.reached`), in the organization’s log for an organization key or X-Roster-Organization, else the person’s. The workspace’s billing managers (the person; an organization’s Owner and Admins) are e-mailed, each at most once per UTC day, quoting the first 500 characters of the report. No key or assistant is stopped.',
  tag: 'user',
  extension: true,
  access: SIGNED_IN,
  body: SpendingLimitReachedInput,
  bodyLimit: SPENDING_NOTICE_MAX_BYTES,
  response: InfoString,
  errors: [413, 422],
});
