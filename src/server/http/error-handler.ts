import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, InvalidFieldsError, type DomainErrorKind } from '../domain-errors.ts';
import { HttpError } from './errors.ts';
import { StorageUnavailableError } from '../storage/storage.ts';
import type { RouteRegistry } from './route.ts';
import { toFastifyPath } from './route.ts';

function routeMatcher(url: string): RegExp {
  const pattern = toFastifyPath(url)
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

/** Methods registered for a concrete path, so a wrong method answers 405 rather than 404. */
export function allowedMethods(routes: RouteRegistry, path: string): string[] {
  return routes.filter((r) => routeMatcher(r.path).test(path)).map((r) => r.method);
}

const STATUS_OF: Record<DomainErrorKind, number> = {
  'bad-request': 400,
  'insufficient-credits': 402,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'unsupported-type': 415,
  'invalid-field': 422,
  'rate-limited': 429,
  unavailable: 503,
};

/** The HTTP answer of a domain error (domain-errors.ts). */
export function httpErrorOf(error: DomainError): HttpError {
  if (error instanceof InvalidFieldsError) return new HttpError(422, error.issues, {}, error.extra);
  if (error.kind === 'invalid-field') return new HttpError(422, [{ type: 'value_error', loc: error.field, msg: error.message }]);
  const headers: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) };
  return new HttpError(STATUS_OF[error.kind], error.message, headers);
}

/** One place turns every error into the `{detail}` shapes of semantics.md §1. */
export function installErrorHandling(app: FastifyInstance, fallback?: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | undefined): void {
  app.setErrorHandler((caught: FastifyError | HttpError | DomainError, req, reply) => {
    const error = caught instanceof DomainError ? httpErrorOf(caught) : caught;
    if (error instanceof HttpError) {
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ ...error.extra, detail: error.detail });
    }
    if (error instanceof StorageUnavailableError) {
      req.log.warn({ err: error }, 'file storage unavailable');
      return reply.code(503).header('Retry-After', '5').send({ detail: 'File storage is unavailable right now. Retry in a few seconds.' });
    }
    const code = (error as FastifyError).code;
    const status = (error as FastifyError).statusCode ?? 500;
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && status === 400)) {
      return reply.code(422).send({
        detail: [{ type: 'json_invalid', loc: ['body'], msg: `JSON decode error: ${error.message}` }],
      });
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      return reply.code(413).send({ detail: 'Request body is too large.' });
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      // Every body is JSON but an upload's (multipart/form-data, on the two upload routes only).
      return reply
        .code(415)
        .send({ detail: `Unsupported content type: ${req.headers['content-type'] ?? 'none'}. Send the body as application/json (an upload as multipart/form-data).` });
    }
    if (code === 'FST_ERR_RATE_LIMITED' || status === 429) {
      return reply.code(429).send({ detail: 'Too many requests. Wait before retrying.' });
    }
    if (status >= 400 && status < 500) {
      // Other client errors raised by Fastify or a plugin: keep the status, never the internals.
      return reply.code(status).send({ detail: error.message || 'Bad request.' });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });

  app.setNotFoundHandler((req, reply) => {
    const handled = fallback?.(req, reply);
    if (handled) return handled;
    const path = req.url.split('?')[0];
    const allowed = allowedMethods(app.routeRegistry, path);
    if (allowed.length > 0) {
      return reply.code(405).header('Allow', allowed.join(', ')).send({ detail: 'Method Not Allowed' });
    }
    return reply.code(404).send({ detail: 'Not Found' });
  });
}
