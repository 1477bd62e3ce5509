import type { ProjectsTables } from '../modules/projects/tables.ts';
import type { AssistantsTables } from '../modules/assistants/tables.ts';
import type { CustomEndpointTables } from '../modules/custom-endpoints/tables.ts';
import type { Generated } from 'kysely';
import type { InvitesTables } from '../modules/invites/tables.ts';
import type { TilesTables } from '../modules/tiles/tables.ts';
import type { SessionsTables } from '../modules/sessions/tables.ts';
import type { AuditTables } from '../modules/audit/tables.ts';
import type { AdminTables } from '../modules/admin/tables.ts';
import type { LogsTables } from '../modules/logs/tables.ts';

/**
 * Database row types. They never leave src/server: routes map them to the shared schemas.
 * Conventions (portable across SQLite and PostgreSQL): timestamps are ISO 8601 UTC text,
 * booleans are integers 0/1, JSON is text, money is integer micro-units.
 */
export interface UserTable {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  job_title: string | null;
  bio: string | null;
  timezone: string | null;
  phone_number: string | null;
  whatsapp_number: string | null;
  discord_id: string | null;
  image: string | null;
  account_type: string | null;
  business_info: string | null;
  monthly_spending_cap_micros: number | null;
  /** 1 for instance administrators (who may create other people's accounts). */
  is_admin: Generated<number>;
  /** When the person last proved the address by opening a sign-in link sent to it; null = never. */
  email_verified_at: Generated<string | null>;
  /** When an instance administrator disabled the account: its keys, sessions and sign-in links are refused. Null: active. */
  disabled_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface OrganizationTable {
  id: Generated<number>;
  name: string;
  owner_id: string;
  created_at: string;
}

export interface RoleTable {
  id: number;
  name: string;
  permissions: string;
}

export interface MembershipTable {
  id: Generated<number>;
  organization_id: number;
  user_id: string;
  role_id: number;
  created_at: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  key_hash: string;
  prefix: string;
  kind: 'personal' | 'organization';
  user_id: string;
  organization_id: number | null;
  membership_id: number | null;
  created_at: string;
  revoked_at: string | null;
  /** Given on the API keys page; null for keys issued before it (and by the CLI or a membership). */
  name: string | null;
  /** Coarse: written at most once a minute (auth/last-used.ts). */
  last_used_at: string | null;
  /** Organization keys made on the page: their own permissions, a JSON list; null = the member's role. */
  permissions: string | null;
}

export interface BillingAccountTable {
  id: Generated<number>;
  user_id: string | null;
  organization_id: number | null;
  credits_micros: number;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: number;
  delta_micros: number;
  reason: string;
  reference: string | null;
  created_at: string;
  /** Set on charges (what spend counts): the deduction's category, or 'assistant_hire'. Null on other movements. */
  category: Generated<string | null>;
  description: Generated<string | null>;
  /** JSON object text. */
  detail: Generated<string | null>;
  /** The assistant a charge was for (no foreign key: the history outlives it). */
  assistant_id: Generated<number | null>;
  /** The person who made the charge (no foreign key). */
  user_id: Generated<string | null>;
}

export interface RateLimitHitTable {
  bucket: string;
  window_start: number;
  count: number;
}

/** One Idempotency-Key of one caller on one operation (see src/server/http/idempotency.ts). */
export interface IdempotencyKeyTable {
  /** SHA-256 of caller, operation, path parameters and the key: the raw key is never stored. */
  id: string;
  /** SHA-256 of the request (canonical JSON body and query, or the received multipart content). */
  fingerprint: string;
  state: 'in_flight' | 'done';
  /** Random per claim: only the request holding the claim can complete or release the row. */
  claim_id: string;
  status: number | null;
  /** The response body, AES-256-GCM sealed with a key derived from the Idempotency-Key. */
  response: string | null;
  created_at: string;
  claimed_at: string;
  expires_at: string;
}

export interface CoreTables {
  users: UserTable;
  organizations: OrganizationTable;
  roles: RoleTable;
  memberships: MembershipTable;
  api_keys: ApiKeyTable;
  billing_accounts: BillingAccountTable;
  credit_ledger: CreditLedgerTable;
  rate_limit_hits: RateLimitHitTable;
  idempotency_keys: IdempotencyKeyTable;
}

/** Each feature module adds its tables by extending this interface with its own `…Tables`. */
export interface Database
  extends CoreTables, SessionsTables, TilesTables, InvitesTables, CustomEndpointTables, ProjectsTables, AssistantsTables, AuditTables, AdminTables, LogsTables {}
