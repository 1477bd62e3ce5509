import type { FastifyInstance } from 'fastify';
import {
  createOrganizationKey,
  createPersonalKey,
  listOrganizationKeys,
  listPersonalKeys,
  revokeAllKeys,
  revokeOrganizationKey,
  revokePersonalKey,
} from '../../../shared/operations/keys.ts';
import { route } from '../../http/route.ts';
import * as keys from './repository.ts';
import * as service from './service.ts';

export function keysRoutes(app: FastifyInstance): void {
  route(app, listPersonalKeys, ({ principal, deps }) => keys.listPersonalKeys(deps.db, principal.userId));

  route(app, createPersonalKey, ({ principal, body, deps }) => service.createPersonalKey(deps.db, principal.userId, body.name, deps.now(), principal));

  route(app, revokePersonalKey, ({ principal, params, deps }) => service.revokePersonalKey(deps.db, principal.userId, params.key_id, deps.now(), principal));

  route(app, revokeAllKeys, ({ principal, body, deps }) => service.revokeAllKeysConfirmed(deps.db, principal.userId, body.confirm, deps.now(), principal));

  route(app, listOrganizationKeys, ({ organization, deps }) => keys.listOrganizationKeys(deps.db, organization!.id));

  route(app, createOrganizationKey, ({ principal, organization, body, deps }) => service.createOrganizationKey(deps.db, principal, organization!, body, deps.now()));

  route(app, revokeOrganizationKey, ({ organization, params, principal, deps }) =>
    service.revokeOrganizationKey(deps.db, organization!.id, params.key_id, deps.now(), principal),
  );
}
