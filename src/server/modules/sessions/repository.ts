import { SIGN_IN_LINK_MINUTES } from '../../../shared/sessions.ts';
import { generateToken, hashApiKey } from '../../auth/keys.ts';
import type { Conn } from '../../db/connection.ts';

const MINUTE = 60_000;

/** Stores a sign-in link's token for `email` (its hash only); returns the raw token and its expiry. */
export async function insertLoginToken(db: Conn, email: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const { raw, hash } = generateToken();
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_MINUTES * MINUTE);
  await db
    .insertInto('login_tokens')
    .values({ token_hash: hash, email: email.toLowerCase(), created_at: now.toISOString(), expires_at: expiresAt.toISOString(), used_at: null })
    .execute();
  return { token: raw, expiresAt };
}

export type TokenUse = { email: string } | { refused: 'unknown' | 'used' | 'expired' };

/**
 * Uses a sign-in token up: only the one request whose update flips `used_at` gets its address, so a
 * link opened twice at once signs in once.
 */
export async function useLoginToken(db: Conn, rawToken: string, now: Date): Promise<TokenUse> {
  const hash = hashApiKey(rawToken);
  const row = await db.selectFrom('login_tokens').select(['email', 'expires_at', 'used_at']).where('token_hash', '=', hash).executeTakeFirst();
  if (!row) return { refused: 'unknown' };
  if (row.used_at !== null) return { refused: 'used' };
  if (row.expires_at <= now.toISOString()) return { refused: 'expired' };
  const flipped = await db.updateTable('login_tokens').set({ used_at: now.toISOString() }).where('token_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
  return Number(flipped.numUpdatedRows) === 1 ? { email: row.email } : { refused: 'used' };
}

/** Forgets tokens a day past their expiry (kept that long so a late click still hears "expired", not "not valid"). */
export async function pruneLoginTokens(db: Conn, now: Date): Promise<void> {
  await db
    .deleteFrom('login_tokens')
    .where('expires_at', '<', new Date(now.getTime() - 24 * 60 * MINUTE).toISOString())
    .execute();
}

/** Records that the person proved the address by opening a link sent to it. */
export async function markEmailVerified(db: Conn, userId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ email_verified_at: now.toISOString() }).where('id', '=', userId).execute();
}
