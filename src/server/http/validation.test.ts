import { describe, expect, it } from 'vitest';
import { findUnstorableText } from './validation.ts';

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
