import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account/routes.ts';
import { adminRoutes } from './admin/routes.ts';
import { assistantsRoutes } from './assistants/routes.ts';
import { auditRoutes } from './audit/routes.ts';
import { contextsRoutes } from './contexts/routes.ts';
import { creditsRoutes } from './credits/routes.ts';
import { invitesRoutes } from './invites/routes.ts';
import { keysRoutes } from './keys/routes.ts';
import { logsRoutes } from './logs/routes.ts';
import { organizationsRoutes } from './organizations/routes.ts';
import { projectsRoutes } from './projects/routes.ts';
import { customEndpointRoutes } from './custom-endpoints/routes.ts';
import { filesRoutes } from './files/routes.ts';
import { sessionsRoutes } from './sessions/routes.ts';
import { systemRoutes } from './system/routes.ts';
import { tilesRoutes } from './tiles/routes.ts';
import { usersRoutes } from './users/routes.ts';

/** Every feature module's routes. Add one line per module. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await systemRoutes(app);
  sessionsRoutes(app);
  usersRoutes(app);
  creditsRoutes(app);
  projectsRoutes(app);
  contextsRoutes(app);
  logsRoutes(app);
  tilesRoutes(app);
  organizationsRoutes(app);
  invitesRoutes(app);
  accountRoutes(app);
  adminRoutes(app);
  keysRoutes(app);
  customEndpointRoutes(app);
  await assistantsRoutes(app);
  filesRoutes(app);
  auditRoutes(app);
}
