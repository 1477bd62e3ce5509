import type { z } from 'zod';
import type { ValidationIssue } from '../../shared/errors.ts';
import { HttpError } from './errors.ts';

export type Location = 'body' | 'query' | 'path' | 'form';

function issueType(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
  }
  if (issue.code === 'too_small') return issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal';
  if (issue.code === 'too_big') return issue.origin === 'string' ? 'string_too_long' : 'less_than_equal';
  if (issue.code === 'invalid_value') return 'enum';
  if (issue.code === 'invalid_format') return 'string_pattern_mismatch';
  if (issue.code === 'custom') return 'value_error';
  return issue.code;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'Field required';
  return issue.message;
}

/** Converts zod issues to FastAPI-style items: loc starts with where the value came from. */
export function toValidationIssues(where: Location, error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    type: issueType(issue),
    loc: [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issueMessage(issue),
  }));
}

/** Parses `value` or throws a 422 naming every problem. */
export function parseOr422<T extends z.ZodType>(schema: T, value: unknown, where: Location): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new HttpError(422, toValidationIssues(where, result.error));
}
