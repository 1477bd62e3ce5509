import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { canonicalJson } from '../../canonical-json.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequestError, conflictError, invalidField, missingField } from '../../domain-errors.ts';
import type { JsonText } from '../../http/raw-json.ts';
import type { ColumnType } from '../../../shared/projects.ts';
import { checkReferences, foreignKeyRules, foreignKeysAsAnswered, withDeleteActions, type ForeignKeyGiven, type ForeignKeyRule } from './foreign-keys.ts';

export interface ContextRules {
  id: number;
  project_id: number;
  /** Enforced on every write of its logs (foreign-keys.ts). */
  foreign_keys: ForeignKeyRule[];
  is_versioned: number;
  allow_duplicates: number;
  /** column → type ('any' for a list of names without types) */
  unique_keys: Record<string, ColumnType | 'any'>;
  auto_counting: Record<string, string | null>;
  columns: string[];
}

export interface NewContext {
  name: string;
  description?: string | null;
  is_versioned?: boolean;
  allow_duplicates?: boolean;
  unique_keys?: Record<string, ColumnType> | string[];
  auto_counting?: Record<string, string | null>;
  foreign_keys?: ForeignKeyGiven[];
  owner_scope?: string;
  owner_id?: string;
}

export async function createContext(db: Conn, projectId: number, input: NewContext, now: Date): Promise<{ id: number } | null> {
  const uniqueKeys = Array.isArray(input.unique_keys) ? Object.fromEntries(input.unique_keys.map((c) => [c, 'any'])) : (input.unique_keys ?? {});
  const row = await db
    .insertInto('contexts')
    .values({
      project_id: projectId,
      name: input.name,
      description: input.description ?? '',
      is_versioned: input.is_versioned ? 1 : 0,
      allow_duplicates: input.allow_duplicates === false ? 0 : 1,
      unique_keys: JSON.stringify(uniqueKeys),
      auto_counting: JSON.stringify(input.auto_counting ?? {}),
      columns: JSON.stringify([...new Set([...Object.keys(uniqueKeys), ...Object.keys(input.auto_counting ?? {})])]),
      head_commit_id: null,
      created_at: now.toISOString(),
      foreign_keys: JSON.stringify(foreignKeysAsAnswered(input.foreign_keys)),
      owner_scope: input.owner_scope ?? null,
      owner_id: input.owner_id ?? null,
    })
    .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Member logs added to or removed from each versioned context since its HEAD commit (what its next commit
 * records besides changed rows), as rows `(context_id, n)`, for one project's contexts or one context. Removed:
 * a member of the HEAD commit that is no longer one, nor home here. A member log deleted since is no change.
 */
export function memberChangesSinceHead(of: { projectId: number } | { contextId: number }) {
  const which = 'projectId' in of ? sql`mc.project_id = ${of.projectId}` : sql`mc.id = ${of.contextId}`;
  return sql<{ context_id: number; n: number }>`(select changed.context_id, count(*) as n from (
    select m.context_id from context_log_members m join contexts mc on mc.id = m.context_id
    where ${which} and mc.is_versioned = 1
      and not exists (select 1 from commit_members cm where cm.commit_id = coalesce(mc.head_commit_id, 0) and cm.row_id = m.row_id)
    union all
    select mc.id as context_id from contexts mc join commit_members cm on cm.commit_id = mc.head_commit_id join context_rows r on r.id = cm.row_id
    where ${which} and mc.is_versioned = 1 and r.context_id <> mc.id
      and not exists (select 1 from context_log_members m where m.context_id = mc.id and m.row_id = cm.row_id)
  ) as changed group by changed.context_id)`;
}

/**
 * Contexts of a project as the API's JSON array, built by the database itself: one pass in C instead of
 * materializing every column of every row in JavaScript, parsing the JSON columns and serializing again
 * (10 000 contexts went from ~120 ms to ~30 ms a request). `prefix` is literal (no wildcards) and
 * case-sensitive on every database; `name` picks one context.
 *
 * SQLite hands the text over as its UTF-8 bytes (a blob): no decoding into a JavaScript string that would
 * be encoded again for the socket, and no large string on the JavaScript heap (answers over ~128 KB land in
 * its old generation and waited for a full collection: under load they grew the heap by 100+ MB).
 */
export async function contextsJson(db: Conn, dialect: Dialect, projectId: number, filter: { prefix?: string; search?: string; name?: string } = {}): Promise<JsonText> {
  const pg = dialect === 'postgres';
  // On SQLite each JSON function is a call per context: the constants are parsed once, and the empty object
  // or array most contexts store ({} without unique keys or counters, [] without foreign keys) is written
  // without parsing it (1 000 contexts: the object's part ~23 % faster, the whole query ~12 %).
  const bool = (column: string) => (pg ? sql.raw(`(${column} = 1)`) : sql.raw(`case when ${column} then json('true') else json('false') end`));
  const json = (column: string) =>
    pg ? sql.raw(`${column}::json`) : sql.raw(`case ${column} when '{}' then json_object() when '[]' then json_array() else json(${column}) end`);
  const keys = pg
    ? sql.raw(`(select coalesce(json_agg(k), '[]'::json) from json_object_keys(c.unique_keys::json) k)`)
    : sql.raw(`case c.unique_keys when '{}' then json_array() else (select json_group_array(key) from json_each(c.unique_keys)) end`);
  const object = sql`${sql.raw(pg ? 'json_build_object' : 'json_object')}(
    'name', c.name, 'description', c.description,
    'is_versioned', ${bool('c.is_versioned')}, 'allow_duplicates', ${bool('c.allow_duplicates')},
    'unique_keys', ${keys}, 'unique_key_types', ${json('c.unique_keys')}, 'auto_counting', ${json('c.auto_counting')},
    'head_commit_hash', h.hash, 'uncommitted_changes', coalesce(pend.n, 0) + coalesce(mch.n, 0), 'created_at', c.created_at,
    'foreign_keys', ${json('c.foreign_keys')}, 'owner_scope', c.owner_scope, 'owner_id', c.owner_id)`;
  const array = pg
    ? sql<JsonText>`coalesce(json_agg(${object} order by c.name collate "C"), '[]'::json)::text`
    : sql<JsonText>`cast(json_group_array(${object} order by c.name) as blob)`;
  let q = db
    .selectFrom('contexts as c')
    .leftJoin('commits as h', 'h.id', 'c.head_commit_id')
    // Rows changed since HEAD (the dashboard's "uncommitted changes" and the rollback warning): one
    // grouped pass over the project's pending changes rather than a count per context.
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('pending_changes as p')
          .innerJoin('contexts as pc', 'pc.id', 'p.context_id')
          .where('pc.project_id', '=', projectId)
          .select((e) => ['p.context_id', e.fn.countAll().as('n')])
          .groupBy('p.context_id')
          .as('pend'),
      (join) => join.onRef('pend.context_id', '=', 'c.id'),
    )
    // Member logs added or removed since HEAD: changes too.
    .leftJoin(memberChangesSinceHead({ projectId }).as('mch'), (join) => join.onRef('mch.context_id', '=', 'c.id'))
    .select(array.as('list'))
    .where('c.project_id', '=', projectId);
  if (filter.prefix) q = q.where(sql<string>`substr(c.name, 1, ${filter.prefix.length})`, '=', filter.prefix);
  if (filter.search) {
    // LIKE with the text's own wildcards escaped; the database's lower() on both sides, so the two agree on every letter.
    const literal = filter.search.replace(/[\\%_]/g, (c) => `\\${c}`);
    q = q.where(sql<boolean>`lower(c.name) like lower(${`%${literal}%`}) escape '\\'`);
  }
  if (filter.name !== undefined) q = q.where('c.name', '=', filter.name);
  // The default context of the logs API (name "") holds logs written without a context; it is never listed.
  else q = q.where('c.name', '<>', '');
  const row = await q.executeTakeFirstOrThrow();
  return row.list;
}

