import { sql } from 'kysely';
import type { FieldType } from '../../../shared/logs.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import type { Sql } from './json-sql.ts';
import { contextCondition, contextSelection } from '../contexts/repository.ts';
import { sha256 } from '../../http/idempotency.ts';
import { keptWhileLogsUnchanged } from './kept-reads.ts';

// SQL of the logs API. Logs are the rows of their context (context_rows); field definitions live in
// context_fields. Filters arrive here already compiled (filter-sql.ts) into bound-parameter SQL.

export interface FieldRow {
  id: number;
  name: string;
  data_type: FieldType;
  mutable: number;
  is_unique: number;
  description: string;
  created_at: string;
}

export async function fieldsOf(db: Conn, contextId: number): Promise<FieldRow[]> {
  const rows = await db.selectFrom('context_fields').selectAll().where('context_id', '=', contextId).orderBy('id').execute();
  return rows as FieldRow[];
}

export interface FieldChange {
  name: string;
  data_type: FieldType;
  mutable: boolean;
  unique: boolean;
  description: string;
}

/** New fields are added; `update` lists existing ones whose type or rules a write changed. */
export async function saveFields(tx: Conn, contextId: number, added: FieldChange[], updated: FieldChange[], now: Date): Promise<void> {
  if (added.length) {
    await tx
      .insertInto('context_fields')
      .values(
        added.map((f) => ({
          context_id: contextId,
          name: f.name,
          data_type: f.data_type,
          mutable: f.mutable ? 1 : 0,
          is_unique: f.unique ? 1 : 0,
          description: f.description,
          created_at: now.toISOString(),
        })),
      )
      .onConflict((oc) => oc.columns(['context_id', 'name']).doNothing())
      .execute();
  }
  for (const f of updated) {
    await tx
      .updateTable('context_fields')
      .set({ data_type: f.data_type, mutable: f.mutable ? 1 : 0, is_unique: f.unique ? 1 : 0, description: f.description })
      .where('context_id', '=', contextId)
      .where('name', '=', f.name)
      .execute();
  }
}

/** A deleted field is no longer a derived column either. */
export async function deleteFieldDefinitions(tx: Conn, contextId: number, names: string[]): Promise<void> {
  await tx.deleteFrom('context_fields').where('context_id', '=', contextId).where('name', 'in', names).execute();
  await tx.deleteFrom('log_derived_fields').where('context_id', '=', contextId).where('key', 'in', names).execute();
}

/** A renamed derived column stays derived under its new name. */
export async function renameFieldDefinition(tx: Conn, contextId: number, from: string, to: string): Promise<void> {
  await tx.updateTable('context_fields').set({ name: to }).where('context_id', '=', contextId).where('name', '=', from).execute();
  await tx.updateTable('log_derived_fields').set({ key: to }).where('context_id', '=', contextId).where('key', '=', from).execute();
}

/**
 * Gives `to` the definition (type, rules, description, derived equation) `from` has in the context, where the
 * context has none for `to` yet: a field renamed through another context keeps its type here.
 */
export async function copyFieldDefinition(tx: Conn, contextId: number, from: string, to: string, now: Date): Promise<void> {
  const field = await tx.selectFrom('context_fields').selectAll().where('context_id', '=', contextId).where('name', '=', from).executeTakeFirst();
  if (field) {
    await tx
      .insertInto('context_fields')
      .values({
        context_id: contextId,
        name: to,
        data_type: field.data_type,
        mutable: field.mutable,
        is_unique: field.is_unique,
        description: field.description,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['context_id', 'name']).doNothing())
      .execute();
  }
  const derived = await tx.selectFrom('log_derived_fields').selectAll().where('context_id', '=', contextId).where('key', '=', from).executeTakeFirst();
  if (derived) {
    await tx
      .insertInto('log_derived_fields')
      .values({ context_id: contextId, key: to, equation: derived.equation, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['context_id', 'key']).doNothing())
      .execute();
  }
}

