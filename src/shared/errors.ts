import { z } from 'zod';

/** One problem in a request, in the shape FastAPI clients already read. */
export const ValidationIssueSchema = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  input: z.unknown().optional(),
  /** Details a client can act on (a filter syntax error's `position` and what was `expected` there). */
  ctx: z.record(z.string(), z.unknown()).optional(),
});
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** Every non-2xx answer: a sentence, or (422) one item per problem. */
export const ErrorSchema = z.object({
  detail: z.union([z.string(), z.array(ValidationIssueSchema)]),
});
export type ErrorBody = z.infer<typeof ErrorSchema>;

export const ValidationErrorSchema = z.object({ detail: z.array(ValidationIssueSchema) });
