import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnyOperation, HandlerResult, ParsedBody, ParsedParams, ParsedQuery } from '../../shared/operation.ts';
import { actInOrganization, authenticate, authenticateSession, authorize, type OrganizationAccess, type Principal } from '../auth/principal.ts';
import { checkSameOrigin, clearedSessionCookie, sessionCookieOf, setSessionCookie } from '../auth/session-cookie.ts';
import { idleExpiryOf, touchSession } from '../auth/session-repository.ts';
import type { Deps } from '../deps.ts';
import { ORGANIZATION_HEADER } from '../../shared/workspace-header.ts';
import { RawJson } from './raw-json.ts';
import { badRequest, HttpError } from './errors.ts';
import { parseOr422 } from './validation.ts';
import { validQueries } from './kept-queries.ts';
import { canonicalJson } from '../canonical-json.ts';
import { idempotencyKeyOf, IdempotentRequest, jsonFingerprint, NO_IDEMPOTENCY, sendReplay, type IdempotencyHooks } from './idempotency.ts';

export interface HandlerContext<O extends AnyOperation> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: ParsedBody<O>;
  query: ParsedQuery<O>;
  params: ParsedParams<O>;
  /** The caller; null only for public operations. */
  principal: O['access'] extends { kind: 'public' } ? null : Principal;
  /** For `organization` access: the organization of the path and the caller's role in it. */
  organization: OrganizationAccess | null;
  deps: Deps;
  /** The request's Idempotency-Key (no-ops without one); see http/idempotency.ts. */
  idempotency: IdempotencyHooks;
}

export type Handler<O extends AnyOperation> = (ctx: HandlerContext<O>) => Promise<HandlerResult<O> | RawJson | undefined> | HandlerResult<O> | RawJson | undefined;

/** The operations registered on an app, for the 405 check and the registration test. */
export type RouteRegistry = AnyOperation[];

/**
 * Authenticates and counts the request: a bearer key when the request has an Authorization header,
 * otherwise the session cookie (which must pass the same-origin checks when the method could change
 * something, and is renewed on use). Counted against the key's or session's limit when valid, against
 * the address's limit when not (so guessing keys is throttled too).
 */
async function authenticateLimited(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const cookie = req.headers.authorization === undefined ? sessionCookieOf(req, deps.config) : null;
  const now = deps.now();
  let principal: Principal;
  try {
    principal = cookie === null ? await authenticate(deps.db, req.headers.authorization, now, req.socket) : await authenticateSession(deps.db, cookie, now, req.socket);
  } catch (error) {
    await deps.rateLimiter.consume('ip', req.ip, reply, now);
    if (cookie !== null && error instanceof HttpError)
      throw new HttpError(error.status, error.detail, { ...error.headers, 'Set-Cookie': clearedSessionCookie(req, deps.config) }, error.extra);
    throw error;
  }
  if (principal.session) {
    await deps.rateLimiter.consume('session', principal.session.id_hash, reply, now);
    checkSameOrigin(req, deps.config);
    const renewal = touchSession(deps.db, principal.session, now);
    // The same principal while the session is not renewed (answers made for it are kept: users/routes.ts).
    if (renewal === null) return principal;
    const row = await renewal;
    setSessionCookie(req, reply, deps.config, cookie!, (idleExpiryOf(row).getTime() - now.getTime()) / 1000);
    return Object.freeze({ ...principal, session: row });
  }
  await deps.rateLimiter.consume('key', String(principal.keyId), reply, now);
  return principal;
}

/** Node's name for it among a request's headers (lowercased once, not per request). */
const ORGANIZATION_HEADER_NAME = ORGANIZATION_HEADER.toLowerCase();

/** The caller, in the organization X-Roster-Organization names when the request has one (auth/principal.ts). */
async function authenticateInWorkspace(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  const principal = await authenticateLimited(deps, req, reply);
  const header = req.headers[ORGANIZATION_HEADER_NAME];
  if (header === undefined) return principal;
  if (Array.isArray(header)) throw badRequest('Send X-Roster-Organization once.');
  return actInOrganization(deps.db, principal, header);
}

