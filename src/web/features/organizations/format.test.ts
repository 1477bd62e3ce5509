import { describe, expect, it } from 'vitest';
import { deletedThings, timeLeft } from './format.ts';

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

describe('deletedThings', () => {
  const none = {
    members: 0,
    pending_invites: 0,
    api_keys: 0,
    assistants: 0,
    voices: 0,
    files: 0,
    projects: 0,
    contexts: 0,
    rows: 0,
    commits: 0,
    dashboards: 0,
    tiles: 0,
    custom_endpoints: 0,
    credits: 0,
  };
  it('names only what there is, in the singular or plural', () => {
    expect(deletedThings(none)).toEqual([]);
    expect(deletedThings({ ...none, members: 1, api_keys: 2, projects: 1, contexts: 2, rows: 1, commits: 0, credits: 12.5 })).toEqual([
      '1 membership',
      '2 organization API keys (they stop working)',
      '1 project with 2 contexts, 1 row and 0 commits',
      '12.5 credits (they are not refunded)',
    ]);
  });
});