export function findContext(db: Conn, projectId: number, name: string) {
  return db.selectFrom('contexts').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
}

/**
 * Deletes the context named `name` and, with `withChildren`, every context named `name/…` (not the
 * siblings that merely share a string prefix); rows, fields and history go with them (foreign keys
 * cascade), except logs that are also members of a context that stays: they are re-homed there. Answers the names actually deleted: of two concurrent calls only one gets them.
 */
export async function deleteContexts(db: Conn, projectId: number, name: string, withChildren: boolean): Promise<{ id: number; name: string }[]> {
  const children = `${name}/`;
  const named = await db
    .selectFrom('contexts')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .where((eb) => (withChildren ? eb.or([eb('name', '=', name), eb(sql<string>`substr(name, 1, ${children.length})`, '=', children)]) : eb('name', '=', name)))
    .execute();
  // Foreign keys of other contexts that reference these ones take their on_delete action (foreign-keys.ts).
  const leaving = named.map((c) => ({ context: { id: Number(c.id), name: c.name }, ids: null }));
  const rows = await withDeleteActions(db, projectId, leaving, async () => {
    // Their logs that belong to a context that stays keep living there (logs-api.md §6).
    await rehomeLeaving(
      db,
      named.map((c) => Number(c.id)),
    );
    return db
      .deleteFrom('contexts')
      .where('project_id', '=', projectId)
      .where((eb) => (withChildren ? eb.or([eb('name', '=', name), eb(sql<string>`substr(name, 1, ${children.length})`, '=', children)]) : eb('name', '=', name)))
      .returning(['id', 'name'])
      .execute();
  });
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every context of the project, the default one ("") included, with their rows and history; answers how many. */
export async function deleteAllContexts(db: Conn, projectId: number): Promise<number> {
  const result = await db.deleteFrom('contexts').where('project_id', '=', projectId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The logs (rows) of the project among `ids`: their home context and entries. */
export async function logsInProject(db: Conn, projectId: number, ids: number[]): Promise<Map<number, { context_id: number; entries: string }>> {
  const found = new Map<number, { context_id: number; entries: string }>();
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
    const rows = await db
      .selectFrom('context_rows as r')
      .innerJoin('contexts as c', 'c.id', 'r.context_id')
      .select(['r.id', 'r.context_id', 'r.entries'])
      .where('c.project_id', '=', projectId)
      .where('r.id', 'in', ids.slice(i, i + INSERT_CHUNK))
      .execute();
    for (const r of rows) found.set(Number(r.id), { context_id: Number(r.context_id), entries: r.entries });
  }
  return found;
}

/** Renames a context (rows, fields and history follow: they point at its id); false when the new name is taken. */
export async function renameContext(db: Conn, contextId: number, name: string): Promise<boolean> {
  try {
    await db.updateTable('contexts').set({ name }).where('id', '=', contextId).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export function rulesOf(row: {
  id: number;
  project_id: number;
  is_versioned: number;
  allow_duplicates: number;
  unique_keys: string;
  auto_counting: string;
  columns: string;
  foreign_keys: string;
}): ContextRules {
  return {
    id: row.id,
    project_id: row.project_id,
    foreign_keys: foreignKeyRules(row.foreign_keys),
    is_versioned: row.is_versioned,
    allow_duplicates: row.allow_duplicates,
    unique_keys: JSON.parse(row.unique_keys),
    auto_counting: JSON.parse(row.auto_counting),
    columns: JSON.parse(row.columns),
  };
}

/** Column names of every context of a project (tile templates are checked against them). */
export async function projectColumns(db: Conn, projectId: number): Promise<Map<string, string[]>> {
  const rows = await db.selectFrom('contexts').select(['name', 'columns']).where('project_id', '=', projectId).execute();
  return new Map(rows.map((r) => [r.name, JSON.parse(r.columns) as string[]]));
}

// ---- Membership ----------------------------------------------------------------------------
// A log (row) has one home context (context_rows.context_id: its content is versioned there) and may be a
// member of other contexts (context_log_members). "The logs of a context" are both, everywhere.

/** The logs of context `contextId` (home rows and member logs), as a condition on the row alias. The one condition every read of a context's logs uses. */
export function inContext(contextId: number, alias = 'r') {
  return sql<boolean>`(${sql.ref(`${alias}.context_id`)} = ${contextId} or ${sql.ref(`${alias}.id`)} in (select m.row_id from context_log_members as m where m.context_id = ${contextId}))`;
}

/**
 * The condition of `inContext` for reads of many rows, or the plain home-row condition when the context has
 * no member logs: the OR defeats the `(context_id, id)` indexes (a count of 100 000 logs went from ~4 ms
 * to ~70 ms on SQLite), so contexts without members keep the plans they had.
 */
export async function contextCondition(db: Conn, contextId: number, alias = 'r') {
  return (await contextSelection(db, contextId, alias)).condition;
}

/** contextCondition, and whether it is the plain home-row condition (the context has no member logs). */
export async function contextSelection(db: Conn, contextId: number, alias = 'r') {
  const member = await db.selectFrom('context_log_members').select('row_id').where('context_id', '=', contextId).limit(1).executeTakeFirst();
  return member
    ? { condition: inContext(contextId, alias), homeRowsOnly: false }
    : { condition: sql<boolean>`${sql.ref(`${alias}.context_id`)} = ${contextId}`, homeRowsOnly: true };
}

/** The ids among `ids` already in the context (home or member). */
export async function idsInContext(tx: Conn, contextId: number, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
    const rows = await tx
      .selectFrom('context_rows as r')
      .select('r.id')
      .where('r.id', 'in', ids.slice(i, i + INSERT_CHUNK))
      .where(inContext(contextId))
      .execute();
    for (const r of rows) found.add(Number(r.id));
  }
  return found;
}

/**
 * Makes the logs members of the context, their keys computed under its rules (a missing or mistyped unique
 * key is a 400 naming it). A clash with the context's unique keys or refused duplicates, among its logs or
 * within the batch, is a 400 and the caller's transaction rolls back. Adding a log twice concurrently is a no-op.
 */
export async function addMembers(tx: Conn, rules: ContextRules, rows: { id: number; entries: Record<string, unknown> }[]): Promise<void> {
  const values: { context_id: number; row_id: number; unique_key: string | null; content_hash: string | null }[] = [];
  for (const row of rows) {
    let keys: { uniqueKey: string | null; contentHash: string | null };
    try {
      keys = derive(rules, row.entries, ['log_ids', row.id]);
    } catch (error) {
      throw badRequestError(`Log ${row.id} cannot join this context: ${(error as Error).message}`);
    }
    values.push({ context_id: rules.id, row_id: row.id, unique_key: keys.uniqueKey, content_hash: keys.contentHash });
  }
  const clash = (id: number, what: 'key' | 'content') =>
    badRequestError(
      what === 'key'
        ? `Log ${id} cannot join this context: a log with the same unique key (${Object.keys(rules.unique_keys).join(', ')}) is already in it.`
        : `Log ${id} cannot join this context: an identical log is already in it and the context does not allow duplicates.`,
    );
  const seenKeys = new Map<string, number>();
  const seenContent = new Map<string, number>();
  for (const v of values) {
    if (v.unique_key !== null) {
      if (seenKeys.has(v.unique_key)) throw clash(v.row_id, 'key');
      seenKeys.set(v.unique_key, v.row_id);
    }
    if (v.content_hash !== null) {
      if (seenContent.has(v.content_hash)) throw clash(v.row_id, 'content');
      seenContent.set(v.content_hash, v.row_id);
    }
  }
  await checkClashes(tx, rules.id, [...seenKeys.keys()], [...seenContent.keys()], (what, key) => clash((what === 'key' ? seenKeys : seenContent).get(key)!, what));
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    try {
      await tx
        .insertInto('context_log_members')
        .values(values.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['context_id', 'row_id']).doNothing())
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw badRequestError(`A log cannot join this context: ${clashError(rules, clashOf(error), null).message}`);
      throw error;
    }
  }
}

/** Refuses unique keys or content hashes already held by a log of the context (home rows and members). */
async function checkClashes(
  tx: Conn,
  contextId: number,
  keys: string[],
  hashes: string[],
  error: (what: 'key' | 'content', value: string) => Error,
  exceptRow = 0,
): Promise<void> {
  for (const [what, column, values] of [
    ['key', 'unique_key', keys],
    ['content', 'content_hash', hashes],
  ] as const) {
    for (let i = 0; i < values.length; i += INSERT_CHUNK) {
      const chunk = values.slice(i, i + INSERT_CHUNK);
      const home = await tx
        .selectFrom('context_rows')
        .select(column)
        .where('context_id', '=', contextId)
        .where(column, 'in', chunk)
        .where('id', '<>', exceptRow)
        .limit(1)
        .executeTakeFirst();
      const member = await tx
        .selectFrom('context_log_members')
        .select(column)
        .where('context_id', '=', contextId)
        .where(column, 'in', chunk)
        .where('row_id', '<>', exceptRow)
        .limit(1)
        .executeTakeFirst();
      const hit = (home ?? member)?.[column];
      if (hit) throw error(what, hit);
    }
  }
}

/**
 * Moves a log's home to `to` (a context it is a member of): its keys become the ones computed for that
 * context and the membership row goes. A key another home row of `to` already holds is dropped rather than
 * clashing. Versioned, the new home records the log as changed.
 */
async function rehome(tx: Conn, rowId: number, to: { context_id: number; unique_key: string | null; content_hash: string | null }): Promise<void> {
  const taken = async (column: 'unique_key' | 'content_hash', value: string | null) =>
    value !== null &&
    !!(await tx
      .selectFrom('context_rows')
      .select('id')
      .where('context_id', '=', to.context_id)
      .where(column, '=', value)
      .where('id', '<>', rowId)
      .limit(1)
      .executeTakeFirst());
  const uniqueKey = (await taken('unique_key', to.unique_key)) ? null : to.unique_key;
  const contentHash = (await taken('content_hash', to.content_hash)) ? null : to.content_hash;
  await tx.deleteFrom('context_log_members').where('context_id', '=', to.context_id).where('row_id', '=', rowId).execute();
  await tx.updateTable('context_rows').set({ context_id: to.context_id, unique_key: uniqueKey, content_hash: contentHash }).where('id', '=', rowId).execute();
  const home = await tx.selectFrom('contexts').select('is_versioned').where('id', '=', to.context_id).executeTakeFirstOrThrow();
  await markPending(tx, { id: to.context_id, is_versioned: home.is_versioned }, rowId);
}

/** Re-homes the log to another context it is a member of (not `leaving`); false when there is none. */
export async function rehomeRow(tx: Conn, rowId: number, leaving: number): Promise<boolean> {
  const to = await nextHome(tx, rowId, [leaving]);
  if (to) await rehome(tx, rowId, to);
  return !!to;
}

/** The first (lowest id) context other than `leaving` that the log is a member of, if any. */
async function nextHome(tx: Conn, rowId: number, leaving: number[]) {
  let q = tx.selectFrom('context_log_members').select(['context_id', 'unique_key', 'content_hash']).where('row_id', '=', rowId);
  if (leaving.length) q = q.where('context_id', 'not in', leaving);
  return q.orderBy('context_id').limit(1).executeTakeFirst();
}

/**
 * Before contexts are deleted: their home rows that are members of a context that stays are re-homed there
 * (the rest go with the contexts, which cascade). Logs in no remaining context are thereby deleted.
 */
export async function rehomeLeaving(tx: Conn, contextIds: number[]): Promise<void> {
  if (contextIds.length === 0) return;
  const rows = await tx
    .selectFrom('context_rows as r')
    .innerJoin('context_log_members as m', 'm.row_id', 'r.id')
    .select('r.id')
    .distinct()
    .where('r.context_id', 'in', contextIds)
    .where('m.context_id', 'not in', contextIds)
    .orderBy('r.id')
    .execute();
  for (const r of rows) {
    const to = await nextHome(tx, Number(r.id), contextIds);
    if (to) await rehome(tx, Number(r.id), to);
  }
}

// ---- Rows -----------------------------------------------------------------------------------

const TYPE_CHECKS: Record<ColumnType | 'any', (v: unknown) => boolean> = {
  any: (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v),
  str: (v) => typeof v === 'string',
  int: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => typeof v === 'number' && Number.isFinite(v),
  bool: (v) => typeof v === 'boolean',
  datetime: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /\d{4}-\d{2}-\d{2}T/.test(v),
  date: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v),
  time: (v) => typeof v === 'string' && /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v),
  dict: (v) => !!v && typeof v === 'object' && !Array.isArray(v),
  list: (v) => Array.isArray(v),
};

