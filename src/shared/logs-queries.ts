import { z } from 'zod';
import { jsonObject, opt, withoutProtoKey } from './common.ts';
import { METRICS } from './logs.ts';
import { contextName } from './projects.ts';

// Wire shapes of the logs API's query routes (logs-api.md §4.9–§4.11, §9 sync lease): joins, derived
// entries, federated reads, claims, and the current release's routes this server refuses clearly.

const logContext = () => z.union([z.literal(''), contextName()]);
const filterText = () => opt(z.string().max(10_000, 'Must be at most 10 000 characters.'));

/** Ids as a list, one id, or `1&2&3` (as the GET takes them). */
const idList = () =>
  opt(
    z.union([z.array(z.number().int().min(1)).max(10_000, 'At most 10 000 ids.'), z.number().int().min(1), z.string().max(200_000)]).transform((v, ctx) => {
      if (typeof v === 'number') return [v];
      if (Array.isArray(v)) return v;
      const parts = v.split('&').filter((p) => p !== '');
      if (!parts.every((p) => /^\d{1,15}$/.test(p))) {
        ctx.addIssue({ code: 'custom', message: 'Ids must be integers (a list, or joined with &).' });
        return z.NEVER;
      }
      return parts.map(Number);
    }),
  );

/** A set of `GET /v0/logs` arguments naming some logs of one context (pair_of_args, referenced_logs). */
export const LogsSelection = z.object({
  context: opt(logContext()),
  filter_expr: filterText(),
  filter: filterText(),
  from_ids: idList(),
  exclude_ids: idList(),
});
export type LogsSelectionType = z.output<typeof LogsSelection>;

const JOIN_MODES = ['inner', 'left', 'right', 'outer'] as const;
export type JoinMode = (typeof JOIN_MODES)[number];

const joinShape = {
  project_name: z.string().min(1, 'Must not be empty.'),
  pair_of_args: z.tuple([LogsSelection, LogsSelection], { error: 'Must be a pair of GET /v0/logs argument objects: [A, B].' }),
  join_expr: z.string().trim().min(1, 'Must not be empty.').max(10_000, 'Must be at most 10 000 characters.'),
  mode: opt(z.enum(JOIN_MODES, { error: 'Must be inner, left, right or outer.' })).transform((m) => m ?? 'inner'),
  /** Null: every field of both; a list of `A.x`/`B.y` (output names x, y); or a mapping `"A.x"` → output name. */
  columns: opt(
    withoutProtoKey(
      z.union([
        z.array(z.string().min(1).max(300)).max(500, 'At most 500 columns.'),
        z.record(z.string().min(1).max(300), z.string().min(1, 'Must not be empty.').max(255, 'Must be at most 255 characters.')),
      ]),
    ),
  ),
};

/** POST /v0/logs/join_query: a join read without materialising it; rows, or a reduction with `metric` + `key`. */
export const JoinQueryBody = z.object({
  ...joinShape,
  filter_expr: filterText(),
  filter: filterText(),
  /**
   * JSON text `{"column": "ascending"}`, or that object. The object is taken as it came (as the text is parsed),
   * so a column named `__proto__` sorts like any other; its directions are checked where it is read.
   */
  sorting: opt(
    z.union([
      z.string().max(10_000, 'Must be at most 10 000 characters.'),
      jsonObject().refine((o) => JSON.stringify(o).length <= 10_000, 'Must be at most 10 000 characters as JSON text.'),
    ]),
  ),
  limit: opt(z.number().int('Must be an integer.').min(1, 'Must be at least 1.').max(1000, 'Must be at most 1000.')),
  offset: opt(z.number().int('Must be an integer.').min(0, 'Must be at least 0.')),
  group_by: opt(z.union([z.string().min(1).max(255), z.array(z.string().min(1).max(255)).min(1).max(10)])),
  metric: opt(z.enum(METRICS, { error: `Must be one of ${METRICS.join(', ')}.` })),
  key: opt(z.string().min(1).max(255)),
});

/** A joined row: its output columns (no id: it is not a stored log until materialised). */
export const JoinQueryResponse = z.union([z.object({ logs: z.array(z.record(z.string(), z.unknown())), count: z.number().int() }), z.unknown()]);