/** RFC 2046 §5.1.1: a boundary is 1–70 characters. The multipart parser fails on long ones in its own way. */
function checkMultipartBoundary(contentType: string | undefined): void {
  const boundary = /boundary=(?:"([^"]*)"|([^;]*))/i.exec(contentType ?? '');
  const value = boundary?.[1] ?? boundary?.[2]?.trim();
  if (value !== undefined && (value.length < 1 || value.length > 70)) {
    throw badRequest('The multipart boundary must be 1 to 70 characters long (RFC 2046).');
  }
}

export function toFastifyPath(url: string): string {
  return url.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1');
}

/**
 * Registers `handler` for the operation `op`: authentication and rate limit, validation of params,
 * query and body (422), the operation's access rule (401/403/404), idempotency, response validation
 * in tests. Every /v0 route goes through here (app.test.ts checks).
 */
export function route<O extends AnyOperation>(app: FastifyInstance, op: O, handler: Handler<O>): void {
  const needsAuth = op.access.kind !== 'public';
  if (op.idempotent && !needsAuth) throw new Error(`${op.operationId}: idempotency keys are per caller, the route needs auth`);
  app.routeRegistry.push(op);
  const status = op.status ?? 200;
  const validQuery = op.query ? validQueries(op.query) : null;
  app.route({
    method: op.method,
    url: toFastifyPath(op.path),
    ...(op.bodyLimit ? { bodyLimit: op.bodyLimit } : {}),
    // An operation that reads no body has none to inflate: without this, @fastify/compress runs its
    // request-decompression hook on every call of it.
    ...(op.body || op.multipart ? {} : { decompress: false as const }),
    handler: async (req, reply) => {
      const deps = app.deps;
      const principal = needsAuth ? await authenticateInWorkspace(deps, req, reply) : null;
      if (!needsAuth) await deps.rateLimiter.consume('ip', req.ip, reply);
      const params = op.params ? parseOr422(op.params, req.params, 'path') : req.params;
      const query = validQuery ? validQuery(req.query) : req.query;
      const body = op.body ? parseOr422(op.body, req.body ?? {}, 'body') : undefined;
      if (op.multipart) checkMultipartBoundary(req.headers['content-type']);
      const organization = principal ? await authorize(deps.db, principal, op.access, params as Record<string, unknown>) : null;
      const key = op.idempotent && principal ? idempotencyKeyOf(req) : undefined;
      const idem = key === undefined ? null : new IdempotentRequest(deps, reply, status, principal!, `${op.operationId}${canonicalJson(params)}`, key);
      if (idem && !op.multipart) {
        const stored = await idem.acquire(jsonFingerprint(req));
        if (stored) return sendReplay(reply, stored);
      }
      let result;
      try {
        result = await handler({
          req,
          reply,
          body: body as never,
          query: query as never,
          params: params as never,
          principal: principal as never,
          organization,
          deps,
          idempotency: idem ?? NO_IDEMPOTENCY,
        });
        if (idem?.claimed && !idem.recorded && !reply.sent) {
          // A handler path that forgot to record: the effect is done but a retry would repeat it.
          req.log.error({ route: op.operationId }, 'idempotent handler did not record its response in its transaction');
          if (deps.config.validateResponses) throw new Error(`${op.operationId} did not record its idempotent response`);
          await idem.record(deps.db, result);
        }
      } catch (error) {
        await idem?.release().catch((err) => req.log.error({ err }, 'could not release an idempotency key'));
        throw error;
      }
      if (reply.sent) return reply;
      if (deps.config.validateResponses) {
        const checked = op.response.safeParse(result instanceof RawJson ? result.parse() : result);
        if (!checked.success) {
          req.log.error({ issues: checked.error.issues, route: op.operationId }, 'response breaks the contract');
          throw new Error(`Response of ${op.operationId} breaks its schema`);
        }
      }
      if (status === 204) return reply.code(204).send();
      if (result instanceof RawJson) return reply.code(status).type('application/json; charset=utf-8').send(result.json);
      return reply.code(status).send(result);
    },
  });
}
