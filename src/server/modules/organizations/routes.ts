import type { FastifyInstance } from 'fastify';
import {
  addMember,
  changeMemberRole,
  createOrganization,
  deleteOrganization,
  getOrganizationDeletion,
  leaveOrganization,
  listMembers,
  listOrganizationMembers,
  listOrganizations,
  listRoles,
  moveCreditsToOrganization,
  removeMember,
  transferOwnership,
} from '../../../shared/operations/organizations.ts';
import { SYSTEM_ROLES } from '../../../shared/roles.ts';
import { route } from '../../http/route.ts';
import { startMailWorker } from '../../mail/worker.ts';
import * as organizations from './repository.ts';
import * as service from './service.ts';

export function organizationsRoutes(app: FastifyInstance): void {
  if (app.deps.config.mailWorker) {
    let stop: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      stop = startMailWorker({ ...app.deps, log: app.log });
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });
  }

  route(app, createOrganization, async ({ body, principal, deps }) => {
    const { organizationId, apiKey, createdAt } = await service.createOrganization(deps.db, principal.userId, body.name, deps.now(), principal);
    return { id: organizationId, name: body.name, owner_id: principal.userId, created_at: createdAt, api_key: apiKey };
  });

  route(app, listOrganizations, async ({ principal, deps }) => ({
    organizations: await organizations.listOrganizationsOf(deps.db, principal.userId),
  }));

  route(app, listMembers, ({ principal, deps }) => (principal.organizationId === null ? [] : organizations.listMembers(deps.db, principal.organizationId)));

  route(app, listOrganizationMembers, ({ organization, deps }) => organizations.listMembers(deps.db, organization!.id));

  route(app, addMember, ({ organization, body, principal, deps, idempotency }) =>
    service.addMember(deps.db, organization!.id, body, deps.now(), (tx, added) => idempotency.record(tx, added), principal),
  );

  route(app, changeMemberRole, ({ organization, params, body, principal, deps }) =>
    service.changeMemberRole(deps.db, organization!.id, params.user_id, body, principal, deps.now()),
  );

  route(app, removeMember, async ({ organization, params, principal, deps }) => {
    await service.removeMember(deps.db, organization!.id, params.user_id, deps.now(), principal);
    return undefined;
  });

  route(app, listRoles, () => ({ roles: SYSTEM_ROLES.map((r) => ({ id: r.id, name: r.name, permissions: [...r.permissions] })) }));

  route(app, transferOwnership, ({ organization, principal, body, deps }) =>
    service.transferOwnership(deps.db, organization!.id, principal.userId, body, principal, deps.now()),
  );

  route(app, leaveOrganization, ({ organization, principal, body, deps }) =>
    service.leaveOrganization(deps.db, organization!.id, principal.userId, body.confirm_name, deps.now(), principal),
  );

  route(app, getOrganizationDeletion, async ({ organization, deps }) => ({
    organization_id: organization!.id,
    name: organization!.name,
    deletes: await organizations.organizationDeletionSummary(deps.db, organization!.id),
  }));

  route(app, deleteOrganization, async ({ req, organization, body, deps }) => {
    const { deleted, cleanup } = await service.deleteOrganization(deps, organization!.id, body.confirm_name);
    // The organization is gone; a file that fails to go is logged, never turned into an error.
    await cleanup?.().catch((err: unknown) => req.log.warn({ err }, 'cleanup after organization deletion failed'));
    return { message: `Organization ${organization!.name} deleted.`, deleted };
  });

  route(app, moveCreditsToOrganization, ({ organization, principal, body, deps }) =>
    service.moveCreditsToOrganization(deps.db, organization!.id, principal.userId, body.amount, deps.now()),
  );
}
