import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_HEADER } from '../../shared/csrf.ts';
import type { Config } from '../config.ts';
import { forbidden } from '../http/errors.ts';
import { idleExpiryOf, type SessionRow } from './session-repository.ts';

// The session cookie and the cross-site request checks that come with it (SECURITY.md, Sessions and
// CSRF). Written by hand: two headers' worth of syntax (RFC 6265) did not justify a plugin.

/** Over HTTPS the `__Host-` prefix also pins the cookie to this host, path `/` and Secure (RFC 6265bis §4.1.3.2). */
const SECURE_NAME = '__Host-roster_session';
const PLAIN_NAME = 'roster_session';

/**
 * Whether the dashboard is reached over HTTPS: the request itself (with ROSTER_TRUST_PROXY, the
 * proxy's X-Forwarded-Proto), or the configured public address.
 */
export function isSecureRequest(req: FastifyRequest, config: Config): boolean {
  return req.protocol === 'https' || config.publicUrl.startsWith('https://');
}

const cookieName = (req: FastifyRequest, config: Config) => (isSecureRequest(req, config) ? SECURE_NAME : PLAIN_NAME);

/**
 * The first `name=value` pair of that name in a Cookie header (pairs separated by `;`, spaces around names and
 * values ignored), found by one pattern: splitting the header into pairs was ~3 µs of each cookie request.
 */
const pairOf = (name: string) => new RegExp(`(?:^|;)\\s*${name}\\s*=([^;]*)`);
const SECURE_PAIR = pairOf(SECURE_NAME);
const PLAIN_PAIR = pairOf(PLAIN_NAME);

/** The raw session id the request carries, if any. */
export function sessionCookieOf(req: FastifyRequest, config: Config): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const pair = (isSecureRequest(req, config) ? SECURE_PAIR : PLAIN_PAIR).exec(header);
  const value = pair?.[1]!.trim();
  return value !== undefined && /^[A-Za-z0-9_-]{10,200}$/.test(value) ? value : null;
}

function serialize(req: FastifyRequest, config: Config, value: string, maxAgeSeconds: number): string {
  const attributes = [`${cookieName(req, config)}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`];
  if (isSecureRequest(req, config)) attributes.push('Secure');
  return attributes.join('; ');
}

/** Sets the session cookie on the answer, to live `maxAgeSeconds` (until the session's next expiry). */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, config: Config, rawId: string, maxAgeSeconds: number): void {
  reply.header('Set-Cookie', serialize(req, config, rawId, maxAgeSeconds));
}

/** Sets the cookie of a session just started (a sign-in): it lives until the session's idle expiry. */
export function setStartedSessionCookie(req: FastifyRequest, reply: FastifyReply, config: Config, started: { rawId: string; row: SessionRow }, now: Date): void {
  setSessionCookie(req, reply, config, started.rawId, (idleExpiryOf(started.row).getTime() - now.getTime()) / 1000);
}

/** The Set-Cookie value that removes the session cookie (sign-out, or a session that has ended). */
export function clearedSessionCookie(req: FastifyRequest, config: Config): string {
  return serialize(req, config, '', 0);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin (`scheme://host[:port]`) of a URL, or null. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * A request authenticated by the session cookie (or one that signs in) that could change something
 * must come from the dashboard's own pages: same-origin by `Origin` (or, without it, by
 * `Sec-Fetch-Site`), and with the dashboard's CSRF header, which no cross-site form can send and no
 * cross-site script can send without a CORS preflight (refused). Bearer requests never get here: a
 * browser does not attach an Authorization header on its own.
 */
export function checkSameOrigin(req: FastifyRequest, config: Config, what = 'a request signed in by session cookie'): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (typeof origin === 'string') {
    const own = [originOf(config.publicUrl), originOf(`${req.protocol}://${req.host}`)].filter((o) => o !== null);
    const claimed = originOf(origin);
    if (claimed === null || !own.includes(claimed)) {
      throw forbidden(`Cross-site request refused: ${what} must come from this dashboard (Origin ${origin} is not ${own[0]}).`);
    }
  } else if (site !== 'same-origin') {
    throw forbidden(`Cross-site request refused: ${what} must carry an Origin header of this dashboard (or Sec-Fetch-Site: same-origin).`);
  }
  if (site !== undefined && site !== 'same-origin') {
    throw forbidden(`Cross-site request refused: Sec-Fetch-Site is ${String(site)}, ${what} must be same-origin.`);
  }
  if (req.headers[CSRF_HEADER.toLowerCase()] !== '1') {
    throw forbidden(`Request refused: ${what} must send the header ${CSRF_HEADER}: 1 (the dashboard does; programs use an API key instead).`);
  }
}
