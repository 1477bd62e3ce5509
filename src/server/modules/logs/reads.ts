import { sql } from 'kysely';
import type { z } from 'zod';
import type { LogsQuery } from '../../../shared/logs.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import type { MaybePromise } from '../../db/epoch-cache.ts';
import { badRequestError } from '../../domain-errors.ts';
import { sha256 } from '../../http/idempotency.ts';
import { keptPerQuery } from '../../http/kept-queries.ts';
import { RawJson } from '../../http/raw-json.ts';
import { FilterSyntaxError, parseFilter } from '../../../shared/logs-filter/index.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { FilterCompiler } from './filter-sql.ts';
import { hasKeyOutside, type Sql } from './json-sql.ts';
import { derivedOf } from './derived.ts';
import { flatGroups, nestedGroups, type Row } from './groups.ts';
import { keptWhileLogsUnchanged } from './kept-reads.ts';
import { queryLogs, rowEntries, type LeadKey } from './repository.ts';
import { contextForRead, filterError, parseOr422 } from './service.ts';

// GET /v0/logs (logs-api.md §4.4): filter, sort and page in SQL; shape the rows in JavaScript.

/**
 * A read without `limit` (the 2026-04 client never sends one and expects every log) returns up to this
 * many; `count` tells whether there are more. Explicit limits are 1–1000 as on the hosted platform.
 */
export const MAX_UNPAGED_LOGS = 10_000;

type Query = z.output<typeof LogsQuery>;

/**
 * `{"field or expression": "ascending" | "descending"}`, in priority order. With `idColumn`, the key
 * `log_id` is the log's id (the hosted platform's pseudo-field, logs-api.md §11.2), not an entry.
 */
/**
 * `from`: where sort keys computed once per row go (FilterCompiler.orderByOnce), for a query that joins them;
 * `lead` then learns the first key's value (as a number, as a string) and direction (queryLogs' choice of scan).
 */
