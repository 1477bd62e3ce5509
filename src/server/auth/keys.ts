import { hash, randomBytes } from 'node:crypto';

export type KeyKind = 'personal' | 'organization';

const PREFIX: Record<KeyKind, string> = { personal: 'rk_', organization: 'rko_' };

/** A new raw key: readable prefix + 32 random bytes, base64url. Shown once, stored only as a hash. */
export function generateApiKey(kind: KeyKind): { raw: string; hash: string; prefix: string } {
  const raw = PREFIX[kind] + randomBytes(32).toString('base64url');
  return { raw, hash: hashApiKey(raw), prefix: displayPrefix(raw) };
}

/** SHA-256, hex. One-shot: no Hash object per call (authentication hashes the bearer key on every request). */
export function hashApiKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

/** The credential a connection sent last, with its hash. */
const lastOnConnection = new WeakMap<object, { raw: string; hash: string }>();

/**
 * hashApiKey, computed once per keep-alive connection while it keeps sending the same credential (a client
 * sends its key or session cookie with every request; the hash was ~5 µs of a cached request under load).
 * The credential is remembered with its connection only, whose own buffers held it, and goes with it; a
 * connection that sends another one (a proxy's, shared by clients) is hashed again. Compared in constant time:
 * the one it is compared with may be another client's.
 */
export function hashOnConnection(connection: object, raw: string): string {
  const last = lastOnConnection.get(connection);
  if (last !== undefined && sameText(last.raw, raw)) return last.hash;
  const hashed = hashApiKey(raw);
  lastOnConnection.set(connection, { raw, hash: hashed });
  return hashed;
}

/** Whether two strings are equal, in a time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** Enough of the key for a person to recognise it, not enough to use it. */
export function displayPrefix(raw: string): string {
  return raw.slice(0, raw.indexOf('_') + 7);
}

/** Random single-use token (invites): 32 bytes, base64url. */
export function generateToken(): { raw: string; hash: string } {
  const raw = randomBytes(32).toString('base64url');
  return { raw, hash: hashApiKey(raw) };
}
