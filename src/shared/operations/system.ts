import { PUBLIC, operation } from '../operation.ts';
import { HealthSchema } from '../users.ts';

export const health = operation({
  method: 'GET',
  path: '/v0/health',
  operationId: 'health',
  summary: 'Liveness and database check',
  tag: 'system',
  extension: true,
  access: PUBLIC,
  response: HealthSchema,
});
