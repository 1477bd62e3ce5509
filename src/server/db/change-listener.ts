import type { FastifyBaseLogger } from 'fastify';
import type { WriteEpoch } from './write-epoch.ts';

/**
 * On PostgreSQL, listens on the channels the watched tables' triggers notify at commit (`roster_auth`:
 * migration 2026-11-25-10-auth-notify; `roster_logs`: 2026-11-28-03-logs-notify and
 * 2026-12-02-01-derived-fields-notify; `roster_accounts`, `roster_sessions`: 2026-12-01-01-cache-notify) and
 * moves the epochs each channel speaks for, so that every server drops what it cached. A lost connection is
 * retried; meanwhile the caches' 5 s bound holds.
 */
export async function listenForChanges(url: string, epochs: Record<string, WriteEpoch[]>, log: FastifyBaseLogger): Promise<() => Promise<void>> {
  const all = [...new Set(Object.values(epochs).flat())];
  const pg = (await import('pg')).default;
  let client: InstanceType<typeof pg.Client> | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const schedule = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().catch(() => {
        for (const epoch of all) epoch.bump();
        schedule();
      });
    }, 1000);
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      for (const epoch of epochs[message.channel] ?? []) epoch.bump();
    });
    next.on('error', (err) => {
      log.warn({ err }, 'change notifications lost; reconnecting (what this server keeps in memory is re-read within 5 s)');
      for (const epoch of all) epoch.bump(); // what happened while disconnected is unknown: drop the caches
      void next.end().catch(() => {});
      if (client === next) client = null;
      schedule();
    });
    await next.connect();
    for (const channel of Object.keys(epochs)) await next.query(`listen ${channel}`);
    client = next;
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
