import type { Generated } from 'kysely';

/** One credit grant by an instance administrator (or the CLI), written with the balance change it made. */
export interface CreditGrantTable {
  id: Generated<number>;
  /** The administrator's e-mail address, or `cli`. */
  granted_by: string;
  granted_by_user_id: string | null;
  /** Exactly one of user_id and organization_id names the recipient (both null once it is deleted). */
  user_id: string | null;
  organization_id: number | null;
  /** The recipient's e-mail address or the organization's name when granted. */
  recipient: string;
  amount_micros: number;
  reason: string;
  balance_after_micros: number;
  created_at: string;
}

export interface AdminTables {
  credit_grants: CreditGrantTable;
}
