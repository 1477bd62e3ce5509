import { z } from 'zod';
import { Timestamp, containsNul, intId, jsonObject, opt, text, withoutProtoKey } from './common.ts';

/** A boolean in a query string: Python's clients send `True`/`False`; any case, or 1/0. */
export const pythonBool = () =>
  opt(
    z
      .preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['true', 'false', '1', '0'], { error: 'Must be True or False.' }))
      .transform((v) => v === 'true' || v === '1'),
  );

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

export const FK_ACTIONS = ['CASCADE', 'SET NULL', 'SET DEFAULT', 'RESTRICT', 'NO ACTION'] as const;
const fkAction = () => opt(z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(FK_ACTIONS, { error: `Must be one of ${FK_ACTIONS.join(', ')}.` })));

/** A field path: `a`, `a.b`, `tags[*]`, `items[0].id`, `teams[*].members[*].user_id`. */
const FK_PATH = /^[^.[\]\s]+(\[(\*|\d+)\])*(\.[^.[\]\s]+(\[(\*|\d+)\])*)*$/;

export const ForeignKeyInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Must not be empty.')
    .max(255, 'Must be at most 255 characters.')
    .regex(FK_PATH, 'Must be a field path such as user_id, metadata.user.id, tags[*] or items[0].id.'),
  references: z
    .string()
    .trim()
    .max(511, 'Must be at most 511 characters.')
    .regex(/^[a-zA-Z0-9_\-/.]+\.[^.\s]+$/, 'Must be "Context.column" (a context name, a dot, a column).'),
  on_delete: fkAction(),
  on_update: fkAction(),
  /** For SET DEFAULT. */
  default: z.unknown().optional(),
});

export const PathSegmentSchema = z.object({ name: z.string(), is_array: z.boolean(), is_wildcard: z.boolean(), array_index: z.number().int().nullable() });
export const ForeignKeySchema = z.object({
  name: z.string(),
  references: z.string(),
  on_delete: z.string().nullable(),
  on_update: z.string().nullable(),
  default: z.unknown().optional(),
  is_nested: z.boolean(),
  path_segments: z.array(PathSegmentSchema),
});
export type ForeignKey = z.infer<typeof ForeignKeySchema>;

export const OWNER_SCOPES = ['assistant', 'team', 'aggregation', 'system'] as const;

/** Extension: POST /v0/project/{p}/contexts */
export const ContextInput = z.object({
  name: contextName(),
  description: opt(text(1000)),
  is_versioned: opt(z.boolean()),
  allow_duplicates: opt(z.boolean()),
  /** `{column: type}`, or a list of column names (any scalar type). */
  unique_keys: opt(withoutProtoKey(z.union([z.record(columnName(), ColumnTypeSchema), z.array(columnName()).max(20, 'At most 20 unique key columns.')]))),
  /** `{column: parent column | null}`: a counter filled on insert, restarting within each parent value. */
  auto_counting: opt(withoutProtoKey(z.record(columnName(), columnName().nullable()))),
  /** Kept and answered, not enforced (logs-api.md §6: enforcement is platform semantics the clients do not exercise). */
  foreign_keys: opt(z.array(ForeignKeyInput).max(50, 'At most 50 foreign keys.')),
  /** The current client release's owner of the context; kept and answered. */
  owner_scope: opt(z.enum(OWNER_SCOPES, { error: `Must be one of ${OWNER_SCOPES.join(', ')}.` })),
  owner_id: opt(z.union([z.string().max(255, 'Must be at most 255 characters.'), z.number().int().transform(String)])),
});
export type ContextInputType = z.input<typeof ContextInput>;
export type ContextInputParsed = z.output<typeof ContextInput>;

/** POST …/contexts with an array body: names, or objects as for one context. Each item is checked alone (its error goes in `errors`). */
export const ContextBatchInput = z.array(z.unknown()).max(1000, 'At most 1000 contexts per request.');
export const ContextCreateInput = z.union([ContextInput, ContextBatchInput]);
export const ContextBatchCreated = z.object({
  info: z.string(),
  created: z.array(z.string()),
  errors: z.array(z.object({ index: z.number().int(), name: z.string().nullable(), error: z.string() })),
});

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
  /** Kept as given (with `is_nested` and `path_segments`), not enforced; [] when none. */
  foreign_keys: z.array(ForeignKeySchema),
  owner_scope: z.string().nullable(),
  owner_id: z.string().nullable(),
});
export type Context = z.infer<typeof ContextSchema>;

export const ContextsQuery = z.object({
  prefix: opt(z.string().max(255, 'Must be at most 255 characters.')),
  /** Extension: contexts whose name contains this text, ignoring case (literal: % and _ are plain characters). */
  search: opt(z.string().max(255, 'Must be at most 255 characters.')),
});
export const ContextPath = z.object({ project_name: z.string().min(1), context_name: z.string().min(1) });
/** DELETE …/contexts/{c}: `include_children` (Python sends True/False) also deletes every context named `c/…`. */
export const DeleteContextQuery = z.object({ include_children: pythonBool() });
export const ContextsDeleted = z.object({ info: z.string(), deleted: z.array(z.string()) });
export const RenameContextInput = z.object({ name: contextName() });
export const AddLogsInput = z.object({
  context_name: z.union([z.literal(''), contextName()]),
  log_ids: z.union([intId('log_ids'), z.array(intId('log_ids')).min(1, 'Give at least one log id.').max(10_000, 'At most 10 000 ids.')]),
});

// ---- Rows ("logs") --------------------------------------------------------------------------

/** Columns one row may have: each becomes part of the context's column list that reads and tiles work with. */
export const MAX_ROW_COLUMNS = 500;

export const Entries = jsonObject()
  .refine((e) => Object.keys(e).length <= MAX_ROW_COLUMNS, `A row may have at most ${MAX_ROW_COLUMNS} columns.`)
  .refine((e) => Object.keys(e).every((k) => k.length <= 255), 'Column names must be at most 255 characters.')
  .refine((e) => JSON.stringify(e).length <= 64 * 1024, 'A row must be at most 64 KB of JSON.')
  .refine((e) => !containsNul(e), 'Must not contain NUL characters.')
  .meta({ maxProperties: MAX_ROW_COLUMNS, propertyNames: { type: 'string', maxLength: 255 } });

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
