import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { health } from '../../../shared/operations/system.ts';
import { pingDatabase } from '../../db/connection.ts';
import { buildOpenApi } from '../../http/openapi.ts';
import { route } from '../../http/route.ts';
import pkg from '../../../../package.json' with { type: 'json' };

const require = createRequire(import.meta.url);
const VERSION: string = pkg.version;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Roster API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<main id="reference"></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// Kept in its own file so the page needs no inline script under the strict CSP.
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/v0/openapi.json', dom_id: '#reference', deepLinking: true, persistAuthorization: false, tryItOutEnabled: true });`;

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  route(app, health, async ({ deps }) => {
    await pingDatabase(deps.db);
    return { status: 'ok' as const, database: 'ok' as const, version: VERSION };
  });

  let document: unknown;
  app.get('/v0/openapi.json', async (_req, reply) => {
    document ??= buildOpenApi(app.routeRegistry, VERSION);
    return reply.header('Cache-Control', 'no-cache').send(document);
  });

  await app.register(fastifyStatic, {
    root: path.dirname(require.resolve('swagger-ui-dist/package.json')),
    prefix: '/docs/assets/',
    decorateReply: false,
    allowedPath: (p) => /^\/swagger-ui(-bundle\.js|\.css)$/.test(p),
  });
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  app.get('/docs/init.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(DOCS_INIT));
}
