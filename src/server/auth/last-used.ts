import { LAST_USED_RESOLUTION_MINUTES } from '../../shared/keys.ts';
import type { Conn } from '../db/connection.ts';
import { runPrepared } from '../db/prepared.ts';

const RESOLUTION_MS = LAST_USED_RESOLUTION_MINUTES * 60_000;

// The condition repeats the check in SQL: two instances (or two concurrent requests) that both saw an
// old value write once between them.
const touchKey = (db: Conn) =>
  db
    .updateTable('api_keys')
    .set({ last_used_at: '' })
    .where('id', '=', 0)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', '')]));

/**
 * Records that a key was used, coarsely: the key lookup already read when it last was (`lastUsedMs`), so a
 * key used within the last minute costs nothing more (not even a promise); otherwise one small UPDATE. Never a
 * write per request.
 */
export function recordKeyUse(db: Conn, keyId: number, lastUsedMs: number | null, now: Date): Promise<void> | undefined {
  if (lastUsedMs !== null && now.getTime() - lastUsedMs < RESOLUTION_MS) return undefined;
  return touch(db, keyId, now);
}

async function touch(db: Conn, keyId: number, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - RESOLUTION_MS).toISOString();
  await runPrepared(db, 'touch-key', touchKey, [now.toISOString(), keyId, cutoff]);
}
