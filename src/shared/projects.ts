import { z } from 'zod';
import { Timestamp, intId, opt, text } from './common.ts';

const NAME_RULE = 'Use letters, digits, "_", "-" and "/" only.';

export const projectName = () =>
  z
    .string()
    .trim()
    .min(1, 'Must not be empty.')
    .max(255, 'Must be at most 255 characters.')
    .regex(/^[a-zA-Z0-9_\-/]+$/, NAME_RULE);

/** 6. POST /v0/project */
export const ProjectInput = z.object({
  name: projectName(),
  is_versioned: opt(z.boolean()),
  icon: opt(text(64)),
  order: opt(z.number().int('Must be an integer.').min(0, 'Must be 0 or more.').max(1_000_000, 'Must be at most 1 000 000.')),
  description: opt(text(256)),
});
export type ProjectInputType = z.input<typeof ProjectInput>;

export const ProjectSchema = z.object({
  name: z.string(),
  is_versioned: z.boolean(),
  icon: z.string().nullable(),
  order: z.number().int().nullable(),
  description: z.string().nullable(),
  created_at: Timestamp,
});
export type Project = z.infer<typeof ProjectSchema>;

/** 7. GET /v0/projects */
export const ProjectNames = z.array(z.string());

export const ProjectPath = z.object({ project_name: z.string().min(1) });

// ---- Contexts -------------------------------------------------------------------------------

export const COLUMN_TYPES = ['str', 'int', 'float', 'bool', 'datetime', 'date', 'time', 'dict', 'list'] as const;
export const ColumnTypeSchema = z.enum(COLUMN_TYPES, { error: `Must be one of ${COLUMN_TYPES.join(', ')}.` });
export type ColumnType = z.infer<typeof ColumnTypeSchema>;

const columnName = () => z.string().trim().min(1, 'Column names must not be empty.').max(255, 'Must be at most 255 characters.');

export const contextName = () =>
  z
    .string()
    .trim()
    .min(1, 'Must not be empty.')
    .max(255, 'Must be at most 255 characters.')
    .regex(/^[a-zA-Z0-9_\-/.]+$/, 'Use letters, digits, "_", "-", "." and "/" only.');

/** Extension: POST /v0/project/{p}/contexts */
export const ContextInput = z.object({
  name: contextName(),
  description: opt(text(1000)),
  is_versioned: opt(z.boolean()),
  allow_duplicates: opt(z.boolean()),
  /** `{column: type}`, or a list of column names (any scalar type). */
  unique_keys: opt(z.union([z.record(columnName(), ColumnTypeSchema), z.array(columnName()).max(20, 'At most 20 unique key columns.')])),
  /** `{column: parent column | null}`: a counter filled on insert, restarting within each parent value. */
  auto_counting: opt(z.record(columnName(), columnName().nullable())),
});
export type ContextInputType = z.input<typeof ContextInput>;

/** Item of 8. GET /v0/project/{p}/contexts */
export const ContextSchema = z.object({
  name: z.string(),
  description: z.string(),
  is_versioned: z.boolean(),
  allow_duplicates: z.boolean(),
  unique_keys: z.array(z.string()),
  unique_key_types: z.record(z.string(), z.string()),
  auto_counting: z.record(z.string(), z.string().nullable()),
  head_commit_hash: z.string().nullable(),
  /** Extension: rows added, changed or deleted since HEAD (always 0 for an unversioned context). */
  uncommitted_changes: z.number().int(),
  created_at: Timestamp,
});
export type Context = z.infer<typeof ContextSchema>;

export const ContextsQuery = z.object({
  prefix: opt(z.string().max(255, 'Must be at most 255 characters.')),
  /** Extension: contexts whose name contains this text, ignoring case (literal: % and _ are plain characters). */
  search: opt(z.string().max(255, 'Must be at most 255 characters.')),
});
export const ContextPath = z.object({ project_name: z.string().min(1), context_name: z.string().min(1) });

// ---- Rows ("logs") --------------------------------------------------------------------------

/** Columns one row may have: each becomes part of the context's column list that reads and tiles work with. */
export const MAX_ROW_COLUMNS = 500;