/** POST /v0/logs/join: the same join, written as new logs into `new_context` (created; must not exist). */
export const JoinBody = z.object({
  ...joinShape,
  new_context: contextName(),
  /** Accepted and ignored: a joined row is made of two logs, so joined rows are always new logs. */
  copy: opt(z.boolean()),
});
export const JoinResponse = z.object({ info: z.string(), context: z.string(), log_event_ids: z.array(z.number().int()), count: z.number().int() });

/** POST /v0/logs/derived */
export const DerivedBody = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  context: opt(logContext()),
  key: z.string().min(1, 'Must not be empty.').max(255, 'Must be at most 255 characters.'),
  equation: z.string().trim().min(1, 'Must not be empty.').max(10_000, 'Must be at most 10 000 characters.'),
  referenced_logs: withoutProtoKey(
    z.record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'An alias is a name of letters, digits and "_".')
        .max(100),
      z.union([z.array(z.number().int().min(1)).min(1, 'Name at least one log.').max(10_000, 'At most 10 000 ids.'), LogsSelection]),
    ),
  ),
  derived: opt(z.boolean()),
});
export const DerivedResponse = z.object({ info: z.string(), key: z.string(), derived: z.boolean(), log_event_ids: z.array(z.number().int()) });

const sortSpec = z.object({
  field: z.string().min(1).max(255),
  direction: opt(z.enum(['ascending', 'descending'], { error: 'Must be "ascending" or "descending".' })),
  missing: opt(z.enum(['first', 'last'], { error: 'Must be "first" or "last".' })),
});

/** POST /v0/logs/federated (current release). */
export const FederatedBody = z.object({
  project_name: z.string().min(1, 'Must not be empty.'),
  contexts: z
    .array(
      z.object({
        context: logContext(),
        source: opt(z.string().max(255)),
        filter: filterText(),
        from_fields: opt(z.array(z.string().min(1).max(255)).max(500)),
        project_name: opt(z.string().min(1)),
      }),
    )
    .min(1, 'Name at least one context.')
    .max(50, 'At most 50 contexts.'),
  filter: filterText(),
  sorting: opt(z.array(sortSpec).max(10, 'At most 10 sort keys.')),
  offset: opt(z.number().int().min(0)),
  limit: opt(z.number().int().min(0).max(1000, 'Must be at most 1000.')),
  unique_id_field: opt(z.string().min(1).max(255)),
  annotate: opt(z.boolean()),
  value_limit: opt(z.number().int().min(1)),
});
export const FederatedResponse = z.object({
  logs: z.array(
    z.object({ id: z.number().int(), ts: z.string().nullable(), entries: z.record(z.string(), z.unknown()), derived_entries: z.record(z.string(), z.unknown()) }),
  ),
  count: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
});

/** POST /v0/logs/claim (current release): note `project`, not `project_name`. */
export const ClaimBody = z.object({
  project: z.string().min(1, 'Must not be empty.'),
  context: opt(logContext()),
  expect: withoutProtoKey(z.record(z.string().min(1).max(255), z.unknown()).refine((e) => Object.keys(e).length <= 50, 'At most 50 fields.')),
  updates: withoutProtoKey(z.record(z.string().min(1).max(255), z.unknown()).refine((u) => Object.keys(u).length > 0, 'Give at least one field to set.')),
  limit: opt(z.number().int().min(1, 'Must be at least 1.').max(100, 'Must be at most 100.')),
});
export const ClaimResponse = z.object({ claimed: z.array(z.object({ id: z.number().int(), data: z.record(z.string(), z.unknown()) })), count: z.number().int() });

/** The current release's routes this server does not carry out: their bodies are accepted as any object. */
export const AnyObject = jsonObject();

// ---- Sync leases (logs-api.md §9) ----

const LeaseKey = {
  project: z.string().min(1, 'Must not be empty.').max(255),
  lease_key: z.string().min(1, 'Must not be empty.').max(255, 'Must be at most 255 characters.'),
  holder: z.string().min(1, 'Must not be empty.').max(255, 'Must be at most 255 characters.'),
};

export const AcquireLeaseBody = z.object({
  ...LeaseKey,
  ttl_seconds: opt(z.number().min(1, 'Must be at least 1.').max(86_400, 'Must be at most 86 400 (one day).')),
});
export const ReleaseLeaseBody = z.object(LeaseKey);
export const LeaseResponse = z.object({ lease_key: z.string(), holder: z.string(), expires_at: z.string(), acquired: z.boolean() });
export const ReleasedResponse = z.object({ lease_key: z.string(), released: z.boolean() });
