import { sql } from 'kysely';
import type { z } from 'zod';
import type { ClaimBody, FederatedBody } from '../../../shared/logs-queries.ts';
import { FilterSyntaxError, type FilterNode } from '../../../shared/logs-filter/index.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError, DomainError } from '../../domain-errors.ts';
import { contextCondition, findContext, replaceRow, rulesOf } from '../contexts/repository.ts';
import { findProjectByName } from '../projects/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { derivedOf } from './derived.ts';
import { FieldSchema } from './field-schema.ts';
import { FilterCompiler } from './filter-sql.ts';
import type { Sql } from './json-sql.ts';
import { evaluationError, truncate } from './reads.ts';
import { fieldsOf, rowEntries, saveFields } from './repository.ts';
import { contextForRead, filterError, parseOr422 } from './service.ts';

// The current release's POST /v0/logs/federated and POST /v0/logs/claim (logs-api.md §4.11), in SQL.

const at = { start: 0, end: 0 };

/** A JSON value as a constant node of the filter language (for `field == value` conditions built here). */
function constantNode(value: unknown): FilterNode {
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return { type: 'literal', value, ...at };
  if (Array.isArray(value)) return { type: 'list', items: value.map(constantNode), ...at };
  if (typeof value === 'object') return { type: 'dict', entries: Object.entries(value).map(([k, v]) => [constantNode(k), constantNode(v)]), ...at };
  throw badRequestError(`Unsupported value ${String(value)}.`);
}

const fieldNode = (name: string): FilterNode => ({ type: 'field', name, ...at });

function compiled<T>(loc: string[], fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error, loc);
    throw error;
  }
}

// ---- POST /v0/logs/federated ------------------------------------------------------------------

type Federated = z.output<typeof FederatedBody>;

export async function federatedLogs(db: Conn, dialect: Dialect, scope: Scope, body: Federated) {
  const project = await projectInScopeOr404(db, scope, body.project_name);
  const compiler = new FilterCompiler(dialect, rowEntries());
  const shared = parseOr422(body.filter, ['body', 'filter']);
  const sharedSql = shared ? compiled(['body', 'filter'], () => compiler.where(shared)) : undefined;
  const sources: string[] = [];
  const parts: Sql[] = [];
  const derived = new Map<number, Map<string, string>>();
  for (const [i, spec] of body.contexts.entries()) {
    const source = spec.source ?? spec.context;
    sources.push(source);
    const owner = spec.project_name === undefined || spec.project_name === body.project_name ? project : await findProjectByName(db, scope, spec.project_name);
    // A missing project or context contributes nothing (no error), as the contract has it.
    const context = owner ? await findContext(db, owner.id, spec.context) : undefined;
    if (!context) continue;
    derived.set(i, await derivedOf(db, context.id));
    const own = parseOr422(spec.filter, ['body', 'contexts', String(i), 'filter']);
    const where: Sql[] = [await contextCondition(db, context.id), sql`r.entries <> '{}'`];
    if (own) where.push(compiled(['body', 'contexts', String(i), 'filter'], () => compiler.where(own)));
    if (sharedSql) where.push(sharedSql);
    if (spec.from_fields?.length)
      where.push(
        sql`(${sql.join(
          spec.from_fields.map((f) => compiler.fieldExists(f)),
          sql` or `,
        )})`,
      );
    // The merged rows are sorted by the same compiler: they carry the jsonb copy it reads.
    parts.push(sql`select r.id, r.entries, r.entries_jsonb, r.created_at, cast(${i} as integer) as src from context_rows as r where ${sql.join(where, sql` and `)}`);
  }
  const counts: Record<string, number> = Object.fromEntries(sources.map((s) => [s, 0]));
  if (parts.length === 0) return { logs: [], count: 0, counts };
  const merged = sql`(${sql.join(parts, sql` union all `)}) as r`;

  const order: Sql[] = compiled(['body', 'sorting'], () =>
    (body.sorting ?? []).flatMap((s) => {
      const present = compiler.presentField(s.field);
      const missing = s.missing === 'first' ? sql`${present} asc` : sql`${present} desc`;
      return [missing, ...compiler.orderBy(fieldNode(s.field), s.direction === 'descending')];
    }),
  );
  // Merge order: the sort, then the contexts in the order given, newest first within one.
  const orderBy = sql.join([...order, sql`r.src asc`, sql`r.id desc`]);
  try {
    const perSource = await sql<{ src: number | string; n: number | string }>`select r.src, count(*) as n from ${merged} group by r.src`.execute(db);
    for (const row of perSource.rows) counts[sources[Number(row.src)]!]! += Number(row.n);
    const count = Object.values(counts).reduce((a, b) => a + b, 0);
    const limit = body.limit ?? 100;
    if (limit === 0) return { logs: [], count, counts };
    let rowsFrom = merged;
    if (body.unique_id_field !== undefined) {
      // First in merge order wins among logs with the same value; logs without the field are all kept.
      const uid = compiler.fieldJson(body.unique_id_field);
      rowsFrom = sql`(select r.*, ${uid} as uid, row_number() over (partition by ${uid} order by ${orderBy}) as dup from ${merged}) as r`;
    }
    const keep = body.unique_id_field !== undefined ? sql`where (r.uid is null or r.dup = 1)` : sql``;
    const page = await sql<{
      id: number | string;
      entries: string;
      created_at: string;
      src: number | string;
    }>`select r.id, r.entries, r.created_at, r.src from ${rowsFrom} ${keep} order by ${orderBy} limit ${limit} offset ${body.offset ?? 0}`.execute(db);
    const annotate = body.annotate !== false;
    const logs = page.rows.map((r) => {
      const spec = body.contexts[Number(r.src)]!;
      const keys = derived.get(Number(r.src)) ?? new Map<string, string>();
      // As GET /v0/logs: from_fields also narrows the fields answered; derived columns under derived_entries.
      const stored = Object.entries(JSON.parse(r.entries) as Record<string, unknown>)
        .filter(([k]) => !spec.from_fields?.length || spec.from_fields.includes(k))
        .map(([k, v]): [string, unknown] => [k, body.value_limit === undefined ? v : truncate(v, body.value_limit)]);
      const entries = stored.filter(([k]) => !keys.has(k));
      if (annotate) entries.push(['_federated_source', sources[Number(r.src)]], ['_federated_context', spec.context]);
      return { id: Number(r.id), ts: r.created_at, entries: Object.fromEntries(entries), derived_entries: Object.fromEntries(stored.filter(([k]) => keys.has(k))) };
    });
    return { logs, count, counts };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw evaluationError(error);
  }
}

