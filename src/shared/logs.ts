import { z } from 'zod';
import { jsonObject, opt, queryBool, withoutProtoKey } from './common.ts';
import { ColumnTypeSchema, contextName } from './projects.ts';

// Wire shapes of the logs API (/work/shared/design/logs-api.md §4), spoken by the platform's Python SDK.
// Entries are free-form JSON; their checks against field types happen per entry (one bad entry fails
// alone, §4.1), so bodies are validated here only as far as the whole request is concerned.

/** Batches of logs are large (the SDK streams bodies over 5 MB in chunks): refused past this, before parsing. */
export const MAX_LOGS_BODY_BYTES = 64 * 1024 * 1024;

/** Field types of the logs API; `Any` is an untyped field. */
export const FIELD_TYPES = ['int', 'float', 'str', 'bool', 'datetime', 'date', 'time', 'timedelta', 'dict', 'list', 'Any'] as const;
export const FieldTypeSchema = z.enum(FIELD_TYPES, { error: `Must be one of ${FIELD_TYPES.join(', ')}.` });
export type FieldType = z.infer<typeof FieldTypeSchema>;

/** `1&2&3` (the SDK joins and percent-encodes), or repeated keys. */
const joinedList = () =>
  opt(
    z
      .union([z.string(), z.array(z.string())])
      .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split('&')).filter((s) => s !== ''))
      .pipe(z.array(z.string().max(255, 'Must be at most 255 characters.')).max(10_000, 'At most 10 000 items.')),
  );

const joinedIds = () =>
  opt(
    z
      .union([z.string(), z.array(z.string())])
      .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split('&')).filter((s) => s !== ''))
      .pipe(
        z
          .array(
            z
              .string()
              .regex(/^\d{1,15}$/, 'Ids must be integers.')
              .transform(Number),
          )
          .max(10_000, 'At most 10 000 ids.'),
      ),
  );

/** The default context is `""`; otherwise a context name as the context routes accept it. */
const logContextName = () => z.union([z.literal(''), contextName()]);

/** `{"name": C, …properties used when the write creates it}`, a plain name, or null (default context). */
export const LogContextRef = opt(
  z.union([
    logContextName(),
    z.object({
      name: opt(logContextName()),
      description: opt(z.string().max(1000, 'Must be at most 1000 characters.')),
      is_versioned: opt(z.boolean()),
      allow_duplicates: opt(z.boolean()),
      unique_keys: opt(withoutProtoKey(z.union([z.record(z.string().min(1).max(255), ColumnTypeSchema), z.array(z.string().min(1).max(255)).max(20)]))),
      auto_counting: opt(withoutProtoKey(z.record(z.string().min(1).max(255), z.string().min(1).max(255).nullable()))),
    }),
  ]),
);
export type LogContextRefType = z.output<typeof LogContextRef>;

const Entry = jsonObject();
/** A request's entries: one log, or a batch. */
const EntryOrBatch = z.union([Entry, z.array(Entry).max(100_000, 'At most 100 000 logs per request.')]);

export const CreateLogsBody = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: LogContextRef,
  entries: opt(EntryOrBatch),
  recompute_derived: opt(z.boolean()),
  on_duplicate: opt(z.enum(['error', 'skip'], { error: 'Must be "error" or "skip".' })),
});

export const LogsCreatedResponse = z.object({
  info: z.string(),
  log_event_ids: z.array(z.number().int()),
  row_ids: z.object({ names: z.array(z.string()), ids: z.array(z.array(z.unknown())) }).nullable(),
  auto_counting: z.record(z.string(), z.array(z.unknown())),
  failed: opt(z.array(z.object({ index: z.number().int(), error: z.string() }))),
});

export const UpdateLogsBody = z.object({
  logs: z.union([z.number().int(), z.array(z.number().int()).max(100_000, 'At most 100 000 logs per request.')]),
  entries: opt(EntryOrBatch),
  overwrite: opt(z.boolean()),
  context: opt(z.union([LogContextRef, z.array(z.string())])),
  project_name: opt(z.string()),
  on_duplicate: opt(z.enum(['error', 'skip'], { error: 'Must be "error" or "skip".' })),
});

export const LogsUpdatedResponse = z.object({
  info: z.string(),
  log_event_ids: z.array(z.number().int()),
  modified_keys: z.array(z.string()),
  failed: z.array(z.object({ log_event_id: z.number().int(), error: z.string() })),
});

const idsOrAll = z.union([z.number().int(), z.array(z.number().int()).max(100_000, 'At most 100 000 ids.'), z.null()]);
const fieldsOrAll = z.union([z.string(), z.array(z.string()), z.null()]);

export const DeleteLogsBody = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContextName()),
  ids_and_fields: z.array(z.tuple([idsOrAll, fieldsOrAll])).max(1000, 'At most 1000 pairs.'),
  source_type: opt(z.enum(['all', 'base', 'derived'], { error: 'Must be "all", "base" or "derived".' })),
  delete_empty_logs: opt(z.boolean()),
});
export const DeleteLogsQuery = z.object({ delete_empty_logs: queryBool() });

