import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies: an empty body is "no body" (clients send Content-Type: application/json on every call,
 * GET and DELETE included); anything else must parse. Prototype keys are harmless here because every
 * body goes through a zod object schema, which keeps only the fields it declares.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      const error = err as Error & { statusCode?: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
}