/** The derived columns of a row under the context's rules; a 422 naming the field when a unique key is missing or mistyped. */
function derive(rules: ContextRules, entries: Record<string, unknown>, loc: (string | number)[]) {
  const keys = Object.keys(rules.unique_keys);
  let uniqueKey: string | null = null;
  if (keys.length > 0) {
    for (const column of keys) {
      const type = rules.unique_keys[column]!;
      if (!(column in entries)) throw missingField([...loc, column], `Required: ${column} is a unique key of this context.`);
      if (!TYPE_CHECKS[type](entries[column])) throw invalidField([...loc, column], `Must be of type ${type} (unique key of this context).`);
    }
    uniqueKey = canonicalJson(keys.map((k) => entries[k]));
  }
  const contentHash = rules.allow_duplicates ? null : createHash('sha256').update(canonicalJson(entries)).digest('hex');
  return { uniqueKey, contentHash };
}

/** Counters start at 0, as the platform's clients expect (logs-api.md §4.1); `next_value` holds the last one issued. */
async function nextCount(tx: Conn, contextId: number, counterKey: string): Promise<number> {
  const row = await tx
    .insertInto('context_counters')
    .values({ context_id: contextId, counter_key: counterKey, next_value: 0 })
    .onConflict((oc) => oc.columns(['context_id', 'counter_key']).doUpdateSet({ next_value: sql`context_counters.next_value + 1` }))
    .returning('next_value')
    .executeTakeFirstOrThrow();
  return Number(row.next_value);
}

