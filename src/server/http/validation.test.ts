import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpError } from './errors.ts';
import { findUnstorableText, parseOr422 } from './validation.ts';

describe('findUnstorableText', () => {
  it('finds nothing in storable JSON, however deep', () => {
    expect(findUnstorableText({ a: [1, 'two', { three: [null, true, 'é😀'] }], '': {} }, ['body'])).toBeNull();
    expect(findUnstorableText('plain', ['body'])).toBeNull();
    expect(findUnstorableText(42)).toBeNull();
  });

  it('names the path of a NUL or a lone surrogate down through objects and arrays', () => {
    expect(findUnstorableText({ entries: [{ ok: 'x' }, { tags: ['a', 'b\u0000'] }] }, ['body'])).toEqual({
      type: 'string_invalid',
      loc: ['body', 'entries', 1, 'tags', 1],
      msg: 'Must not contain NUL characters.',
    });
    expect(findUnstorableText(['fine', { deep: { deeper: 'half \uD83D' } }], ['body'])).toEqual({
      type: 'string_invalid',
      loc: ['body', 1, 'deep', 'deeper'],
      msg: 'Must be valid Unicode (no unpaired surrogate code units).',
    });
  });

  it('checks keys too, and reports the first problem in document order', () => {
    expect(findUnstorableText({ a: { 'k\u0000': 1 }, b: 'x\u0000' }, ['body'])).toEqual({
      type: 'string_invalid',
      loc: ['body', 'a', 'k\u0000'],
      msg: 'Keys: Must not contain NUL characters.',
    });
  });

  it('takes a field named __proto__ as a field', () => {
    expect(findUnstorableText(JSON.parse('{"__proto__": {"x": "\\u0000"}}'), ['body'])?.loc).toEqual(['body', '__proto__', 'x']);
  });

  it('leaves the caller’s path as it was', () => {
    const path: (string | number)[] = ['body'];
    findUnstorableText({ a: ['\u0000'] }, path);
    expect(path).toEqual(['body']);
  });
});

describe('parseOr422', () => {
  const issuesOf = (schema: z.ZodType, value: unknown) => {
    try {
      parseOr422(schema, value, 'body');
    } catch (error) {
      return (error as HttpError).detail;
    }
    throw new Error('parsed');
  };

  it("reports what the one option of a union that takes the value's type found, at its place", () => {
    const ref = z.object({
      context: z.union([
        z.union([z.literal(''), z.string()]),
        z.object({ name: z.string(), keys: z.union([z.record(z.string(), z.enum(['int', 'str'])), z.array(z.string())]) }),
      ]),
    });
    expect(issuesOf(ref, { context: { name: 'c', keys: { a: 'float' } } })).toEqual([
      { type: 'enum', loc: ['body', 'context', 'keys', 'a'], msg: 'Invalid option: expected one of "int"|"str"' },
    ]);
    expect(issuesOf(ref, { context: { keys: [] } })).toEqual([{ type: 'missing', loc: ['body', 'context', 'name'], msg: 'Field required' }]);
  });

  it('keeps "Invalid input" when no option, or more than one, takes the value', () => {
    const either = z.object({ v: z.union([z.string(), z.object({ a: z.number() })]) });
    expect(issuesOf(either, { v: 5 })).toEqual([{ type: 'invalid_union', loc: ['body', 'v'], msg: 'Invalid input' }]);
    const twoObjects = z.object({ v: z.union([z.object({ a: z.number() }), z.object({ b: z.number() })]) });
    expect(issuesOf(twoObjects, { v: {} })).toEqual([{ type: 'invalid_union', loc: ['body', 'v'], msg: 'Invalid input' }]);
  });
});
