import type { Generated } from 'kysely';

/** Rows of the organizations migration (2026-11-22-04-organizations). */
export interface InviteTable {
  id: string;
  organization_id: number;
  email: string;
  role_id: number;
  token_hash: string;
  invited_by_user_id: string;
  status: 'pending' | 'accepted' | 'declined' | 'cancelled';
  pending_key: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface MailOutboxTable {
  id: Generated<number>;
  organization_id: number | null;
  reference: string | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface InvitesTables {
  invites: InviteTable;
  mail_outbox: MailOutboxTable;
}