export const Entries = z
  .record(z.string().max(255, 'Column names must be at most 255 characters.'), z.unknown())
  .refine((e) => Object.keys(e).length <= MAX_ROW_COLUMNS, `A row may have at most ${MAX_ROW_COLUMNS} columns.`)
  .refine((e) => JSON.stringify(e).length <= 64 * 1024, 'A row must be at most 64 KB of JSON.')
  .refine((e) => !JSON.stringify(e).includes('\\u0000'), 'Must not contain NUL characters.')
  .meta({ maxProperties: MAX_ROW_COLUMNS });

export const LogSchema = z.object({ id: z.number().int(), entries: z.record(z.string(), z.unknown()), created_at: Timestamp, updated_at: Timestamp });
export type Log = z.infer<typeof LogSchema>;

export const LogsQuery = z.object({
  offset: opt(z.coerce.number().int('Must be an integer.').min(0, 'Must be 0 or more.')),
  limit: opt(z.coerce.number().int('Must be an integer.').min(1, 'Must be at least 1.').max(1000, 'Must be at most 1000.')),
  commit: opt(z.string().regex(/^[0-9a-f]{64}$/, 'Must be a 64-character commit hash.')),
});
export const LogsResponse = z.object({ logs: z.array(LogSchema), count: z.number().int() });
export const LogsInput = z.object({ entries: z.array(Entries).min(1, 'Give at least one row.').max(1000, 'At most 1000 rows per request.') });
export const LogsCreated = z.object({ ids: z.array(z.number().int()) });
export const LogPatch = z.object({ entries: Entries });
export const LogPath = ContextPath.extend({ log_id: intId('log_id') });

// ---- Versions -------------------------------------------------------------------------------

export const CommitInput = z.object({ commit_message: opt(text(1000)) });
export const CommitCreated = z.object({ commit_hash: z.string() });
export const CommitSchema = z.object({
  commit_hash: z.string(),
  commit_message: z.string().nullable(),
  created_at: Timestamp,
  /** Logs API §6: "context" here; a project's own commits (GET /v0/project/{p}/commits) say "project". */
  type: z.literal('context'),
  prev_commit_hash: z.string().nullable(),
  /** Logs API §6 spelling of next_commit_hashes (the same list). */
  next_commit_hash: z.array(z.string()),
  next_commit_hashes: z.array(z.string()),
  row_count: z.number().int(),
  is_head: z.boolean(),
});
export type Commit = z.infer<typeof CommitSchema>;
export const CommitList = z.array(CommitSchema);

/** 9. POST …/contexts/{c}/rollback */
export const RollbackInput = z.object({ commit_hash: z.string().trim().min(1, 'Give the hash of the commit to roll back to.') });
export const RollbackResponse = z.object({ status: z.literal('success'), message: z.string(), auto_saved_commit_hash: z.string().nullable() });

// ---- Project versions (logs API §7) ---------------------------------------------------------

/** POST /v0/project/{p}/commit */
export const ProjectCommitInput = z.object({ commit_message: opt(text(1000)) });
export const ProjectCommitCreated = z.object({ info: z.string(), commit_hash: z.string() });
/** A versioned context as a project commit holds it: the context's own commit taken with it. */
export const ProjectCommitContextSchema = z.object({ name: z.string(), commit_hash: z.string() });
/** Item of GET /v0/project/{p}/commits: shaped as a context's commit, with `type: "project"`. */
export const ProjectCommitSchema = z.object({
  commit_hash: z.string(),
  commit_message: z.string().nullable(),
  created_at: Timestamp,
  type: z.literal('project'),
  prev_commit_hash: z.string().nullable(),
  next_commit_hash: z.array(z.string()),
  /** Extension: the project commit last made or rolled back to. */
  is_head: z.boolean(),
  /** Extension: the versioned contexts it holds (a context deleted since drops out), by name. */
  contexts: z.array(ProjectCommitContextSchema),
});
export type ProjectCommit = z.infer<typeof ProjectCommitSchema>;
export const ProjectCommitList = z.array(ProjectCommitSchema);
/** POST /v0/project/{p}/rollback */
export const ProjectRollbackInput = z.object({ commit_hash: z.string().trim().min(1, 'Give the hash of the project commit to roll back to.') });
export const ProjectRollbackResponse = z.object({
  info: z.string(),
  /** Extension: uncommitted changes were committed first as this project commit (null: there were none). */
  auto_saved_commit_hash: z.string().nullable(),
  /** Extension: the contexts whose rows or HEAD moved (the others already were as at the commit). */
  restored_contexts: z.array(z.string()),
});
