import type { FastifyInstance } from 'fastify';
import {
  checkpointTile,
  createInterface,
  createTab,
  createTile,
  deleteInterface,
  deleteTab,
  deleteTile,
  exportTileTemplate,
  importTileTemplate,
  listInterfaces,
  updateTile,
} from '../../../shared/operations/tiles.ts';
import { scopeOf } from '../../auth/principal.ts';
import { route } from '../../http/route.ts';
import * as dashboards from './service.ts';
import { exportTemplate, importTemplate } from './transfer-service.ts';
import './starter.ts';

export function tilesRoutes(app: FastifyInstance): void {
  route(app, exportTileTemplate, ({ principal, deps, body }) => exportTemplate(deps, principal, body));

  route(app, importTileTemplate, ({ principal, deps, body, idempotency }) => importTemplate(deps, principal, body, (tx, response) => idempotency.record(tx, response)));

  route(app, listInterfaces, async ({ principal, deps, params }) => ({
    info: await dashboards.interfacesOf(deps.db, scopeOf(principal), params.project_name),
  }));

  route(app, createInterface, async ({ principal, deps, params, body }) => ({
    info: await dashboards.createInterface(deps.db, scopeOf(principal), params.project_name, body.name, deps.now()),
  }));

  route(app, deleteInterface, async ({ principal, deps, params }) => {
    await dashboards.deleteInterface(deps.db, scopeOf(principal), params.id);
    return { info: 'Interface deleted successfully.' };
  });

  route(app, createTab, async ({ principal, deps, params, body }) => ({
    info: await dashboards.createTab(deps.db, scopeOf(principal), params.id, body.name, deps.now()),
  }));

  route(app, deleteTab, async ({ principal, deps, params }) => {
    await dashboards.deleteTab(deps.db, scopeOf(principal), params.id);
    return { info: 'Tab deleted successfully.' };
  });

  route(app, createTile, async ({ principal, deps, params, body }) => ({
    info: await dashboards.createTile(deps.db, scopeOf(principal), params.id, body, principal.userId, deps.now()),
  }));

  route(app, updateTile, async ({ principal, deps, params, body }) => ({
    info: await dashboards.changeTile(deps.db, scopeOf(principal), params.id, body, deps.now()),
  }));

  route(app, deleteTile, async ({ principal, deps, params }) => {
    await dashboards.deleteTile(deps.db, scopeOf(principal), params.id);
    return { info: 'Tile deleted successfully.' };
  });

  route(app, checkpointTile, async ({ principal, deps, params }) => ({
    info: await dashboards.checkpointTile(deps.db, scopeOf(principal), params.id, deps.now()),
  }));
}
