import type { FastifyInstance } from 'fastify';
import { listOrganizationAudit, listPersonalAudit } from '../../../shared/operations/audit.ts';
import { route } from '../../http/route.ts';
import { auditPage } from './service.ts';

export function auditRoutes(app: FastifyInstance): void {
  route(app, listOrganizationAudit, ({ organization, query, deps }) => auditPage(deps.db, { organizationId: organization!.id }, query));

  route(app, listPersonalAudit, ({ principal, query, deps }) => auditPage(deps.db, { userId: principal.userId }, query));
}
