/** Rows of the sessions migration (2026-11-25-02-sessions). Timestamps are ISO 8601 UTC text. */
export interface SessionTable {
  /** SHA-256 of the cookie's value: the raw session id exists only in the browser. */
  id_hash: string;
  user_id: string;
  created_at: string;
  /** Written at most once a minute; idle expiry counts from it. */
  last_used_at: string;
  /** Absolute expiry: created_at + 30 days, never extended. */
  expires_at: string;
}

/** A one-time sign-in link's token (15 minutes, single use). */
export interface LoginTokenTable {
  token_hash: string;
  /** The address the link was sent to: opening it proves this address. */
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SessionsTables {
  sessions: SessionTable;
  login_tokens: LoginTokenTable;
}
