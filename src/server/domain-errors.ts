import type { ValidationIssue } from '../shared/errors.ts';

// What repositories and services throw when a request cannot be carried out. They know nothing of
// HTTP; http/error-handler.ts maps each kind to its status (semantics.md §1) and the `{detail}` body.

export type DomainErrorKind =
  | 'bad-request' // 400: the request contradicts the data (unknown commit, owner role by invite…)
  | 'insufficient-credits' // 402
  | 'forbidden' // 403
  | 'not-found' // 404: also what another tenant's data is
  | 'conflict' // 409
  | 'too-large' // 413
  | 'unsupported-type' // 415
  | 'invalid-field' // 422 for one field, in the shape of schema validation errors
  | 'rate-limited' // 429: a quota of the domain (invites per organization per hour); retry later
  | 'unavailable'; // 503: a dependency (storage, mail) is down; try again later

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** For `invalid-field`: where the value came from (`['body', 'role_id']`). */
    readonly field: (string | number)[] = [],
    /** For `unavailable` and `rate-limited`: seconds to wait before retrying. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const badRequestError = (message: string) => new DomainError('bad-request', message);
export const insufficientCredits = (message: string) => new DomainError('insufficient-credits', message);
export const forbiddenError = (message: string) => new DomainError('forbidden', message);
export const notFoundError = (message: string) => new DomainError('not-found', message);
export const conflictError = (message: string) => new DomainError('conflict', message);
export const invalidField = (field: (string | number)[], message: string) => new DomainError('invalid-field', message, field);
export const rateLimited = (message: string, retryAfterSeconds: number) => new DomainError('rate-limited', message, [], retryAfterSeconds);

/**
 * A 422 with several problems at once, or one whose `type` is not `value_error` (a required field is
 * `missing`), with more fields for the body next to `detail` (a template import's validation_result).
 */
export class InvalidFieldsError extends DomainError {
  constructor(
    readonly issues: ValidationIssue[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super('invalid-field', issues[0]?.msg ?? 'Validation failed', issues[0]?.loc ?? []);
    this.name = 'InvalidFieldsError';
  }
}

export const invalidFields = (issues: ValidationIssue[], extra: Record<string, unknown> = {}) => new InvalidFieldsError(issues, extra);
export const missingField = (field: (string | number)[], message: string) => invalidFields([{ type: 'missing', loc: field, msg: message }]);
