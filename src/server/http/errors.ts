import type { ValidationIssue } from '../../shared/errors.ts';

/** An error the client caused or should know about; the error handler turns it into `{detail}`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Text; validation issues; or an object the contract asks for (a held sync lease: `{held_by, expires_at}`). */
    readonly detail: string | ValidationIssue[] | Record<string, unknown>,
    readonly headers: Record<string, string> = {},
    /** More fields for the body next to `detail` (e.g. the validation_result of a template import). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation failed');
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail: string) => new HttpError(401, detail, { 'WWW-Authenticate': 'Bearer' });
export const paymentRequired = (detail: string) => new HttpError(402, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const payloadTooLarge = (detail: string) => new HttpError(413, detail);
export const unsupportedMediaType = (detail: string) => new HttpError(415, detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpError(429, detail, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** A 422 for one field, in the same shape as schema validation errors. */
export function invalid(loc: (string | number)[], msg: string, type = 'value_error'): HttpError {
  return new HttpError(422, [{ type, loc, msg }]);
}