/**
 * Contexts (other than `except`, when given) that hold any of the logs, as their home or as a member (a field
 * rename or delete, or a derived column written over a field, reaches them).
 */
export async function otherContextsOf(tx: Conn, rowIds: number[], except?: number) {
  const found = new Map<number, Awaited<ReturnType<typeof contextById>>>();
  for (let i = 0; i < rowIds.length; i += 500) {
    const chunk = rowIds.slice(i, i + 500);
    const rows = await tx
      .selectFrom('contexts as c')
      .selectAll('c')
      .where('c.id', '<>', except ?? 0)
      .where((eb) =>
        eb.or([
          eb('c.id', 'in', eb.selectFrom('context_rows').select('context_id').where('id', 'in', chunk)),
          eb('c.id', 'in', eb.selectFrom('context_log_members').select('context_id').where('row_id', 'in', chunk)),
        ]),
      )
      .execute();
    for (const r of rows) found.set(Number(r.id), r);
  }
  return [...found.values()].sort((a, b) => Number(a.id) - Number(b.id));
}

/** The contexts each log is a member of (besides its home), in context id order. */
export async function membershipsOf(db: Conn, rowIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  for (let i = 0; i < rowIds.length; i += 500) {
    const rows = await db
      .selectFrom('context_log_members')
      .select(['row_id', 'context_id'])
      .where('row_id', 'in', rowIds.slice(i, i + 500))
      .orderBy('context_id')
      .execute();
    for (const r of rows) {
      const list = out.get(Number(r.row_id)) ?? [];
      list.push(Number(r.context_id));
      out.set(Number(r.row_id), list);
    }
  }
  return out;
}

