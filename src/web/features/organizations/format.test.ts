import { describe, expect, it } from 'vitest';
import { timeLeft } from './format.ts';

describe('timeLeft', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();
  it('rounds to days, hours or minutes and says expired when past', () => {
    expect(timeLeft(at(7 * 86_400_000 - 5_000), now)).toBe('in 7 days');
    expect(timeLeft(at(36 * 3_600_000), now)).toBe('in 2 days');
    expect(timeLeft(at(5 * 3_600_000 + 10), now)).toBe('in 5 h');
    expect(timeLeft(at(30_000), now)).toBe('in 1 min');
    expect(timeLeft(at(0), now)).toBe('expired');
    expect(timeLeft(at(-1), now)).toBe('expired');
  });
});