function clashError(rules: ContextRules, clash: 'key' | 'content', index: number | null): Error {
  const where = index === null ? '' : ` (row ${index})`;
  if (clash === 'key') {
    return conflictError(`A row with the same unique key (${Object.keys(rules.unique_keys).join(', ')}) already exists${where}.`);
  }
  return conflictError(`An identical row already exists and this context does not allow duplicates${where}.`);
}

/** Which constraint a unique violation broke: the unique key's, or the content hash's (refused duplicates). */
const clashOf = (error: unknown): 'key' | 'content' => (/unique_key/.test(String((error as Error).message ?? '')) ? 'key' : 'content');

export async function rememberColumns(tx: Conn, rules: ContextRules, entries: Record<string, unknown>[]): Promise<void> {
  const known = new Set(rules.columns);
  const before = known.size;
  for (const e of entries) for (const k of Object.keys(e)) known.add(k);
  if (known.size !== before) {
    rules.columns = [...known];
    await tx
      .updateTable('contexts')
      .set({ columns: JSON.stringify(rules.columns) })
      .where('id', '=', rules.id)
      .execute();
  }
}

/** Rows per INSERT statement: far below SQLite's 32 766 and PostgreSQL's 65 535 bound parameters. */
const INSERT_CHUNK = 500;

