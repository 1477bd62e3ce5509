import { z } from 'zod';

/** Rejects NUL characters, which no field of this API may hold. */
export const text = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters.`)
    .refine((s) => !s.includes('\u0000'), 'Must not contain NUL characters.');

/**
 * Whether any string in a JSON value (a key or a value, at any depth) holds a NUL character. Not a search
 * of the value's JSON text for `\u0000`: that also matches text that spells it (a backslash, then u0000).
 */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, child]) => key.includes('\u0000') || containsNul(child));
}

/** Whether a parsed JSON value is an object (not null, not an array). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON object of any fields, passed on as it came. zod's record would copy it key by key (a schema run and
 * two objects per field: ~1.3 KB of garbage per log of five fields) and drop a key named `__proto__`, which
 * here is a field like any other (JSON.parse makes it an own property; copies by spread or `Object.entries`
 * keep it one).
 */
export const jsonObject = () => z.custom<Record<string, unknown>>(isJsonObject, 'Must be a JSON object.').meta({ type: 'object', additionalProperties: true });

/**
 * A map keyed by names the client chooses (fields, columns, aliases) that refuses a key named `__proto__` with a
 * clear error: zod's record skips that key without a word, so the map would be used as if it had not been
 * sent. (Entries keep such a field: jsonObject.) Wraps the map's whole schema, unions included, so the error is
 * this one and not the union's.
 */
export const withoutProtoKey = <T extends z.ZodType>(schema: T) =>
  z.preprocess((input, ctx) => {
    if (isJsonObject(input) && Object.hasOwn(input, '__proto__')) {
      ctx.addIssue({ code: 'custom', path: ['__proto__'], input, message: 'The name __proto__ is not accepted here; rename the field.' });
    }
    return input;
  }, schema);

/** Trimmed, non-empty text. */
export const name = (max: number) =>
  z
    .string()
    .trim()
    // One spelling per name: "é" typed as one code point or as e + accent is the same name (NFC).
    .normalize('NFC')
    .min(1, 'Must not be empty.')
    .max(max, `Must be at most ${max} characters.`)
    .refine((s) => !s.includes('\u0000'), 'Must not contain NUL characters.');

/** An optional field where `null` means "not given" (the service is liberal, like the real one). */
export const opt = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema.optional());

export const email = () =>
  z
    .string()
    .trim()
    .max(254, 'Must be at most 254 characters.')
    .pipe(z.email('Must be a valid e-mail address.'))
    .transform((s) => s.toLowerCase());

export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(2048, 'Must be at most 2048 characters.')
    .refine((s) => {
      try {
        const u = new URL(s);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'Must be an http or https URL.');

export const Timestamp = z.string().describe('ISO 8601 UTC timestamp');

/**
 * Integer ids (path parameters, and body fields the spec types as integer). A path gives a string:
 * only plain decimal digits count, so `1e3`, `0x10` or ` 7` are refused rather than coerced.
 */
export const intId = (what: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${what} must be an integer.` })
      .int(`${what} must be an integer.`)
      .min(1, `${what} must be a positive integer.`)
      .max(2_147_483_647, `${what} is out of range.`),
  );

export const InfoString = z.object({ info: z.string() });
export const EmptyObject = z.object({}).catchall(z.unknown());
export const MessageSchema = z.object({ message: z.string() });

/** A query-string boolean: Python `requests` sends `True`/`False`; read case-insensitively (1/0 too). */
export const queryBool = () =>
  opt(
    z
      .preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['true', 'false', '1', '0'], { error: 'Must be True or False.' }))
      .transform((v) => v === 'true' || v === '1'),
  );
