import {
  CanDeleteAccountSchema,
  ClassificationSchema,
  CreateWithBusinessInfoInput,
  CreateWithBusinessInfoResponse,
  DeleteAccountInput,
  SetSpendingLimitResponse,
  SpendingLimitInput,
  SpendingLimitSchema,
} from '../account.ts';
import { MessageSchema } from '../common.ts';
import { ACCOUNT, SIGNED_IN, operation } from '../operation.ts';

export const createUserWithBusinessInfo = operation({
  method: 'POST',
  path: '/v0/user/create-with-business-info',
  operationId: 'createUserWithBusinessInfo',
  summary: 'Create a user with a business classification, or classify your own account (email null)',
  tag: 'user',
  access: ACCOUNT,
  body: CreateWithBusinessInfoInput,
  response: CreateWithBusinessInfoResponse,
  errors: [400, 403, 422],
  idempotent: true,
});

export const getClassification = operation({
  method: 'GET',
  path: '/v0/user/classification',
  operationId: 'getClassification',
  summary: 'Your account type and business details as last saved (null before you classify the account)',
  description: 'The read side of POST /v0/user/create-with-business-info with email null. Business details are account data: organization keys are refused (403).',
  tag: 'user',
  extension: true,
  access: ACCOUNT,
  response: ClassificationSchema,
  errors: [403],
});

export const getSpendingLimit = operation({
  method: 'GET',
  path: '/v0/user/spending-limit',
  operationId: 'getSpendingLimit',
  summary: 'Your monthly spending cap for personal usage (null = no limit)',
  tag: 'user',
  extension: true,
  access: SIGNED_IN,
  response: SpendingLimitSchema,
});

export const setSpendingLimit = operation({
  method: 'PUT',
  path: '/v0/user/spending-limit',
  operationId: 'setSpendingLimit',
  summary: 'Set your monthly spending cap; personal assistants above it are capped',
  tag: 'user',
  access: ACCOUNT,
  body: SpendingLimitInput,
  response: SetSpendingLimitResponse,
  errors: [403, 422],
});

export const canDeleteAccount = operation({
  method: 'GET',
  path: '/v0/user/can-delete-account',
  operationId: 'canDeleteAccount',
  summary: 'Whether your account can be deleted now, and what blocks it',
  tag: 'user',
  access: SIGNED_IN,
  response: CanDeleteAccountSchema,
});

export const deleteAccount = operation({
  method: 'DELETE',
  path: '/v0/user/delete-account',
  operationId: 'deleteAccount',
  summary: 'Delete your account: personal data, files and keys (refused while blockers exist)',
  tag: 'user',
  extension: true,
  access: ACCOUNT,
  body: DeleteAccountInput,
  response: MessageSchema,
  errors: [400, 403, 409, 422],
});
