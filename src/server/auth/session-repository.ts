import { SESSION_ABSOLUTE_DAYS, SESSION_IDLE_DAYS } from '../../shared/sessions.ts';
import { sessionsEpochOf, type Conn } from '../db/connection.ts';
import { cachePerDatabase } from '../db/epoch-cache.ts';
import { runPrepared } from '../db/prepared.ts';
import { generateToken } from './keys.ts';

// Session rows (modules/sessions/tables.ts): the authentication of every cookie request reads one, so
// they live next to the key lookup rather than in the sessions module.

const DAY = 86_400_000;
/** `last_used_at` is written at most this often (one write a minute per session, not one per request). */
export const SESSION_TOUCH_MS = 60_000;

export interface SessionRow {
  id_hash: string;
  user_id: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
}

type SessionTimes = Pick<SessionRow, 'last_used_at' | 'expires_at'>;

/**
 * A row's times in milliseconds, parsed once per row object: a cached row serves every request of its
 * session, which parsed its ISO strings three times (~0.7 % of the samples each in `perf`). With the session's
 * principal made once too (auth/principal.ts), a cached cookie request went from 65 to 55 µs of CPU.
 */
const parsedTimes = new WeakMap<SessionTimes, { lastUsedMs: number; idleExpiryMs: number }>();

function timesOf(row: SessionTimes): { lastUsedMs: number; idleExpiryMs: number } {
  let times = parsedTimes.get(row);
  if (!times) {
    const lastUsedMs = new Date(row.last_used_at).getTime();
    times = { lastUsedMs, idleExpiryMs: Math.min(lastUsedMs + SESSION_IDLE_DAYS * DAY, new Date(row.expires_at).getTime()) };
    parsedTimes.set(row, times);
  }
  return times;
}

/** When a session ends if it is not used again: idle expiry, never past the absolute one. */
export function idleExpiryOf(row: SessionTimes): Date {
  return new Date(timesOf(row).idleExpiryMs);
}

/** Starts a session for the user; returns the raw id (the cookie's value: it exists nowhere else). */
export async function insertSession(db: Conn, userId: string, now: Date): Promise<{ rawId: string; row: SessionRow }> {
  const { raw, hash } = generateToken();
  const at = now.toISOString();
  const row: SessionRow = {
    id_hash: hash,
    user_id: userId,
    created_at: at,
    last_used_at: at,
    expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_DAYS * DAY).toISOString(),
  };
  await db.insertInto('sessions').values(row).execute();
  return { rawId: raw, row };
}

/**
 * With the person's standing. Kept while no session and no person's row has changed (a sign-out, a renewal,
 * a disabled account drop it: at once in this process, within 10 ms for another process on the same SQLite
 * file, at the commit's notification on PostgreSQL) and for at most the epoch's bound (db/epoch-cache.ts). The
 * expiry is checked against the clock on every request.
 */
const sessionLookup = (db: Conn) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id_hash', 's.user_id', 's.created_at', 's.last_used_at', 's.expires_at', 'u.is_admin', 'u.disabled_at', 'u.first_name', 'u.last_name', 'u.email'])
    .where('s.id_hash', '=', '?');

/** A live session with whether its person administers the instance, whether their account is disabled, and their names. */
export type LiveSession = SessionRow & { is_admin: number; disabled_at: string | null; first_name: string | null; last_name: string | null; email: string | null };

const sessionCache = cachePerDatabase<LiveSession | undefined>(sessionsEpochOf);

/** The live session whose id hashes to `hash` (hashApiKey, keys.ts); an ended one is deleted and reads as none. */
export async function findLiveSession(db: Conn, hash: string, now: Date): Promise<LiveSession | null> {
  const row = await sessionCache(db).get(hash, async () => (await runPrepared(db, 'session', sessionLookup, [hash]))[0]);
  if (!row) return null;
  if (timesOf(row).idleExpiryMs <= now.getTime()) {
    await deleteSession(db, row.id_hash);
    return null;
  }
  return row;
}

/**
 * Renews a session's idle expiry when its last write is a minute old: the row as it then is, or null (at once,
 * no promise: most requests) when the renewal is not due.
 */
export function touchSession(db: Conn, row: SessionRow, now: Date): Promise<SessionRow> | null {
  return now.getTime() - timesOf(row).lastUsedMs < SESSION_TOUCH_MS ? null : renewSession(db, row, now.toISOString());
}

async function renewSession(db: Conn, row: SessionRow, at: string): Promise<SessionRow> {
  await db.updateTable('sessions').set({ last_used_at: at }).where('id_hash', '=', row.id_hash).execute();
  return { ...row, last_used_at: at };
}

export async function deleteSession(db: Conn, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of the user; returns how many were live. */
export async function deleteSessionsOf(db: Conn, userId: string, now: Date): Promise<number> {
  const rows = await db.deleteFrom('sessions').where('user_id', '=', userId).returning(['last_used_at', 'expires_at']).execute();
  return rows.filter((r) => idleExpiryOf(r).getTime() > now.getTime()).length;
}

/** Drops the user's ended sessions (at each sign-in: rows do not pile up for people who never sign out). */
export async function deleteEndedSessionsOf(db: Conn, userId: string, now: Date): Promise<void> {
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_DAYS * DAY).toISOString();
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_used_at', '<=', idleCutoff)]))
    .execute();
}
