import { describe, expect, it } from 'vitest';
import { containsNul } from './common.ts';

describe('containsNul', () => {
  it('finds a NUL in a value or a key at any depth', () => {
    expect(containsNul('a\u0000')).toBe(true);
    expect(containsNul({ a: [1, { b: ['x', 'y\u0000'] }] })).toBe(true);
    expect(containsNul({ a: { 'k\u0000': 1 } })).toBe(true);
  });

  it('does not take text that spells the escape for a NUL', () => {
    expect(containsNul('C:\\u0000\\logs')).toBe(false);
    expect(containsNul({ 'k\\u0000': ['\\u0000', 0, null, true] })).toBe(false);
  });
});