// ---- POST /v0/logs/claim ----------------------------------------------------------------------

type Claim = z.output<typeof ClaimBody>;

/**
 * Compare-and-set on up to `limit` logs: those whose fields equal every `expect` value (null matches a
 * missing field) get `updates`, in one transaction. PostgreSQL locks the chosen rows and skips rows
 * another claimer holds (FOR UPDATE SKIP LOCKED); SQLite runs one write transaction at a time.
 */
export async function claimLogs(db: Conn, dialect: Dialect, scope: Scope, body: Claim, now: Date) {
  const project = await projectInScopeOr404(db, scope, body.project);
  const context = await contextForRead(db, project.id, body.project, body.context ?? '');
  if (!context) return { claimed: [], count: 0 };
  const compiler = new FilterCompiler(dialect, rowEntries());
  const conditions = compiled(['body', 'expect'], () =>
    Object.entries(body.expect).map(([field, value]) =>
      compiler.where({ type: 'compare', left: fieldNode(field), ops: ['=='], comparators: [constantNode(value)], ...at }),
    ),
  );
  const where = sql.join([await contextCondition(db, context.id), sql`r.entries <> '{}'`, ...conditions], sql` and `);
  const lock = dialect === 'postgres' ? sql` for update skip locked` : sql``;
  try {
    return await db.transaction().execute(async (tx) => {
      const found = await sql<{
        id: number | string;
        entries: string;
      }>`select r.id, r.entries from context_rows as r where ${where} order by r.id limit ${body.limit ?? 1}${lock}`.execute(tx);
      const schema = new FieldSchema(await fieldsOf(tx, context.id));
      const rules = rulesOf(context);
      const claimed: { id: number; data: Record<string, unknown> }[] = [];
      for (const row of found.rows) {
        const entries = JSON.parse(row.entries) as Record<string, unknown>;
        for (const name of Object.keys(body.updates)) {
          if (schema.fields.get(name)?.mutable === false && entries[name] !== undefined && entries[name] !== null) {
            throw badRequestError(`Field '${name}' is immutable: its value cannot be changed.`);
          }
        }
        const changes = schema.plan({ fields: body.updates, explicit: {}, inferUntyped: false });
        if ('error' in changes) throw badRequestError(changes.error);
        schema.commit(changes);
        await saveFields(tx, context.id, changes.added, changes.updated, now);
        const data = { ...entries, ...body.updates };
        await replaceRow(tx, rules, Number(row.id), data, now);
        claimed.push({ id: Number(row.id), data });
      }
      return { claimed, count: claimed.length };
    });
  } catch (error) {
    if (error instanceof DomainError) {
      if (error.kind === 'conflict' || error.kind === 'invalid-field') throw badRequestError(error.message);
      throw error;
    }
    throw evaluationError(error);
  }
}
