import { describe, expect, it } from 'vitest';
import { actionWords, detailWords, relativeTime } from './format.ts';

describe('activity wording', () => {
  it('words actions and the detail that matters', () => {
    expect(actionWords({ action: 'member.role_changed' })).toBe('changed a role');
    expect(detailWords({ action: 'member.role_changed', detail: { from_role_id: 3, role_id: 4 } })).toBe('Member → Viewer');
    expect(detailWords({ action: 'invite.sent', detail: { role_id: 2 } })).toBe('as Admin');
    expect(detailWords({ action: 'context.rolled_back', detail: { commit_hash: '0123456789abcdef' } })).toBe('to commit 0123456789');
    expect(detailWords({ action: 'key.revoked_all', detail: { revoked: 1 } })).toBe('1 key');
    expect(detailWords({ action: 'sessions.signed_out_everywhere', detail: { sessions_ended: 3 } })).toBe('3 sessions ended');
    // Nothing to say, or a detail of an unexpected shape: nothing shown rather than "undefined".
    expect(detailWords({ action: 'project.created', detail: null })).toBeNull();
    expect(detailWords({ action: 'member.role_changed', detail: { role_id: 'x' } })).toBeNull();
  });

  it('says how long ago, in the largest unit that fits', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(relativeTime('2026-11-25T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-11-25T11:55:00Z', now)).toMatch(/5 minutes ago/);
    expect(relativeTime('2026-11-25T09:00:00Z', now)).toMatch(/3 hours ago/);
    expect(relativeTime('2026-11-24T12:00:00Z', now)).toMatch(/yesterday|1 day ago/);
  });
});
