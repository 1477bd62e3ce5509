import type { Deps } from '../deps.ts';
import { transportFor, type MailTransport } from './transports.ts';

/** After this many failed attempts a message is parked as `failed` (kept, never deleted). */
export const MAX_ATTEMPTS = 20;

/** Wait before attempt n+1: 15 s, 30 s, 1 min, … capped at 30 min. */
export function retryDelayMs(attempts: number): number {
  return Math.min(15_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}

function errorText(error: unknown): string {
  const msg = error instanceof Error ? error.message : String(error);
  return msg.slice(0, 500);
}

/**
 * One delivery pass: sends every due pending message once. A failure only moves the message's next
 * attempt into the future; nothing else (the invite, other messages) is affected.
 */
export async function deliverDueMail(deps: Pick<Deps, 'db' | 'now' | 'config'>, transport: MailTransport, limit = 50): Promise<{ sent: number; failed: number }> {
  const now = deps.now();
  const due = await deps.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now.toISOString())
    .orderBy('id')
    .limit(limit)
    .execute();
  let sent = 0;
  let failed = 0;
  for (const row of due) {
    // Claim: push the next attempt out first so a second worker (another process) skips it.
    const claimUntil = new Date(now.getTime() + 5 * 60_000).toISOString();
    const claimed = await deps.db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: claimUntil })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    try {
      await transport.send({
        id: row.id,
        from: deps.config.mailFrom,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
      await deps.db
        .updateTable('mail_outbox')
        .set({ status: 'sent', sent_at: deps.now().toISOString(), attempts: row.attempts + 1, last_error: null })
        .where('id', '=', row.id)
        .execute();
      sent += 1;
    } catch (error) {
      const attempts = row.attempts + 1;
      await deps.db
        .updateTable('mail_outbox')
        .set({
          attempts,
          last_error: errorText(error),
          status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          next_attempt_at: new Date(deps.now().getTime() + retryDelayMs(attempts)).toISOString(),
        })
        .where('id', '=', row.id)
        .execute();
      failed += 1;
    }
  }
  return { sent, failed };
}

/**
 * Polls the outbox every `intervalMs` in the server process. Returns a stop function that waits for
 * the pass in flight.
 */
export function startMailWorker(
  deps: Pick<Deps, 'db' | 'now' | 'config'> & { log?: { warn(obj: unknown, msg: string): void } },
  options: { intervalMs?: number; transport?: MailTransport } = {},
): () => Promise<void> {
  const transport = options.transport ?? transportFor(deps.config);
  const intervalMs = options.intervalMs ?? 2_000;
  let stopped = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  const tick = () => {
    inFlight = deliverDueMail(deps, transport)
      .then((r) => {
        if (r.failed > 0) deps.log?.warn({ failed: r.failed }, 'mail delivery failed; will retry');
      })
      .catch((error) => deps.log?.warn({ err: errorText(error) }, 'mail worker pass failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await inFlight;
    transport.close();
  };
}
