import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { ORGANIZATION_HEADER } from '../../shared/workspace-header.ts';

/**
 * CORS for configured origins only (ROSTER_CORS_ORIGINS), by @fastify/cors: a dashboard served elsewhere
 * may call this API with a bearer key. The session cookie is for the dashboard on this origin only:
 * credentials are never allowed cross-origin, and X-Roster-CSRF is not an allowed header, so no other
 * origin's script can make a cookie request that passes the CSRF check (auth/session-cookie.ts). A preflight
 * (OPTIONS under /v0/) from any other origin is refused with 403; other requests from it simply get no
 * CORS headers. Install it after the security headers: a preflight is answered from this hook.
 */
export async function installCors(app: FastifyInstance, origins: string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  const allowAll = allowed.has('*');
  const isAllowed = (origin: string | undefined): origin is string => !!origin && (allowAll || allowed.has(origin));
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method === 'OPTIONS' && req.url.startsWith('/v0/') && !isAllowed(req.headers.origin)) reply.code(403).send({ detail: 'Origin not allowed.' });
    else done();
  });
  await app.register(cors, {
    delegator: (req, done) => {
      const origin = req.headers.origin;
      const ok = isAllowed(origin);
      const api = req.url.startsWith('/v0/');
      done(null, {
        origin: ok ? (allowAll ? '*' : origin) : false,
        preflight: api,
        strictPreflight: false,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', ORGANIZATION_HEADER],
        exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Content-Disposition', 'Idempotent-Replayed'],
        maxAge: 600,
      });
    },
  });
}
