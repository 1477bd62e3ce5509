import type { z } from 'zod';
import type { Permission } from './roles.ts';

// One definition per API operation: the server registers its handler against it (server/http/route.ts),
// the dashboard calls it (web/lib/api-client.ts), and the OpenAPI document is generated from the list
// of them (shared/operations/index.ts). Adding an endpoint starts here.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation, checked by the route helper before the handler runs (and before an
 * idempotent replay is answered). The rule (semantics.md, Roles and permissions): a personal key, and a
 * browser session (signed in by e-mail link), act as the person; an organization key acts only in its own
 * organization, with the lesser of its own permissions and its member's current role.
 * - `public`: no key.
 * - `signed-in`: any valid key or session; the handler decides what the caller sees (its own things only).
 * - `account`: the person's account itself (delete it, personal spending limit, sign-ups): a personal
 *   key or a session; an organization key is refused (403).
 * - `scope`: the key's own scope (personal space, or the key's organization) must grant `permission`. A
 *   session or a personal key naming one of the person's organizations in X-Roster-Organization
 *   (shared/workspace-header.ts) acts there instead, with their current role's permissions.
 * - `instance-admin`: instance administrators only (users.is_admin), by a personal key or a session; anyone
 *   else, and every organization key, is refused (403).
 * - `organization`: the organization named by the `organization_id` path parameter. A personal key or a session: the
 *   person must be a member (404 otherwise) whose current role grants `permission` (403 otherwise). An
 *   organization key: only its own organization (any other is 404, even where the person is Owner), with
 *   the lesser of its own permissions and its member's current role.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'signed-in' }
  | { kind: 'account' }
  | { kind: 'instance-admin' }
  | { kind: 'scope'; permission: Permission }
  | { kind: 'organization'; permission: Permission };

export const PUBLIC: Access = { kind: 'public' };
export const SIGNED_IN: Access = { kind: 'signed-in' };
export const ACCOUNT: Access = { kind: 'account' };
export const INSTANCE_ADMIN: Access = { kind: 'instance-admin' };
export const inScope = (permission: Permission): Access => ({ kind: 'scope', permission });
export const inOrganization = (permission: Permission): Access => ({ kind: 'organization', permission });

/** A multipart/form-data body (uploads), read by the handler as a stream; described for OpenAPI. */
export type MultipartFields = Record<string, { type: 'string' | 'binary'; required?: boolean; description?: string }>;

export interface Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: Method;
  /** Path as the spec writes it: `/v0/assistant/{assistant_id}/config`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Beyond the spec's 20 operations (x-extension in OpenAPI). */
  extension?: boolean;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  multipart?: MultipartFields;
  response: R;
  /** Success status; 200 unless given. */
  status?: number;
  /** Error statuses it can answer besides the ones its shape implies (401, 422, 409 for idempotency). */
  errors?: number[];
  /** Honours an Idempotency-Key header (see server/http/idempotency.ts). */
  idempotent?: boolean;
  /** Largest body in bytes, when it differs from the server's default (refused with 413 as it arrives). */
  bodyLimit?: number;
}

/** Any operation: the defaults are the widest schemas, and each type parameter is covariant. */
export type AnyOperation = Operation;

/** Defines an operation, keeping its schemas' exact types for the server and the client. */
export function operation<
  const P extends z.ZodType | undefined = undefined,
  const Q extends z.ZodType | undefined = undefined,
  const B extends z.ZodType | undefined = undefined,
  const R extends z.ZodType = z.ZodType,
>(def: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return def;
}

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type Schema = z.ZodType | undefined;

/** What a caller sends: the path parameters, query and body as the schemas accept them. */
export type ParamsOf<O> = O extends Operation<infer P, Schema, Schema, z.ZodType> ? Input<P> : never;
export type QueryOf<O> = O extends Operation<Schema, infer Q, Schema, z.ZodType> ? Input<Q> : never;
export type BodyOf<O> = O extends Operation<Schema, Schema, infer B, z.ZodType> ? Input<B> : never;
/** What a caller receives on success. */
export type ResponseOf<O> = O extends Operation<Schema, Schema, Schema, infer R> ? z.output<R> : never;

/** What a handler receives, after validation. */
export type ParsedParams<O> = O extends Operation<infer P, Schema, Schema, z.ZodType> ? Output<P> : never;
export type ParsedQuery<O> = O extends Operation<Schema, infer Q, Schema, z.ZodType> ? Output<Q> : never;
export type ParsedBody<O> = O extends Operation<Schema, Schema, infer B, z.ZodType> ? Output<B> : never;
/** What a handler may return (the response schema's input). */
export type HandlerResult<O> = O extends Operation<Schema, Schema, Schema, infer R> ? z.input<R> : never;

/** The path with its `{name}` placeholders filled in, each value encoded as one segment. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{([a-zA-Z0-9_]+)\}/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
