import type { Generated } from 'kysely';

export interface ProjectTable {
  id: Generated<number>;
  user_id: string | null; // the creator; null once they deleted their account (organization rows outlive them)
  organization_id: number | null;
  scope_key: string;
  name: string;
  description: string | null;
  icon: string | null;
  sort_order: number | null;
  is_versioned: number;
  created_at: string;
  /** The project commit last made or rolled back to (project_commits.id), null before the first. */
  head_commit_id: number | null;
}

export interface ContextTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  is_versioned: number;
  allow_duplicates: number;
  unique_keys: string;
  auto_counting: string;
  columns: string;
  head_commit_id: number | null;
  created_at: string;
  /** JSON array of foreign keys as answered (logs-api.md §6); not enforced. */
  foreign_keys: Generated<string>;
  owner_scope: string | null;
  owner_id: string | null;
}

export interface ContextRowTable {
  id: Generated<number>;
  context_id: number;
  entries: string;
  unique_key: string | null;
  content_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContextCounterTable {
  context_id: number;
  counter_key: string;
  next_value: number;
}

export interface CommitTable {
  id: Generated<number>;
  context_id: number;
  hash: string;
  prev_hash: string | null;
  message: string | null;
  row_count: number;
  created_at: string;
}

export interface CommitRowTable {
  commit_id: number;
  row_id: number;
  entries: string | null;
  unique_key: string | null;
  content_hash: string | null;
  created_at: string | null;
  updated_at: string | null;
}

export interface PendingChangeTable {
  context_id: number;
  row_id: number;
}

/** A field of a context as the logs API knows it (type, mutability); rows may hold columns without one. */
export interface ContextFieldTable {
  id: Generated<number>;
  context_id: number;
  name: string;
  /** int, float, str, bool, datetime, date, time, timedelta, dict, list, or Any (untyped). */
  data_type: string;
  mutable: number;
  is_unique: number;
  description: string;
  created_at: string;
}

/** A project commit: the versioned contexts' commits taken (or restored) together. */
export interface ProjectCommitTable {
  id: Generated<number>;
  project_id: number;
  hash: string;
  prev_hash: string | null;
  message: string | null;
  created_at: string;
}

/** Which commit of each versioned context a project commit holds. */
export interface ProjectCommitContextTable {
  project_commit_id: number;
  context_id: number;
  commit_id: number;
}

/** A context a log belongs to besides its home context (context_rows.context_id), with its keys under that context's rules. */
export interface ContextLogMemberTable {
  context_id: number;
  row_id: number;
  unique_key: string | null;
  content_hash: string | null;
}

/** The member logs (context_log_members) a context had at one of its commits. */
export interface CommitMemberTable {
  commit_id: number;
  row_id: number;
  unique_key: string | null;
  content_hash: string | null;
}

export interface ProjectsTables {
  projects: ProjectTable;
  contexts: ContextTable;
  context_rows: ContextRowTable;
  context_counters: ContextCounterTable;
  commits: CommitTable;
  commit_rows: CommitRowTable;
  pending_changes: PendingChangeTable;
  context_fields: ContextFieldTable;
  project_commits: ProjectCommitTable;
  project_commit_contexts: ProjectCommitContextTable;
  context_log_members: ContextLogMemberTable;
  commit_members: CommitMemberTable;
}
