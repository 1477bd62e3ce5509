import { CreditsSchema } from '../credits.ts';
import { inScope, operation } from '../operation.ts';

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
