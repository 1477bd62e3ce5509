import { sql } from 'kysely';
import type { z } from 'zod';
import type { DerivedBody } from '../../../shared/logs-queries.ts';
import { FilterSyntaxError, type FilterNode } from '../../../shared/logs-filter/index.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { scopeKey } from '../../db/scope.ts';
import { badRequestError, DomainError, notFoundError } from '../../domain-errors.ts';
import { withUpdateActions } from '../contexts/foreign-keys.ts';
import { replaceRow, rulesOf } from '../contexts/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { FieldSchema } from './field-schema.ts';
import { FilterCompiler } from './filter-sql.ts';
import type { Sql } from './json-sql.ts';
import { evaluationError } from './reads.ts';
import { contextById, fieldsOf, logsByIds, otherContextsOf, saveFields } from './repository.ts';
import { selectionOf } from './selection.ts';
import { filterError, parseOr422 } from './service.ts';

// POST /v0/logs/derived (logs-api.md §4.9): `key` computed from an equation over `{alias:field}`
// placeholders, stored on the logs of the first alias (the base logs). The equation is parsed by the
// filter language's parser and computed in SQL by its compiler: never evaluated in JavaScript.
//
// A derived column (`derived: true`) is stored in the log's entries and named in log_derived_fields, so
// reads show it under `derived_entries`, filters and sorts see it like any field, and logs created later
// with `recompute_derived: true` get it computed (each alias standing for the new log itself).

type Body = z.output<typeof DerivedBody>;

const PLACEHOLDER = /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^{}]+?)\s*\}/g;

/** `{log:base_value} * 10` → `` `log`["base_value"] * 10 ``: a subscript of the alias, which the compiler resolves against that alias's row. */
export function equationText(equation: string, aliases: string[]): string {
  return equation.replace(PLACEHOLDER, (_m, alias: string, field: string) => {
    if (!aliases.includes(alias)) throw badRequestError(`equation: {${alias}:${field}} names alias "${alias}", which referenced_logs does not give.`);
    return `\`${alias}\`[${JSON.stringify(field)}]`;
  });
}

/** Arithmetic only: numbers and strings, + - * / // % **, unary minus, int()/float()/str()/len(), and placeholders. */
function arithmeticOnly(node: FilterNode, aliases: string[]): void {
  const refuse = (what: string) => {
    throw badRequestError(`equation: ${what} is not supported; use arithmetic over {alias:field} placeholders (+, -, *, /, //, %, **, int(), float(), str(), len()).`);
  };
  switch (node.type) {
    case 'literal':
      if (typeof node.value !== 'number' && typeof node.value !== 'string') refuse(`the constant ${JSON.stringify(node.value)}`);
      return;
    case 'arith':
      arithmeticOnly(node.left, aliases);
      arithmeticOnly(node.right, aliases);
      return;
    case 'negate':
      arithmeticOnly(node.operand, aliases);
      return;
    case 'call':
      if (!['int', 'float', 'str', 'len'].includes(node.name)) refuse(`the function ${node.name}()`);
      for (const a of node.args) arithmeticOnly(a, aliases);
      return;
    case 'index':
      if (node.value.type === 'field' && aliases.includes(node.value.name) && node.index.type === 'literal') return;
      return refuse('a subscript');
    case 'field':
      return refuse(`the bare name "${node.name}" (write {alias:${node.name}})`);
    default:
      return refuse(`a ${node.type} expression`);
  }
}

export function parseEquation(equation: string, aliases: string[]): FilterNode {
  const node = parseOr422(equationText(equation, aliases), ['body', 'equation']);
  if (!node) throw badRequestError('equation must not be empty.');
  arithmeticOnly(node, aliases);
  return node;
}

/** One value per base log: each alias's rows paired by position (oldest first), the equation computed in SQL. */
async function compute(db: Conn, dialect: Dialect, node: FilterNode, sources: [string, Sql][]): Promise<{ id: number; value: unknown }[]> {
  const refs = Object.fromEntries(sources.map(([alias], i) => [alias, sql.ref(`s${i}.entries`)]));
  let value: { num?: Sql; str?: Sql };
  try {
    value = new FilterCompiler(dialect, sql.ref('s0.entries'), refs).scalar(node);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error, ['body', 'equation']);
    throw error;
  }
  const numbered = (rows: Sql, i: number) => sql`(select q.id, q.entries, row_number() over (order by q.id) as n from ${rows} as q) as ${sql.ref(`s${i}`)}`;
  const joins = sources.slice(1).map(([, rows], k) => sql` inner join ${numbered(rows, k + 1)} on ${sql.ref(`s${k + 1}.n`)} = s0.n`);
  const result = await sql<{
    id: number | string;
    num: unknown;
    str: unknown;
  }>`select s0.id as id, ${value.num ?? sql`null`} as num, ${value.str ?? sql`null`} as str from ${numbered(sources[0]![1], 0)}${sql.join(joins, sql``)} order by s0.id`
    .execute(db)
    .catch((error: unknown) => {
      throw evaluationError(error);
    });
  return result.rows.map((r) => ({ id: Number(r.id), value: r.num !== null && r.num !== undefined ? Number(r.num) : (r.str ?? null) }));
}

