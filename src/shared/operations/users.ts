import { SIGNED_IN, operation } from '../operation.ts';
import { BasicInfoSchema } from '../users.ts';

export const getBasicInfo = operation({
  method: 'GET',
  path: '/v0/user/basic-info',
  operationId: 'getBasicInfo',
  summary: 'Basic information for the authenticated user, and what the key in use opens',
  tag: 'user',
  access: SIGNED_IN,
  response: BasicInfoSchema,
});
