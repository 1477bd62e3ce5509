import type { Invite } from '../../../shared/invites.ts';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The e-mail of an invite: its link carries the raw token, which exists only until this is queued. */
export function inviteMail(publicUrl: string, invite: Invite, token: string) {
  const link = `${publicUrl}/invite?token=${encodeURIComponent(token)}`;
  const expires = new Date(invite.expires_at).toUTCString();
  const who = invite.invited_by_name ?? 'A member';
  const role = invite.role_name ?? 'a member';
  const subject = `You've been invited to join ${invite.organization_name}`;
  const text = [
    `${who} invited you to join ${invite.organization_name} on Roster as ${role}.`,
    '',
    `Accept the invitation: ${link}`,
    '',
    `This invitation expires on ${expires} (${invite.expires_at}).`,
    'If you did not expect it, ignore this e-mail.',
  ].join('\n');
  const html = `<p>${escapeHtml(who)} invited you to join <strong>${escapeHtml(invite.organization_name)}</strong> on Roster as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>
<p>This invitation expires on ${escapeHtml(expires)}.</p>`;
  return { subject, text, html };
}
