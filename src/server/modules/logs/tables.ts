import type { Generated } from 'kysely';

// Tables of the logs API beyond the contexts' own (migration 2026-11-27-03).

export interface LogDerivedFieldTable {
  id: Generated<number>;
  context_id: number;
  key: string;
  /** The equation as the client sent it (`{log:base_value} * 10`). */
  equation: string;
  created_at: string;
}

export interface SyncLeaseTable {
  id: Generated<number>;
  project_id: number;
  lease_key: string;
  holder: string;
  /** ISO-8601; the lease is free once this is past. */
  expires_at: string;
}

export interface LogsTables {
  log_derived_fields: LogDerivedFieldTable;
  sync_leases: SyncLeaseTable;
}
