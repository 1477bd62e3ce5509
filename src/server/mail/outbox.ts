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
