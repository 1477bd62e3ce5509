import type { FastifyBaseLogger } from 'fastify';
import type { WriteEpoch } from '../db/write-epoch.ts';

/**
 * On PostgreSQL, listens on the channel the auth tables' triggers notify at commit (migration
 * 2026-11-25-10-auth-notify) and moves the epoch, so that every server drops what it cached. A lost
 * connection is retried; meanwhile the cache's 5 s bound holds.
 */
export async function listenForAuthChanges(url: string, epoch: WriteEpoch, log: FastifyBaseLogger): Promise<() => Promise<void>> {
  const pg = (await import('pg')).default;
  let client: InstanceType<typeof pg.Client> | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const schedule = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().catch(() => {
        epoch.notified++;
        schedule();
      });
    }, 1000);
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', () => epoch.notified++);
    next.on('error', (err) => {
      log.warn({ err }, 'auth change notifications lost; reconnecting (cached keys are re-read within 5 s)');
      epoch.notified++; // what happened while disconnected is unknown: drop the cache
      void next.end().catch(() => {});
      if (client === next) client = null;
      schedule();
    });
    await next.connect();
    await next.query('listen roster_auth');
    client = next;
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
