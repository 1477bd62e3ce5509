import type { FastifyInstance } from 'fastify';

/**
 * CORS for configured origins only (ROSTER_CORS_ORIGINS): a dashboard served elsewhere may call this
 * API with a bearer key. No cookies are used, so credentials are never allowed.
 */
export function installCors(app: FastifyInstance, origins: string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  const allowAll = allowed.has('*');
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (!origin || !(allowAll || allowed.has(origin))) return;
    reply.header('Access-Control-Allow-Origin', allowAll ? '*' : origin);
    reply.header('Vary', 'Origin');
    reply.header('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, Content-Disposition, Idempotent-Replayed');
  });
  app.options('/v0/*', async (req, reply) => {
    const origin = req.headers.origin;
    if (!origin || !(allowAll || allowed.has(origin))) return reply.code(403).send({ detail: 'Origin not allowed.' });
    return reply
      .code(204)
      .header('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE')
      .header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key')
      .header('Access-Control-Max-Age', '600')
      .send();
  });
}
