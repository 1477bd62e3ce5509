// Hand-written: the document comes from the shared operation definitions (access, idempotency, x-extension); @fastify/swagger documents routes.
import { z } from 'zod';
import { ErrorSchema, ValidationErrorSchema } from '../../shared/errors.ts';
import type { AnyOperation } from '../../shared/operation.ts';
import { IDEMPOTENCY_HEADER_DOC, REPLAYED_HEADER } from './idempotency.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated or invalid API key',
  402: 'Insufficient credits',
  403: 'Missing permission',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  415: 'Unsupported file type',
  422: 'Validation error',
  429: 'Rate limited',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function queryOrPathParameters(schema: z.ZodType | undefined, where: 'query' | 'path') {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
  }));
}

/** OpenAPI 3.1 from the operation definitions and their zod schemas: one source for server, client and docs. */
export function buildOpenApi(operations: readonly AnyOperation[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of [...operations].sort((a, b) => a.path.localeCompare(b.path))) {
    const isPublic = r.access.kind === 'public';
    const responses: Record<string, unknown> = {
      [String(r.status ?? 200)]:
        r.status === 204
          ? { description: 'No content' }
          : {
              description: 'Success',
              ...(r.idempotent
                ? {
                    headers: {
                      [REPLAYED_HEADER]: {
                        description: 'true when this is the stored response of an earlier request with the same Idempotency-Key',
                        schema: { type: 'string', enum: ['true'] },
                      },
                    },
                  }
                : {}),
              content: { 'application/json': { schema: jsonSchema(r.response, 'output') } },
            },
    };
    const errors = new Set([
      ...(isPublic ? [] : [401]),
      ...(r.body || r.query || r.params || r.idempotent ? [422] : []),
      ...(r.idempotent ? [409] : []),
      ...(r.errors ?? []),
    ]);
    for (const code of [...errors].sort()) {
      responses[String(code)] = {
        description: STATUS_TEXT[code] ?? 'Error',
        content: { 'application/json': { schema: jsonSchema(code === 422 ? ValidationErrorSchema : ErrorSchema, 'output') } },
      };
    }
    let requestBody: unknown;
    if (r.body) {
      requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } };
    } else if (r.multipart) {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [name, f] of Object.entries(r.multipart)) {
        properties[name] = f.type === 'binary' ? { type: 'string', format: 'binary', description: f.description } : { type: 'string', description: f.description };
        if (f.required) required.push(name);
      }
      requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } },
      };
    }
    (paths[r.path] ??= {})[r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: [r.tag],
      ...(r.extension ? { 'x-extension': true } : {}),
      ...(isPublic ? { security: [] } : {}),
      parameters: [
        ...queryOrPathParameters(r.params, 'path'),
        ...queryOrPathParameters(r.query, 'query'),
        ...(r.idempotent ? [{ ...IDEMPOTENCY_HEADER_DOC, in: 'header', required: false }] : []),
      ],
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Roster API',
      version,
      description:
        'Assistant, project and organization management. Operations marked x-extension go beyond the 20 operations of the service specification; the dashboard needs them.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key: rk_… (personal) or rko_… (organization)' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'roster_session',
          description:
            'Browser session from a sign-in link (`__Host-roster_session` over HTTPS); acts as the personal key. Requests other than GET/HEAD need a same-origin Origin and `X-Roster-CSRF: 1`. With `X-Roster-Organization: <organization id>` a session (or a personal key) acts in that organization with the person’s current role there (404 when they are not a member).',
        },
      },
    },
    // Either one: a bearer key, or the session cookie.
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
}
