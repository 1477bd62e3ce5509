import type { FastifyInstance } from 'fastify';
import { ADMIN_PAGE_SIZE, type AdminListQuery } from '../../../shared/admin.ts';
import { disableUser, enableUser, grantCredits, listAdminOrganizations, listAdminUsers, listCreditGrants } from '../../../shared/operations/admin.ts';
import { route } from '../../http/route.ts';
import { findUser } from '../users/repository.ts';
import { listGrants, listOrganizations, listUsers, type PageRequest } from './repository.ts';
import { disableAccount, enableAccount, grantCredits as grant, toAdminOrganization, toAdminUser, toCreditGrant } from './service.ts';

const pageOf = (query: AdminListQuery): PageRequest => ({ search: query.search || undefined, page: query.page ?? 1, perPage: query.per_page ?? ADMIN_PAGE_SIZE });

export function adminRoutes(app: FastifyInstance): void {
  route(app, listAdminUsers, async ({ query, deps }) => {
    const request = pageOf(query);
    const { rows, total } = await listUsers(deps.db, request);
    return { items: rows.map(toAdminUser), total, page: request.page, per_page: request.perPage };
  });

  route(app, disableUser, ({ params, principal, deps }) => disableAccount(deps.db, principal.userId, params.user_id, deps.now()));

  route(app, enableUser, ({ params, deps }) => enableAccount(deps.db, params.user_id, deps.now()));

  route(app, listAdminOrganizations, async ({ query, deps }) => {
    const request = pageOf(query);
    const { rows, total } = await listOrganizations(deps.db, request);
    return { items: rows.map(toAdminOrganization), total, page: request.page, per_page: request.perPage };
  });

  route(app, listCreditGrants, async ({ query, deps }) => {
    const request = pageOf(query);
    const { rows, total } = await listGrants(deps.db, request);
    return { items: rows.map(toCreditGrant), total, page: request.page, per_page: request.perPage };
  });

  route(app, grantCredits, async ({ body, principal, deps }) => {
    const admin = await findUser(deps.db, principal.userId);
    const to = body.user_id !== undefined ? { userId: body.user_id } : { organizationId: body.organization_id! };
    return grant(deps.db, { label: admin?.email ?? principal.userId, userId: principal.userId }, to, body.amount, body.reason, deps.now());
  });
}