/**
 * Inserts rows in the caller's transaction, filling counters; a clash anywhere rolls the whole batch back
 * (409). Clashes inside the batch are found here (so the message names the row); rows go in by chunks of
 * multi-row INSERTs, as one statement per row made a 10 000-log batch take seconds.
 */
export async function insertRows(tx: Conn, rules: ContextRules, batch: Record<string, unknown>[], now: Date): Promise<number[]> {
  const at = now.toISOString();
  const values: { context_id: number; entries: string; unique_key: string | null; content_hash: string | null; created_at: string; updated_at: string }[] = [];
  const stored: Record<string, unknown>[] = [];
  const seenKeys = new Set<string>();
  const seenContent = new Set<string>();
  for (const [index, given] of batch.entries()) {
    const entries = { ...given };
    for (const [column, parent] of Object.entries(rules.auto_counting)) {
      if (entries[column] !== undefined && entries[column] !== null) continue;
      const scopeValue = parent === null ? '' : canonicalJson(entries[parent] ?? null);
      entries[column] = await nextCount(tx, rules.id, `${column}\u0001${scopeValue}`);
    }
    const { uniqueKey, contentHash } = derive(rules, entries, ['body', 'entries', index]);
    if (uniqueKey !== null) {
      if (seenKeys.has(uniqueKey)) throw clashError(rules, 'key', index);
      seenKeys.add(uniqueKey);
    }
    if (contentHash !== null) {
      if (seenContent.has(contentHash)) throw clashError(rules, 'content', index);
      seenContent.add(contentHash);
    }
    values.push({ context_id: rules.id, entries: JSON.stringify(entries), unique_key: uniqueKey, content_hash: contentHash, created_at: at, updated_at: at });
    stored.push(entries);
  }
  // The home rows' unique constraints do not see the context's member logs: check those here.
  await checkClashes(tx, rules.id, [...seenKeys], [...seenContent], (what) => clashError(rules, what, null));
  const ids: number[] = [];
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    try {
      const rows = await tx
        .insertInto('context_rows')
        .values(values.slice(i, i + INSERT_CHUNK))
        .returning('id')
        .execute();
      // Ids are drawn in VALUES order within one statement; RETURNING's own order is not promised.
      ids.push(...rows.map((r) => Number(r.id)).sort((a, b) => a - b));
    } catch (error) {
      if (isUniqueViolation(error)) throw clashError(rules, clashOf(error), null);
      throw error;
    }
  }
  if (rules.is_versioned && ids.length) {
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      await tx
        .insertInto('pending_changes')
        .values(ids.slice(i, i + INSERT_CHUNK).map((id) => ({ context_id: rules.id, row_id: id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  await rememberColumns(tx, rules, stored);
  // After the rows are in: a log may reference another of the same batch.
  await checkReferences(tx, rules, stored);
  return ids;
}

/** Merges `changes` into the row's entries (a null value clears a column); false when the row does not exist. */
/** A row's entries, or undefined when the context has no such row. */
export async function rowEntries(tx: Conn, contextId: number, rowId: number): Promise<Record<string, unknown> | undefined> {
  const row = await tx.selectFrom('context_rows as r').select('entries').where('id', '=', rowId).where(inContext(contextId)).executeTakeFirst();
  return row ? (JSON.parse(row.entries) as Record<string, unknown>) : undefined;
}

export async function patchRow(tx: Conn, rules: ContextRules, rowId: number, changes: Record<string, unknown>, now: Date): Promise<boolean> {
  const row = await tx.selectFrom('context_rows as r').select('entries').where('id', '=', rowId).where(inContext(rules.id)).executeTakeFirst();
  if (!row) return false;
  await replaceRow(tx, rules, rowId, { ...(JSON.parse(row.entries) as Record<string, unknown>), ...changes }, now);
  return true;
}

/**
 * Stores `entries` as the row's whole content, under the rules of its home context (unique keys, duplicates,
 * versions); `rules` may be a context the log is a member of. The column lists of all its contexts learn
 * its fields, and the keys of its memberships are computed again, so every context it is in keeps its unique keys.
 */
export async function replaceRow(tx: Conn, rules: ContextRules, rowId: number, entries: Record<string, unknown>, now: Date): Promise<void> {
  const row = await tx.selectFrom('context_rows').select('context_id').where('id', '=', rowId).executeTakeFirst();
  const home =
    !row || Number(row.context_id) === rules.id ? rules : rulesOf(await tx.selectFrom('contexts').selectAll().where('id', '=', row.context_id).executeTakeFirstOrThrow());
  const { uniqueKey, contentHash } = derive(home, entries, ['body', 'entries']);
  // The home context's unique indexes do not see its member logs.
  await checkClashes(tx, home.id, uniqueKey === null ? [] : [uniqueKey], contentHash === null ? [] : [contentHash], (what) => clashError(home, what, null), rowId);
  try {
    await tx
      .updateTable('context_rows')
      .set({ entries: JSON.stringify(entries), unique_key: uniqueKey, content_hash: contentHash, updated_at: now.toISOString() })
      .where('id', '=', rowId)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw clashError(home, clashOf(error), null);
    throw error;
  }
  await markPending(tx, home, rowId);
  await rememberColumns(tx, home, [entries]);
  if (home !== rules) await rememberColumns(tx, rules, [entries]);
  await checkReferences(tx, home, [entries]);
  const memberships = await tx
    .selectFrom('context_log_members as m')
    .innerJoin('contexts as c', 'c.id', 'm.context_id')
    .selectAll('c')
    .where('m.row_id', '=', rowId)
    .execute();
  for (const c of memberships) {
    const member = c.id === rules.id ? rules : rulesOf(c);
    // Every context of the log lists the fields it now has (GET /v0/logs/fields, the dashboard's columns).
    if (member !== rules) await rememberColumns(tx, member, [entries]);
    await checkReferences(tx, member, [entries]);
    if (Object.keys(member.unique_keys).length === 0 && member.allow_duplicates) continue;
    const keys = derive(member, entries, ['body', 'entries']);
    await checkClashes(
      tx,
      member.id,
      keys.uniqueKey === null ? [] : [keys.uniqueKey],
      keys.contentHash === null ? [] : [keys.contentHash],
      (what) => clashError(member, what, null),
      rowId,
    );
    await tx
      .updateTable('context_log_members')
      .set({ unique_key: keys.uniqueKey, content_hash: keys.contentHash })
      .where('context_id', '=', member.id)
      .where('row_id', '=', rowId)
      .execute();
  }
}

/** A versioned context remembers which rows changed since its HEAD (the uncommitted count, the next commit). */
async function markPending(tx: Conn, rules: Pick<ContextRules, 'id' | 'is_versioned'>, rowId: number): Promise<void> {
  if (!rules.is_versioned) return;
  await tx
    .insertInto('pending_changes')
    .values({ context_id: rules.id, row_id: rowId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Removes a log from the context (logs-api.md §4.3): a member log just leaves it; a log whose home it is
 * moves home to another context it belongs to, or is deleted when there is none. For the context's versions
 * a row that no commit of the context holds (added since HEAD, or before the first commit) leaves no change
 * behind: the uncommitted count is the net change, not every step taken. False when the log is not in it.
 */
export async function deleteRow(tx: Conn, rules: ContextRules, rowId: number): Promise<boolean> {
  const row = await tx.selectFrom('context_rows').select('context_id').where('id', '=', rowId).executeTakeFirst();
  if (!row) return false;
  if (Number(row.context_id) !== rules.id) {
    const left = await tx.deleteFrom('context_log_members').where('context_id', '=', rules.id).where('row_id', '=', rowId).executeTakeFirst();
    return Number(left.numDeletedRows) > 0;
  }
  const to = await nextHome(tx, rowId, [rules.id]);
  if (to) await rehome(tx, rowId, to);
  else await tx.deleteFrom('context_rows').where('id', '=', rowId).execute();
  if (!rules.is_versioned) return true;
  const committed = await tx
    .selectFrom('commit_rows as cr')
    .innerJoin('commits as c', 'c.id', 'cr.commit_id')
    .select('cr.row_id')
    .where('c.context_id', '=', rules.id)
    .where('cr.row_id', '=', rowId)
    .limit(1)
    .executeTakeFirst();
  if (committed) await markPending(tx, rules, rowId);
  else await tx.deleteFrom('pending_changes').where('context_id', '=', rules.id).where('row_id', '=', rowId).execute();
  return true;
}

/** Where a batch of a page of rows starts: at an offset, or right after a row id (the batch before's last). */
export interface RowsFrom {
  offset: number;
  after: number | null;
}

/** Stored rows of a context in id order, `entries` as the JSON text they were stored as. */
export async function listRows(db: Conn, contextId: number, from: RowsFrom, limit: number) {
  let query = db
    .selectFrom('context_rows as r')
    .select(['id', 'entries', 'created_at', 'updated_at'])
    .where(await contextCondition(db, contextId));
  if (from.after !== null) query = query.where('id', '>', from.after);
  return query.orderBy('id').limit(limit).offset(from.offset).execute();
}

export async function countRows(db: Conn, contextId: number): Promise<number> {
  const row = await db
    .selectFrom('context_rows as r')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(await contextCondition(db, contextId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