/** Names of contexts by id. */
export async function contextNames(db: Conn, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('contexts').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** Whether any log of the context (home or member) still has the field (a stored null counts). */
export async function contextHasField(tx: Conn, dialect: Dialect, contextId: number, name: string): Promise<boolean> {
  const has =
    dialect === 'postgres'
      ? sql<boolean>`jsonb_exists(r.entries_jsonb, ${name})`
      : sql<boolean>`exists (select 1 from json_each(r.entries_jsonb) as k where k.key = ${name})`;
  const row = await tx
    .selectFrom('context_rows as r')
    .select('r.id')
    .where(await contextCondition(tx, contextId))
    .where(has)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** The context's list of column names (tiles and the dashboard read it), set after a rename or delete. */
export async function setColumns(tx: Conn, contextId: number, columns: string[]): Promise<void> {
  await tx
    .updateTable('contexts')
    .set({ columns: JSON.stringify(columns) })
    .where('id', '=', contextId)
    .execute();
}

export function contextById(db: Conn, contextId: number) {
  return db.selectFrom('contexts').selectAll().where('id', '=', contextId).executeTakeFirstOrThrow();
}

export interface StoredLog {
  id: number;
  context_id: number;
  project_id: number;
  entries: string;
  created_at: string;
}

/** Logs by id within one scope's projects (the id is global; another tenant's log does not exist for you). */
export async function logsByIds(db: Conn, scopeKey: string, ids: number[]): Promise<StoredLog[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('context_rows as r')
    .innerJoin('contexts as c', 'c.id', 'r.context_id')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .select(['r.id', 'r.context_id', 'c.project_id', 'r.entries', 'r.created_at'])
    .where('p.scope_key', '=', scopeKey)
    .where('r.id', 'in', ids)
    .execute();
}

/** One log in the scope, locked until the transaction ends (PostgreSQL; SQLite writes one at a time anyway). */
export function lockedLog(tx: Conn, scopeKey: string, id: number, dialect: Dialect) {
  let q = tx
    .selectFrom('context_rows as r')
    .innerJoin('contexts as c', 'c.id', 'r.context_id')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .select(['r.id', 'r.context_id', 'r.entries'])
    .where('p.scope_key', '=', scopeKey)
    .where('r.id', '=', id);
  if (dialect === 'postgres') q = q.forUpdate('r');
  return q.executeTakeFirst();
}

/** Logs of a context (home and member logs), optionally only these ids, for writes that rewrite entries (field delete, rename). */
export async function contextLogs(db: Conn, contextId: number, ids?: number[]) {
  let q = db
    .selectFrom('context_rows as r')
    .select(['id', 'entries'])
    .where(await contextCondition(db, contextId));
  if (ids) q = q.where('id', 'in', ids);
  return q.orderBy('id').execute();
}

export interface LogQuery {
  contextId: number;
  /** Conditions over the row (alias `r`), already compiled with bound parameters. */
  where: Sql[];
  order: Sql[];
  /** Joined after the row source, for the order's terms (FilterCompiler.orderByOnce). */
  sortKeys?: Sql[];
  /** The first sort key (over sortKeys) as a number and as a string, and its direction (PostgreSQL: queryLogs' choice of scan). */
  leadKey?: LeadKey;
  limit: number;
  offset: number;
}

/**
 * A log's entries (alias `r` of context_rows) as the filter compiler reads them: their binary JSON copy (jsonb
 * on both databases), parsed once when written (migrations 2026-11-28-02 and 2026-11-29-01).
 */
export const rowEntries = (): Sql => sql.ref('r.entries_jsonb');

/**
 * A page of logs (newest first unless `order` says otherwise) and, unless only ids are asked for, how many
 * match in all. Logs without fields are never returned.
 */
export async function queryLogs(db: Conn, query: LogQuery, idsOnly: boolean) {
  const context = await contextSelection(db, query.contextId);
  const conditions = sql.join([context.condition, sql`r.entries <> '{}'`, ...query.where], sql` and `);
  const order = sql.join([...query.order, sql`r.id desc`]);
  const columns = idsOnly ? sql`r.id` : sql`r.id, r.entries, r.created_at`;
  const keys = query.sortKeys?.length ? sql.join(query.sortKeys, sql` `) : sql``;
  const newestFirst = query.leadKey && context.homeRowsOnly && (await newerLogsSortFirst(db, context.condition, keys, query.leadKey));
  const source = newestFirst
    ? sql`(select r.* from context_rows as r where ${conditions} order by r.id desc offset 0) as r ${keys}`
    : sql`context_rows as r ${keys} where ${conditions}`;
  const page = await sql<{
    id: number;
    entries: string;
    created_at: string;
  }>`select ${columns} from ${source} order by ${order} limit ${query.limit} offset ${query.offset}`.execute(db);
  const rows = page.rows.map((r) => ({ ...r, id: Number(r.id) }));
  // A page that is not full ends the matches: the count is known without counting (unless the offset was past them).
  const ended = rows.length < query.limit && (rows.length > 0 || query.offset === 0);
  const count = idsOnly ? rows.length : ended ? query.offset + rows.length : await countLogs(db, conditions);
  return { rows, count };
}

export interface LeadKey {
  /** The key's value as a number and as a string (NULL when it is not one), over the query's sort keys. */
  num?: Sql;
  str?: Sql;
  descending: boolean;
}

/**
 * Whether the context's newest log sorts before its oldest by the first sort key (a number, or a string such
 * as an ISO time). A sorted page is a top-N sort over every match, and each match that beats the worst of
 * the N kept so far costs a heap update: handed the matches in the key's own order (a key that grows with
 * the logs, such as a step or a time, read newest first for a descending sort), almost none do. Over 33 000
 * matches of 100 000 logs, by `n` descending where n grows with the logs, on PostgreSQL: 81 ms in the
 * table's order, 68 ms newest first through the (context_id, id) index. The index walk costs ~3 ms more
 * than a sequential scan when the key does not follow the logs and ~20 ms more when it runs against them:
 * hence this look at two logs first.
 */
export async function newerLogsSortFirst(db: Conn, condition: Sql, keys: Sql, lead: LeadKey): Promise<boolean> {
  const at = (end: Sql) =>
    sql`(select ${lead.num ?? sql`null::numeric`} as num, ${lead.str ?? sql`null::text`} as str from context_rows as r ${keys} where ${condition} and r.entries <> '{}' order by r.id ${end} limit 1)`;
  const op = lead.descending ? sql`>` : sql`<`;
  const row = (
    await sql<{
      by_num: boolean | null;
      by_str: boolean | null;
    }>`select newest.num ${op} oldest.num as by_num, newest.str collate "C" ${op} oldest.str as by_str from ${at(sql`desc`)} as newest, ${at(sql`asc`)} as oldest`.execute(
      db,
    )
  ).rows[0];
  return (row?.by_num ?? row?.by_str) === true;
}

const keptCount = keptWhileLogsUnchanged<number>();

/**
 * How many logs pass `conditions`: a scan of the context (100–150 ms over 100 000 logs on SQLite), so a count
 * is kept while nothing has written a context's logs (kept-reads.ts). The log explorer pages through one
 * filter's matches: one count, not one per page.
 */
async function countLogs(db: Conn, conditions: Sql): Promise<number> {
  const query = sql<{ n: number | string }>`select count(*) as n from context_rows as r where ${conditions}`;
  const compiled = query.compile(db);
  return keptCount(db, sha256(`${compiled.sql}\0${JSON.stringify(compiled.parameters)}`), async () => Number((await query.execute(db)).rows[0]?.n ?? 0));
}

export interface MetricQuery {
  contextId: number;
  /** Another row source with `r.entries` (a join): replaces the context's rows, contextId is then unused. */
  from?: Sql;
  where: Sql[];
  /** JSON text of each group-by field. */
  groups: Sql[];
}

const baseConditions = async (db: Conn, q: MetricQuery) =>
  sql.join(q.from ? [sql`true`, ...q.where] : [await contextCondition(db, q.contextId), sql`r.entries <> '{}'`, ...q.where], sql` and `);
const source = (q: MetricQuery) => q.from ?? sql`context_rows as r`;
const groupColumns = (q: MetricQuery) => q.groups.map((g, i) => sql`${g} as ${sql.ref(`g${i}`)}`);

/**
 * One aggregate per group: `reduce` over `value` of the rows that pass `where` (and, with `skipNull`, whose
 * value is not NULL); group values come back as JSON text in g0, g1, …
 *
 * The groups and the value are computed once per row in a subquery, which PostgreSQL keeps apart (`offset 0`):
 * in one query it evaluated the value twice (condition and aggregate) and, unable to guess how many groups
 * an expression has (72 000 estimated for 4), sorted the rows with their entries to group them, spilling to
 * disk. The mean of a field by another over 100 000 logs went from 160–190 ms to ~70 ms, hashing 4 groups.
 * SQLite merges the subquery back into one query, as before.
 */
export async function aggregate(db: Conn, dialect: Dialect, q: MetricQuery, value: Sql, reduce: (v: Sql) => Sql, skipNull: boolean): Promise<Record<string, unknown>[]> {
  const refs = q.groups.map((_, i) => sql.ref(`s.g${i}`));
  const rows = sql`select ${sql.join([...groupColumns(q), sql`${value} as v`])} from ${source(q)} where ${await baseConditions(db, q)}${dialect === 'postgres' ? sql` offset 0` : sql``}`;
  const columns = sql.join([...refs.map((ref, i) => sql`${ref} as ${sql.ref(`g${i}`)}`), sql`${reduce(sql.ref('s.v'))} as value`]);
  const keep = skipNull ? sql` where s.v is not null` : sql``;
  const groupBy = refs.length ? sql` group by ${sql.join(refs)}` : sql``;
  return (await sql<Record<string, unknown>>`select ${columns} from (${rows}) as s${keep}${groupBy}`.execute(db)).rows;
}

/** Every value (for medians and modes), with its groups, ordered by value. */
export async function metricValues(db: Conn, q: MetricQuery, value: Sql): Promise<Record<string, unknown>[]> {
  const columns = sql.join([...groupColumns(q), sql`${value} as value`]);
  const result = await sql<Record<string, unknown>>`select ${columns} from ${source(q)} where ${await baseConditions(db, q)} order by value`.execute(db);
  return result.rows;
}
