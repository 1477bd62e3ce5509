import type { Conn } from '../db/connection.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the mail is about (invite id), for support and tests. */
  reference?: string;
  organizationId?: number | null;
}

/**
 * Queues a mail in the caller's transaction: it is sent if and only if the transaction commits
 * (transactional outbox). The worker delivers it later, with retries.
 */
export async function enqueueMail(tx: Conn, mail: OutgoingMail, now: Date): Promise<number> {
  const at = now.toISOString();
  if (mail.reference) {
    // A mail about the same thing still waiting to go (a re-invite): it goes out once, with the new content.
    const waiting = await tx
      .updateTable('mail_outbox')
      .set({ to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html ?? null, next_attempt_at: at })
      .where('reference', '=', mail.reference)
      .where('status', '=', 'pending')
      .where('attempts', '=', 0)
      .returning('id')
      .executeTakeFirst();
    if (waiting) return waiting.id;
  }
  const row = await tx
    .insertInto('mail_outbox')
    .values({
      organization_id: mail.organizationId ?? null,
      reference: mail.reference ?? null,
      to_address: mail.to,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html ?? null,
      status: 'pending',
      attempts: 0,
      next_attempt_at: at,
      last_error: null,
      created_at: at,
      sent_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Whether a mail about `reference` is queued and not tried yet (enqueueMail would replace it). */
export async function hasWaitingMail(db: Conn, reference: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('reference', '=', reference)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .executeTakeFirst();
  return !!row;
}
