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

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why a string cannot be stored faithfully on every dialect (PostgreSQL refuses both), or null. */
function unstorable(s: string): string | null {
  if (s.includes('\u0000')) return 'Must not contain NUL characters.';
  if (LONE_SURROGATE.test(s)) return 'Must be valid Unicode (no unpaired surrogate code units).';
  return null;
}

/**
 * Finds the first string (value or key, at any depth) that no field may hold, so free-form JSON
 * (row entries, templates) gets the same rule as declared text fields. Bodies are depth-limited
 * by the JSON parser, so the walk is bounded.
 */
export function findUnstorableText(value: unknown, path: (string | number)[] = []): ValidationIssue | null {
  if (typeof value === 'string') {
    const msg = unstorable(value);
    return msg ? { type: 'string_invalid', loc: path, msg } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const msg = typeof key === 'string' ? unstorable(key) : null;
    if (msg) return { type: 'string_invalid', loc: [...path, key], msg: `Keys: ${msg}` };
    const issue = findUnstorableText(child, [...path, key]);
    if (issue) return issue;
  }
  return null;
}

/** Parses `value` or throws a 422 naming every problem. */
export function parseOr422<T extends z.ZodType>(schema: T, value: unknown, where: Location): z.output<T> {
  const bad = findUnstorableText(value, [where]);
  if (bad) throw new HttpError(422, [bad]);
  // With the input in each issue, a value of the wrong type is told apart from a missing one.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new HttpError(422, toValidationIssues(where, result.error));
}