/** Writes `key` into each log's entries (its field declared or widened as a write would), skipping logs with no value. */
async function store(tx: Conn, key: string, values: { id: number; value: unknown }[], now: Date): Promise<number[]> {
  const rows = new Map(
    (
      await tx
        .selectFrom('context_rows')
        .select(['id', 'context_id', 'entries'])
        .where('id', 'in', values.length ? values.map((v) => v.id) : [0])
        .execute()
    ).map((r) => [r.id, r]),
  );
  const schemas = new Map<number, FieldSchema>();
  const written: number[] = [];
  for (const { id, value } of values) {
    const row = rows.get(id);
    if (!row || value === null || (typeof value === 'number' && !Number.isFinite(value))) continue;
    let schema = schemas.get(row.context_id);
    if (!schema) schemas.set(row.context_id, (schema = new FieldSchema(await fieldsOf(tx, row.context_id))));
    const changes = schema.plan({ fields: { [key]: value }, explicit: {}, inferUntyped: false });
    if ('error' in changes) throw badRequestError(`Log ${id}: ${changes.error}`);
    schema.commit(changes);
    await saveFields(tx, row.context_id, changes.added, changes.updated, now);
    await replaceRow(tx, rulesOf(await contextById(tx, row.context_id)), id, { ...(JSON.parse(row.entries) as Record<string, unknown>), [key]: value }, now);
    written.push(id);
  }
  return written;
}

const idsSource = (ids: number[]) => sql`(select r.id, r.entries from context_rows as r where r.id in (${sql.join(ids)}))`;

/** POST /v0/logs/derived */
export async function createDerived(db: Conn, dialect: Dialect, scope: Scope, body: Body, now: Date) {
  const project = await projectInScopeOr404(db, scope, body.project_name);
  const aliases = Object.keys(body.referenced_logs);
  if (aliases.length === 0) throw badRequestError('referenced_logs must name at least one alias: {"log": [ids]} or {"log": {"context": "C"}}.');
  const node = parseEquation(body.equation, aliases);
  const sources: [string, Sql][] = [];
  const counts: number[] = [];
  for (const alias of aliases) {
    const ref = body.referenced_logs[alias]!;
    if (Array.isArray(ref)) {
      const found = (await logsByIds(db, scopeKey(scope), ref)).filter((r) => r.project_id === project.id);
      const missing = ref.filter((id) => !found.some((r) => r.id === id));
      if (missing.length) throw notFoundError(`referenced_logs.${alias}: logs not found in project '${body.project_name}': ${missing.join(', ')}.`);
      sources.push([alias, idsSource([...new Set(ref)])]);
      counts.push(new Set(ref).size);
    } else {
      const selection = await selectionOf(db, dialect, { id: project.id, name: body.project_name }, ref, ['body', 'referenced_logs', alias]);
      sources.push([alias, selection.rows]);
      const n = await sql<{ n: number | string }>`select count(*) as n from ${selection.rows} as q`.execute(db);
      counts.push(Number(n.rows[0]?.n ?? 0));
    }
  }
  if (new Set(counts).size > 1) {
    throw badRequestError(`referenced_logs: the aliases name ${counts.join(', ')} logs; they are paired by position (oldest first), so each must name as many.`);
  }
  const values = await compute(db, dialect, node, sources);
  const derived = body.derived !== false;
  try {
    return await db.transaction().execute(async (tx) => {
      // Writing the key over existing values changes them in every context of those logs (the entries are
      // shared): foreign keys referencing it there take their on_update action (foreign-keys.ts).
      const ids = values.map((v) => v.id);
      const leaving = ids.length ? (await otherContextsOf(tx, ids)).map((context) => ({ context, ids })) : [];
      const written = await withUpdateActions(tx, project.id, leaving, () => store(tx, body.key, values, now));
      if (derived) {
        const contexts = [
          ...new Set(
            (
              await tx
                .selectFrom('context_rows')
                .select('context_id')
                .where('id', 'in', values.length ? values.map((v) => v.id) : [0])
                .execute()
            ).map((r) => r.context_id),
          ),
        ];
        for (const contextId of contexts) {
          await tx
            .insertInto('log_derived_fields')
            .values({ context_id: contextId, key: body.key, equation: body.equation, created_at: now.toISOString() })
            .onConflict((oc) => oc.columns(['context_id', 'key']).doUpdateSet({ equation: body.equation }))
            .execute();
        }
      }
      return { info: `Computed '${body.key}' for ${written.length} logs.`, key: body.key, derived, log_event_ids: written };
    });
  } catch (error) {
    if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'invalid-field')) throw badRequestError(error.message);
    throw error;
  }
}

/** The derived columns of a context (key → equation). */
export async function derivedOf(db: Conn, contextId: number): Promise<Map<string, string>> {
  const rows = await db.selectFrom('log_derived_fields').select(['key', 'equation']).where('context_id', '=', contextId).orderBy('id').execute();
  return new Map(rows.map((r) => [r.key, r.equation]));
}

/** `recompute_derived` on POST /v0/logs: each derived column of the context, computed for the new logs (every alias is the new log). */
export async function recomputeDerived(tx: Conn, dialect: Dialect, contextId: number, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  for (const [key, equation] of await derivedOf(tx, contextId)) {
    const aliases = [...new Set([...equation.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
    if (aliases.length === 0) aliases.push('log');
    const node = parseEquation(equation, aliases);
    // One value per new log: every alias stands for the same row.
    const values = await compute(
      tx,
      dialect,
      node,
      aliases.map((a) => [a, idsSource(ids)]),
    );
    await store(tx, key, values, now);
  }
}
