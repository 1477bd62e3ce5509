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

/** Enough of the key for a person to recognise it, not enough to use it. */
export function displayPrefix(raw: string): string {
  return raw.slice(0, raw.indexOf('_') + 7);
}

/** Random single-use token (invites): 32 bytes, base64url. */
export function generateToken(): { raw: string; hash: string } {
  const raw = randomBytes(32).toString('base64url');
  return { raw, hash: hashApiKey(raw) };
}
