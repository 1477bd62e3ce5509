import { fillPath, type AnyOperation, type BodyOf, type ParamsOf, type QueryOf, type ResponseOf } from '../../shared/operation.ts';
import { CSRF_HEADER } from '../../shared/csrf.ts';
import { ORGANIZATION_HEADER } from '../../shared/workspace-header.ts';
import { sessionStore } from './session.ts';
import { workspaceStore } from './workspace.ts';

/** A non-2xx answer, or no answer at all (status 0). `detail` is always a sentence fit to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** 422 problems by field path without the location (`name`, `business_info.country`). */
    readonly fieldErrors: Record<string, string> = {},
    readonly body: unknown = null,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

interface ValidationItem {
  loc?: (string | number)[];
  msg?: string;
}

function toApiError(status: number, body: unknown): ApiError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (Array.isArray(detail)) {
    const fieldErrors: Record<string, string> = {};
    const lines: string[] = [];
    for (const item of detail as ValidationItem[]) {
      const loc = (item.loc ?? []).slice(1).join('.');
      const msg = item.msg ?? 'Invalid value';
      if (loc && !fieldErrors[loc]) fieldErrors[loc] = msg;
      lines.push(loc ? `${loc}: ${msg}` : msg);
    }
    return new ApiError(status, lines.join('; ') || 'The request was not valid.', fieldErrors, body);
  }
  if (typeof detail === 'string') return new ApiError(status, detail, {}, body);
  return new ApiError(status, status >= 500 ? 'The server had a problem. Try again in a moment.' : `Request failed (${status}).`, {}, body);
}

type Query = Record<string, string | number | boolean | null | undefined>;

interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Use this key instead of the session's active one (sign-in check, accepting with another key). */
  key?: string;
  /** Send the session cookie even when the dashboard is not (yet) signed in by it (sign-in link, start-up check). */
  cookie?: boolean;
  apiBase?: string;
}

export function apiUrl(path: string, query?: Query, apiBase = sessionStore.get().apiBase): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const qs = search.toString();
  return `${apiBase}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * How a request proves who it is: a bearer key, or (same origin only) the session cookie with the header
 * that tells the server the dashboard sent it (CSRF: SECURITY.md). No secret is in JavaScript for the latter.
 * `organizationId`: the workspace it acts in (X-Roster-Organization), for the dashboard's own credentials only.
 */
function credentialsFor(options: { key?: string; cookie?: boolean; apiBase?: string }): { key: string | null; cookie: boolean; organizationId: number | null } {
  const state = sessionStore.get();
  const sameOrigin = (options.apiBase ?? state.apiBase) === '';
  if (options.key) return { key: options.key, cookie: false, organizationId: null };
  if (options.cookie) return { key: null, cookie: sameOrigin, organizationId: null };
  const organizationId = workspaceStore.get().organizationId;
  if (state.key) return { key: state.key, cookie: false, organizationId };
  return { key: null, cookie: state.cookie && sameOrigin, organizationId };
}

type Used = ReturnType<typeof credentialsFor>;

function headersFor(used: Used): Record<string, string> {
  const headers: Record<string, string> = {};
  if (used.key) headers.Authorization = `Bearer ${used.key}`;
  if (used.cookie) headers[CSRF_HEADER] = '1';
  if (used.organizationId !== null) headers[ORGANIZATION_HEADER] = String(used.organizationId);
  return headers;
}

/**
 * A 401 for what the dashboard is signed in with ends that sign-in; late answers for an older key change
 * nothing. A 404 for the organization the request acted in: the person is not (any more) a member, and the
 * dashboard goes back to their personal workspace, still signed in.
 */
function handleRefusal(status: number, used: Used, detail: string) {
  if (status === 404 && used.organizationId !== null && detail === 'Organization not found.') {
    workspaceStore.leave(used.organizationId);
    return;
  }
  if (status !== 401) return;
  const state = sessionStore.get();
  // An administrator disabled the account: the sign-in page says so, as the server words it.
  const disabled = /disabled by an instance administrator/.test(detail);
  if (used.key && used.key === state.key) {
    sessionStore.signOut(disabled ? detail : detail === 'Invalid API key.' ? 'Your API key is no longer valid. Sign in again.' : 'Please sign in.');
  } else if (used.cookie && state.cookie && !state.key) {
    sessionStore.signOut(disabled ? detail : 'Your session has ended. Sign in again.');
  }
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const used = credentialsFor(options);
  const headers: Record<string, string> = { Accept: 'application/json', ...headersFor(used) };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query, options.apiBase), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: used.cookie ? 'same-origin' : 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Could not reach the Roster API. Check your connection or the API address.');
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) {
    const error = toApiError(response.status, body);
    if (!options.key && options.cookie === undefined) handleRefusal(response.status, used, error.detail);
    throw error;
  }
  return body as T;
}

/** What a call of `op` sends: its path parameters and body are required exactly when it has them. */
export type CallOptions<O extends AnyOperation> = (ParamsOf<O> extends undefined ? { params?: undefined } : { params: ParamsOf<O> }) &
  (BodyOf<O> extends undefined ? { body?: undefined } : { body: BodyOf<O> }) & {
    query?: QueryOf<O> extends undefined ? undefined : { [K in keyof QueryOf<O>]?: QueryOf<O>[K] | null };
    signal?: AbortSignal;
    /** Use this key instead of the session's active one (sign-in check, accepting with another key). */
    key?: string;
    /** Send the session cookie even when not signed in by it (sign-in link, start-up check). */
    cookie?: boolean;
    apiBase?: string;
  };

/** The options argument may be left out when none of its fields is required. */
type Optional<T> = Partial<T> extends T ? [options?: T] : [options: T];

/**
 * Calls an operation of the API (shared/operations): the URL comes from its path and `params`, the
 * answer is typed by its response schema. The one way the dashboard talks to the server.
 */
export function api<O extends AnyOperation>(op: O, ...[options]: Optional<CallOptions<O>>): Promise<ResponseOf<O>> {
  const { params, query, body, ...rest } = (options ?? {}) as RequestOptions & { params?: Record<string, unknown> };
  return request<ResponseOf<O>>(op.method, fillPath(op.path, params), { ...rest, query: query as Query | undefined, body });
}

export interface UploadOptions<O extends AnyOperation> {
  params?: ParamsOf<O>;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  query?: Query;
}

/** Multipart upload with real progress (fetch cannot report upload progress; XMLHttpRequest can). */
export function upload<O extends AnyOperation>(op: O, form: FormData, options: UploadOptions<O> = {}): Promise<ResponseOf<O>> {
  const used = credentialsFor({});
  return new Promise<ResponseOf<O>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(op.method, apiUrl(fillPath(op.path, options.params as Record<string, unknown> | undefined), options.query));
    // Same-origin XHR sends the cookie by itself; the CSRF header is what it needs besides.
    for (const [name, value] of Object.entries(headersFor(used))) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve(body as ResponseOf<O>);
      } else {
        const error = toApiError(xhr.status, body);
        handleRefusal(xhr.status, used, error.detail);
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload was interrupted. Check your connection and try again.'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