export function sortTerms(
  compiler: FilterCompiler,
  text: string | undefined,
  loc: string[] = ['query', 'sorting'],
  idColumn?: Sql,
  from?: Sql[],
  lead?: { key?: LeadKey },
): Sql[] {
  if (text === undefined || text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequestError('sorting must be a JSON object such as {"score": "descending"}.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequestError('sorting must be a JSON object such as {"score": "descending"}.');
  return Object.entries(parsed).flatMap(([key, direction], index) => {
    const dir = typeof direction === 'string' ? direction.toLowerCase() : '';
    if (!['ascending', 'descending', 'asc', 'desc'].includes(dir)) throw badRequestError(`sorting: the direction of "${key}" must be "ascending" or "descending".`);
    if (idColumn && key.trim() === 'log_id') return [dir.startsWith('desc') ? sql`${idColumn} desc` : sql`${idColumn} asc`];
    let node;
    try {
      node = parseFilter(key);
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw filterError(error, [...loc, key]);
      throw error;
    }
    if (!node) throw badRequestError('sorting: a key must not be empty.');
    try {
      const descending = dir.startsWith('desc');
      if (!from) return compiler.orderBy(node, descending);
      const { terms, num, str } = compiler.orderByOnce(node, descending, from);
      if (index === 0 && lead && (num || str)) lead.key = { num, str, descending };
      return terms;
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw filterError(error, [...loc, key]);
      throw error;
    }
  });
}

/** `value_limit`: long values are cut to their first N characters followed by `...` (output only). */
export function truncate(value: unknown, limit: number): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}...` : value;
}

/**
 * PostgreSQL refuses some arithmetic a filter asks for (`x ** 1000` overflows numeric): a data exception
 * (SQLSTATE class 22) is the filter's fault, so it is a 400 that says so, not a 500.
 */
export function evaluationError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('22')) return badRequestError(`The filter could not be evaluated: ${(error as Error).message}.`);
  return error;
}

/**
 * The answer of a plain read, each log's entries as stored (JSON text the server wrote, valid by construction)
 * instead of parsed and serialized again: of a 1 000-log page's ~15–20 ms of server time, most was that.
 */
function asStored(rows: { id: number; entries: string; created_at: string }[], count: number): RawJson {
  const logs = rows.map((r) => `{"id":${r.id},"ts":${JSON.stringify(r.created_at)},"entries":${r.entries},"derived_entries":{}}`);
  return new RawJson(`{"logs":[${logs.join(',')}],"count":${count}}`);
}

/** A plain read's answer of at most this size is kept; at most 256 of them (16 MB). */
const KEPT_ANSWER_BYTES = 64 * 1024;
type Answer = Awaited<ReturnType<typeof answerLogs>>;
const keptAnswer = keptWhileLogsUnchanged<Answer>({ maxEntries: 256, keep: (answer) => answer instanceof RawJson && answer.json.length <= KEPT_ANSWER_BYTES });

/**
 * GET /v0/logs. The answer depends on the caller's scope, the query and the logs' tables only, so a plain read
 * (the logs as stored: not ids only, no field selection, value limit, derived field or grouping) of up to
 * 64 KB is kept while nothing writes those tables (kept-reads.ts): a dashboard or a client asking the same page
 * again is answered without reading the context again (a filtered, sorted page of 20 of 10 000 logs: ~20 ms of
 * SQLite).
 */
export function readLogs(db: Conn, dialect: Dialect, scope: Scope, query: Query): MaybePromise<Answer> {
  return keptAnswer(db, `${scope.userId}/${scope.organizationId}/${queryDigest(query)}`, () => answerLogs(db, dialect, scope, query));
}

/**
 * A query's part of its kept answer's key. zod's output lists the schema's fields in its own order: equal
 * queries are equal text (at worst, a miss). Made once per query shared by the requests that send the same
 * query string (http/kept-queries.ts); the text and its hash were ~13 µs of such a read.
 */
const queryDigest = keptPerQuery((query: Query) => sha256(JSON.stringify(query)));

async function answerLogs(db: Conn, dialect: Dialect, scope: Scope, query: Query) {
  if (query.from_ids?.length && query.exclude_ids?.length) throw badRequestError('Give from_ids or exclude_ids, not both.');
  if (query.from_fields?.length && query.exclude_fields?.length) throw badRequestError('Give from_fields or exclude_fields, not both.');
  const project = await projectInScopeOr404(db, scope, query.project_name);
  const which = query.filter !== undefined ? 'filter' : 'filter_expr';
  const filter = parseOr422(query.filter ?? query.filter_expr, ['query', which]);
  const compiler = new FilterCompiler(dialect, rowEntries());
  const where: Sql[] = [];
  let order: Sql[];
  const sortKeys: Sql[] = [];
  const lead: { key?: LeadKey } = {};
  try {
    if (filter) where.push(compiler.where(filter));
    if (query.from_fields?.length)
      where.push(
        sql`(${sql.join(
          query.from_fields.map((f) => compiler.fieldExists(f)),
          sql` or `,
        )})`,
      );
    order = sortTerms(compiler, query.sorting, undefined, sql`r.id`, sortKeys, lead);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error, ['query', which]);
    throw error;
  }
  if (query.from_ids?.length) where.push(sql`r.id in (${sql.join(query.from_ids)})`);
  if (query.exclude_ids?.length) where.push(sql`r.id not in (${sql.join(query.exclude_ids)})`);
  if (query.exclude_fields?.length) where.push(hasKeyOutside(dialect, rowEntries(), query.exclude_fields));

  const context = await contextForRead(db, project.id, query.project_name, query.context ?? '');
  if (!context) return query.return_ids_only ? [] : { logs: [], count: 0 };
  const page = await queryLogs(
    db,
    { contextId: context.id, where, order, sortKeys, leadKey: lead.key, limit: query.limit ?? MAX_UNPAGED_LOGS, offset: query.offset ?? 0 },
    !!query.return_ids_only,
  ).catch((error: unknown) => {
    throw evaluationError(error);
  });
  if (query.return_ids_only) return page.rows.map((r) => r.id);

  const keep = query.from_fields?.length ? new Set(query.from_fields) : null;
  const drop = new Set(query.exclude_fields ?? []);
  const limit = query.value_limit;
  // Derived columns (POST /v0/logs/derived) are stored with the entries and answered under derived_entries.
  const derived = await derivedOf(db, context.id);
  if (!keep && drop.size === 0 && limit === undefined && derived.size === 0 && !query.group_by?.length) return asStored(page.rows, page.count);
  const rows: Row[] = page.rows.map((r) => {
    // fromEntries defines own properties: a field named __proto__ stays a field.
    const kept = Object.entries(JSON.parse(r.entries) as Record<string, unknown>)
      .filter(([k]) => !((keep && !keep.has(k)) || drop.has(k)))
      .map(([k, v]): [string, unknown] => [k, limit === undefined ? v : truncate(v, limit)]);
    const entries = Object.fromEntries(kept.filter(([k]) => !derived.has(k)));
    return { id: r.id, ts: r.created_at, entries, derived_entries: Object.fromEntries(kept.filter(([k]) => derived.has(k))) };
  });
  if (!query.group_by?.length) return { logs: rows, count: page.count };
  const options = {
    fields: query.group_by,
    limit: query.group_limit,
    offset: query.group_offset ?? 0,
    depth: query.group_depth,
    groupsOnly: !!query.groups_only,
    timestamps: !!query.return_timestamps,
  };
  if (query.nested_groups === false) return { groups: flatGroups(rows, options), logs: rows, count: page.count };
  return { logs: nestedGroups(rows, options) as Record<string, unknown>, count: page.count };
}
