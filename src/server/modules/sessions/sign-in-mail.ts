import { SIGN_IN_LINK_MINUTES } from '../../../shared/sessions.ts';
import type { SignupMode } from '../../config.ts';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The sign-in link. The token travels in the fragment (`#token=`), which browsers never send to a
 * server: it stays out of request logs, proxies and Referer headers; the page posts it to the API.
 */
export function signInLink(publicUrl: string, token: string, next?: string): string {
  const back = next && next !== '/' ? `?next=${encodeURIComponent(next)}` : '';
  return `${publicUrl}/sign-in/link${back}#token=${encodeURIComponent(token)}`;
}

/** The e-mail with a sign-in link: its raw token exists only until this is queued. */
export function signInMail(publicUrl: string, token: string, expiresAt: Date, newAccount: boolean, next?: string) {
  const link = signInLink(publicUrl, token, next);
  const expires = expiresAt.toUTCString();
  const action = newAccount ? 'Create your Roster account and sign in' : 'Sign in to Roster';
  const subject = newAccount ? 'Your Roster sign-up link' : 'Your Roster sign-in link';
  const text = [
    `${action}: ${link}`,
    '',
    `The link works once, for ${SIGN_IN_LINK_MINUTES} minutes (until ${expires}).`,
    'If you did not ask for it, ignore this e-mail: nothing happens without the link.',
  ].join('\n');
  const html = `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>
<p>The link works once, for ${SIGN_IN_LINK_MINUTES} minutes (until ${escapeHtml(expires)}).</p>
<p>If you did not ask for it, ignore this e-mail: nothing happens without the link.</p>`;
  return { subject, text, html };
}

/** What an address without an account receives when sign-up is not open: no link, and why. */
export function noAccountMail(publicUrl: string, mode: Exclude<SignupMode, 'open'>) {
  const why =
    mode === 'invite'
      ? 'This Roster instance creates accounts by invitation: ask an administrator of your organization to invite this address.'
      : 'This Roster instance does not accept new sign-ups: ask its operator for an account.';
  const text = [
    `Someone asked for a sign-in link to ${publicUrl} for this address, which has no account there.`,
    '',
    why,
    '',
    'If it was not you, ignore this e-mail.',
  ].join('\n');
  return { subject: 'Signing in to Roster', text, html: `<p>${escapeHtml(text).replace(/\n\n/g, '</p><p>')}</p>` };
}

/** What the address of a disabled account receives instead of a link: no link, and why. */
export function disabledAccountMail(publicUrl: string) {
  const text = [
    `Someone asked for a sign-in link to ${publicUrl} for this address.`,
    '',
    'The account of this address has been disabled by an administrator of this Roster instance, so no link was sent. Ask one of them to enable it again.',
    '',
    'If it was not you, ignore this e-mail.',
  ].join('\n');
  return { subject: 'Signing in to Roster', text, html: `<p>${escapeHtml(text).replace(/\n\n/g, '</p><p>')}</p>` };
}
