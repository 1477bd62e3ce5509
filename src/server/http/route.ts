import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { authenticate, type Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { RawJson } from './raw-json.ts';
import { parseOr422 } from './validation.ts';
import {
  canonicalJson,
  idempotencyKeyOf,
  IdempotentRequest,
  jsonFingerprint,
  NO_IDEMPOTENCY,
  sendReplay,
  type IdempotencyHooks,
} from './idempotency.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Context<B, Q, P, A extends boolean> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: B;
  query: Q;
  params: P;
  principal: A extends false ? null : Principal;
  deps: Deps;
  /** The request's Idempotency-Key (no-ops without one); see http/idempotency.ts. */
  idempotency: IdempotencyHooks;
}

export interface RouteDef<
  BS extends z.ZodType = z.ZodType,
  QS extends z.ZodType = z.ZodType,
  PS extends z.ZodType = z.ZodType,
  RS extends z.ZodType = z.ZodType,
  A extends boolean = true,
> {
  method: Method;
  /** Path as the spec writes it: `/v0/assistant/{assistant_id}/config`. */
  url: string;
  operationId: string;
  summary: string;
  tag: string;
  /** True for endpoints beyond the spec's 20 operations (x-extension in OpenAPI). */
  extension?: boolean;
  /** Defaults to true: the route needs `Authorization: Bearer <key>`. */
  auth?: A;
  body?: BS;
  query?: QS;
  params?: PS;
  /** multipart/form-data body, read by the handler itself (streamed). */
  multipart?: { fields: Record<string, { type: 'string' | 'binary'; required?: boolean; description?: string }> };
  response: RS;
  /** Success status; 200 unless given. */
  status?: number;
  /** Error statuses this route can answer, for the OpenAPI document. */
  errors?: number[];
  description?: string;
  /**
   * Honours an Idempotency-Key header (and documents it). The handler must store its response with
   * `idempotency.record(tx, body)` / `idempotency.transaction(db, work)` in the transaction of its
   * effect. JSON routes are claimed before the handler runs; multipart handlers call
   * `idempotency.claim(fingerprint)` once they have received (and hashed) the upload.
   */
  idempotent?: boolean;
  handler(
    ctx: Context<z.output<BS>, z.output<QS>, z.output<PS>, A>,
  ): Promise<z.input<RS> | RawJson | undefined> | z.input<RS> | RawJson | undefined;
}

/** Routes registered on an app, for the OpenAPI document and the 405 check. */
export type RouteRegistry = RouteDef<any, any, any, any, any>[];

/**
 * Authenticates and counts the request: against the key's limit when the key is valid, against the
 * address's limit when it is not (so guessing keys is throttled too).
 */
async function authenticateLimited(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
  let principal: Principal;
  try {
    principal = await authenticate(deps.db, req.headers.authorization);
  } catch (error) {
    await deps.rateLimiter.consume('ip', req.ip, reply);
    throw error;
  }
  await deps.rateLimiter.consume('key', String(principal.keyId), reply);
  return principal;
}

export function toFastifyPath(url: string): string {
  return url.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1');
}

export function route<
  BS extends z.ZodType,
  QS extends z.ZodType,
  PS extends z.ZodType,
  RS extends z.ZodType,
  A extends boolean = true,
>(app: FastifyInstance, def: RouteDef<BS, QS, PS, RS, A>): void {
  if (def.idempotent && def.auth === false) throw new Error(`${def.operationId}: idempotency keys are per caller, the route needs auth`);
  app.routeRegistry.push(def as RouteDef<any, any, any, any, any>);
  const needsAuth = def.auth !== false;
  const status = def.status ?? 200;
  app.route({
    method: def.method,
    url: toFastifyPath(def.url),
    handler: async (req, reply) => {
      const deps = app.deps;
      const principal = needsAuth ? await authenticateLimited(deps, req, reply) : null;
      if (!needsAuth) await deps.rateLimiter.consume('ip', req.ip, reply);
      const params = def.params ? parseOr422(def.params, req.params, 'path') : req.params;
      const query = def.query ? parseOr422(def.query, req.query, 'query') : req.query;
      const body = def.body ? parseOr422(def.body, req.body ?? {}, 'body') : undefined;
      const key = def.idempotent && principal ? idempotencyKeyOf(req) : undefined;
      const idem =
        key === undefined ? null : new IdempotentRequest(deps, reply, status, principal!, `${def.operationId}${canonicalJson(params)}`, key);
      if (idem && !def.multipart) {
        const stored = await idem.acquire(jsonFingerprint(req));
        if (stored) return sendReplay(reply, stored);
      }
      let result;
      try {
        result = await def.handler({
          req,
          reply,
          body: body as never,
          query: query as never,
          params: params as never,
          principal: principal as never,
          deps,
          idempotency: idem ?? NO_IDEMPOTENCY,
        });
        if (idem?.claimed && !idem.recorded && !reply.sent) {
          // A handler path that forgot to record: the effect is done but a retry would repeat it.
          req.log.error({ route: def.operationId }, 'idempotent handler did not record its response in its transaction');
          if (deps.config.validateResponses) throw new Error(`${def.operationId} did not record its idempotent response`);
          await idem.record(deps.db, result);
        }
      } catch (error) {
        await idem?.release().catch((err) => req.log.error({ err }, 'could not release an idempotency key'));
        throw error;
      }
      if (reply.sent) return reply;
      if (deps.config.validateResponses) {
        const checked = def.response.safeParse(result instanceof RawJson ? result.parse() : result);
        if (!checked.success) {
          req.log.error({ issues: checked.error.issues, route: def.operationId }, 'response breaks the contract');
          throw new Error(`Response of ${def.operationId} breaks its schema`);
        }
      }
      if (status === 204) return reply.code(204).send();
      if (result instanceof RawJson) return reply.code(status).type('application/json; charset=utf-8').send(result.json);
      return reply.code(status).send(result);
    },
  });
}