export const LogsQuery = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContextName()),
  /** The current release's name; `filter_expr` is the 2026-04 release's (both accepted, `filter` wins). */
  filter: opt(z.string()),
  filter_expr: opt(z.string()),
  limit: opt(z.coerce.number().int('Must be an integer.').min(1, 'Must be at least 1.').max(1000, 'Must be at most 1000.')),
  offset: opt(z.coerce.number().int('Must be an integer.').min(0, 'Must be 0 or more.')),
  return_ids_only: queryBool(),
  value_limit: opt(z.coerce.number().int('Must be an integer.').min(0, 'Must be 0 or more.')),
  sorting: opt(z.string().max(8192, 'Must be at most 8192 characters.')),
  from_ids: joinedIds(),
  exclude_ids: joinedIds(),
  from_fields: joinedList(),
  exclude_fields: joinedList(),
  column_context: opt(z.string()),
  /** Repeated key: an ordered list of fields to group by. */
  group_by: opt(z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]).filter((f) => f !== ''))),
  group_limit: opt(z.coerce.number().int('Must be an integer.').min(1, 'Must be at least 1.')),
  group_offset: opt(z.coerce.number().int('Must be an integer.').min(0, 'Must be 0 or more.')),
  group_depth: opt(z.coerce.number().int('Must be an integer.').min(1, 'Must be at least 1.')),
  nested_groups: queryBool(),
  groups_only: queryBool(),
  return_timestamps: queryBool(),
});

export const LogRow = z.object({
  id: z.number().int(),
  ts: z.string().nullable(),
  entries: z.record(z.string(), z.unknown()),
  derived_entries: z.record(z.string(), z.unknown()),
});
export const LogsRead = z.union([
  z.object({ logs: z.array(LogRow), count: z.number().int() }),
  z.array(z.number().int()),
  /** With `group_by`: nested groups under `logs`, or flat `groups` next to the rows. */
  z.object({ logs: z.union([z.record(z.string(), z.unknown()), z.array(LogRow)]), groups: opt(z.record(z.string(), z.unknown())), count: z.number().int() }),
]);

export const FieldDefinition = z.union([
  z.null(),
  FieldTypeSchema,
  z.object({
    type: opt(FieldTypeSchema),
    mutable: opt(z.boolean()),
    unique: opt(z.boolean()),
    description: opt(z.string().max(1000, 'Must be at most 1000 characters.')),
  }),
]);

export const FieldsQuery = z.object({ project_name: z.string().min(1, 'Must not be empty.'), context: opt(logContextName()) });

const fieldName = () => z.string().min(1, 'Field names must not be empty.').max(255, 'Must be at most 255 characters.');

export const CreateFieldsBody = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContextName()),
  fields: withoutProtoKey(z.union([z.record(fieldName(), FieldDefinition), z.array(fieldName())])),
  backfill_logs: opt(z.boolean()),
});

export const DeleteFieldsBody = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContextName()),
  fields: z.array(fieldName()).min(1, 'Name at least one field.').max(500, 'At most 500 fields.'),
});

export const RenameFieldBody = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContextName()),
  old_field_name: fieldName(),
  new_field_name: fieldName(),
});

export const FieldInfo = z.object({
  data_type: z.string(),
  field_type: z.string(),
  mutable: z.boolean(),
  unique: z.boolean(),
  description: z.string(),
  created_at: z.string().nullable(),
});
export const FieldsResponse = z.record(z.string(), FieldInfo);

export const METRICS = ['count', 'sum', 'mean', 'var', 'std', 'min', 'max', 'median', 'mode'] as const;
export const MetricPath = z.object({ metric: z.enum(METRICS, { error: `Must be one of ${METRICS.join(', ')}.` }) });

/**
 * GET /v0/logs/metric/{metric}. `key`, `filter`/`filter_expr`, `from_ids`/`exclude_ids` and `group_by`
 * are plain values or JSON text (`["a","b"]`, `{"key": "expression"}`), told apart by the first character.
 */
export const MetricQuery = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContextName()),
  key: z.string({ error: 'Name the field to reduce (key).' }).min(1, 'Name the field to reduce (key).').max(8192),
  filter: opt(z.string().max(65_536)),
  filter_expr: opt(z.string().max(65_536)),
  from_ids: opt(z.string().max(200_000)),
  exclude_ids: opt(z.string().max(200_000)),
  group_by: opt(z.string().max(8192)),
});
export const MetricResponse = z.unknown();

/** GET /v0/logs/groups: the distinct values of one field; ids as repeated keys or `&`-joined. */
export const GroupsQuery = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContextName()),
  key: z.string({ error: 'Name the field (key).' }).min(1, 'Name the field (key).').max(255),
  filter: opt(z.string()),
  filter_expr: opt(z.string()),
  from_ids: joinedIds(),
  exclude_ids: joinedIds(),
});
/** Version index (as a string) → distinct value, in first-seen order. */
export const GroupsResponse = z.record(z.string(), z.unknown());

/** PATCH /v0/logs/{log_id}/fields/{field}/atomic */
export const AtomicPath = z.object({
  log_id: z.coerce.number({ error: 'Must be an integer.' }).int('Must be an integer.').min(1, 'Must be at least 1.').max(Number.MAX_SAFE_INTEGER),
  field: z.string().min(1, 'Must not be empty.').max(255, 'Must be at most 255 characters.'),
});
export const AtomicBody = z.object({
  operation: z.string().regex(/^\s*[-+*/]\s*\d+(\.\d+)?\s*$/, 'Must be +N, -N, *N or /N with an integer or decimal N.'),
});
export const AtomicResponse = z.object({ new_value: z.number() });
