import { sql } from 'kysely';
import type { z } from 'zod';
import type { JoinBody, JoinMode, JoinQueryBody } from '../../../shared/logs-queries.ts';
import { FilterSyntaxError, FilterUnsupportedError, type FilterNode } from '../../../shared/logs-filter/index.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError, DomainError } from '../../domain-errors.ts';
import { createContext, findContext, insertRows, rulesOf } from '../contexts/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { FieldSchema } from './field-schema.ts';
import { FilterCompiler } from './filter-sql.ts';
import { sqliteKeyStep, type Sql } from './json-sql.ts';
import { nest, reduceKey } from './metrics.ts';
import { evaluationError, sortTerms } from './reads.ts';
import { saveFields } from './repository.ts';
import { selectionOf } from './selection.ts';
import { filterError, parseOr422 } from './service.ts';

// Joins of two selections of logs (logs-api.md §4.10), entirely in SQL: each selection is a row source
// (selection.ts) aliased A or B, `join_expr` is compiled by the filter compiler with those two aliases,
// the output columns are built as a JSON object per joined row, and the output filter, sort, page and
// reductions run over that object as they do over a context's rows. JavaScript only shapes the answer.

type JoinQuery = z.output<typeof JoinQueryBody>;
type Join = z.output<typeof JoinBody>;
type Alias = 'A' | 'B';

/** An output column: its name and where its value comes from (the first source holding it wins). */
interface Column {
  name: string;
  from: { alias: Alias; field: string }[];
}

/** `A.x` / `B.x` → the source and field; a bare `x` is taken from A, or from B where A lacks it. */
function sourceOf(ref: string): Column['from'] {
  const m = /^([AB])\.(.+)$/.exec(ref);
  if (m) return [{ alias: m[1] as Alias, field: m[2]! }];
  return [
    { alias: 'A', field: ref },
    { alias: 'B', field: ref },
  ];
}

function outputColumns(columns: JoinQuery['columns'], fieldsA: string[], fieldsB: string[]): Column[] {
  if (columns === undefined) {
    // Every field of both; a name both have is one column: A's value, or B's where A's row lacks it.
    const names = [...new Set([...fieldsA, ...fieldsB])];
    return names.map((name) => ({
      name,
      from: [...(fieldsA.includes(name) ? [{ alias: 'A' as const, field: name }] : []), ...(fieldsB.includes(name) ? [{ alias: 'B' as const, field: name }] : [])],
    }));
  }
  const pairs: [string, string][] = Array.isArray(columns) ? columns.map((c) => [c, /^[AB]\./.test(c) ? c.slice(2) : c]) : Object.entries(columns);
  const out: Column[] = [];
  for (const [ref, name] of pairs) {
    if (name === '') throw badRequestError(`columns: "${ref}" names no field.`);
    if (out.some((c) => c.name === name)) {
      throw badRequestError(
        `columns: two columns are both called "${name}"; name them apart with a mapping such as {"A.${name}": "a_${name}", "B.${name}": "b_${name}"}.`,
      );
    }
    out.push({ name, from: sourceOf(ref) });
  }
  return out;
}

/** JSON text of the value at one top-level field of a JSON text column; NULL when missing. */
function fieldJson(dialect: Dialect, entries: Sql, field: string): Sql {
  if (dialect === 'sqlite') return sql`(${entries} -> ${`$${sqliteKeyStep(field)}`})`;
  return sql`(cast(${entries} as jsonb) -> cast(${field} as text))`;
}

/** The output object of a joined row (j.a_entries, j.b_entries), with every column (null where no source has it). */
function outputObject(dialect: Dialect, columns: Column[]): Sql {
  const entriesOf = (alias: Alias) => sql.ref(alias === 'A' ? 'j.a_entries' : 'j.b_entries');
  const value = (c: Column) => {
    const parts = c.from.map((f) => fieldJson(dialect, entriesOf(f.alias), f.field));
    const first = parts.length === 1 ? parts[0]! : sql`coalesce(${sql.join(parts)})`;
    // json(): SQLite embeds the value as JSON, not as a string holding JSON.
    return dialect === 'sqlite' ? sql`json(${first})` : first;
  };
  // Functions take at most 100 arguments on PostgreSQL: 50 columns per object, merged.
  const chunks: Sql[] = [];
  for (let i = 0; i < columns.length; i += 50) {
    const pairs = columns.slice(i, i + 50).flatMap((c) => (dialect === 'sqlite' ? [sql`${c.name}`, value(c)] : [sql`cast(${c.name} as text)`, value(c)]));
    chunks.push(dialect === 'sqlite' ? sql`json_object(${sql.join(pairs)})` : sql`jsonb_build_object(${sql.join(pairs)})`);
  }
  if (chunks.length === 0) return dialect === 'sqlite' ? sql`json_object()` : sql`cast('{}' as jsonb)`;
  // SQLite's json_patch drops null members of the later object: they read as None either way.
  return chunks.slice(1).reduce((acc, c) => (dialect === 'sqlite' ? sql`json_patch(${acc}, ${c})` : sql`(${acc} || ${c})`), chunks[0]!);
}

/** The joined pairs `(a_id, a_entries, b_id, b_entries)`: RIGHT and FULL joins are written as LEFT joins, which any condition allows on both databases. */
function joinedPairs(mode: JoinMode, a: Sql, b: Sql, on: Sql): Sql {
  const cols = sql`a.id as a_id, a.entries as a_entries, b.id as b_id, b.entries as b_entries`;
  switch (mode) {
    case 'inner':
      return sql`select ${cols} from ${a} as a inner join ${b} as b on ${on}`;
    case 'left':
      return sql`select ${cols} from ${a} as a left join ${b} as b on ${on}`;
    case 'right':
      return sql`select ${cols} from ${b} as b left join ${a} as a on ${on}`;
    case 'outer':
      return sql`select ${cols} from ${a} as a left join ${b} as b on ${on} union all select null as a_id, null as a_entries, b.id as b_id, b.entries as b_entries from ${b} as b where not exists (select 1 from ${a} as a where ${on})`;
  }
}

interface Planned {
  /** `(select j.*, <output> as entries from (<pairs>) as j) as r`: rows with `r.entries` like a context's. */
  from: Sql;
  columns: Column[];
}

async function plan(db: Conn, dialect: Dialect, scope: Scope, body: JoinQuery | Join): Promise<Planned & { project: { id: number; name: string } }> {
  const project = await projectInScopeOr404(db, scope, body.project_name);
  const [a, b] = await Promise.all(
    body.pair_of_args.map((args, i) => selectionOf(db, dialect, { id: project.id, name: body.project_name }, args, ['body', 'pair_of_args', i])),
  );
  const node = parseOr422(body.join_expr, ['body', 'join_expr'])!;
  let on: Sql;
  try {
    on = new FilterCompiler(dialect, sql.ref('a.entries'), { A: sql.ref('a.entries'), B: sql.ref('b.entries') }).where(node);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error, ['body', 'join_expr']);
    throw error;
  }
  const columns = outputColumns(body.columns, a!.fields, b!.fields);
  for (const c of columns) {
    if (c.name.includes('"') || c.from.some((f) => f.field.includes('"')))
      throw badRequestError(`columns: "${c.name}": field names containing a double quote are not supported.`);
  }
  const pairs = joinedPairs(body.mode, a!.rows, b!.rows, on);
  const from = sql`(select j.a_id, j.a_entries, j.b_id, j.b_entries, ${outputObject(dialect, columns)} as entries from (${pairs}) as j) as r`;
  return { from, columns, project: { id: project.id, name: body.project_name } };
}

/** The output row of a pair, built from the stored entries themselves (key order and values exactly as stored). */
function rowOf(columns: Column[], a: string | null, b: string | null): Record<string, unknown> {
  const sources = { A: a === null ? null : (JSON.parse(a) as Record<string, unknown>), B: b === null ? null : (JSON.parse(b) as Record<string, unknown>) };
  const out: [string, unknown][] = [];
  for (const c of columns) {
    for (const f of c.from) {
      const entries = sources[f.alias];
      if (entries && Object.hasOwn(entries, f.field)) {
        out.push([c.name, entries[f.field]]);
        break;
      }
    }
  }
  return Object.fromEntries(out);
}

const textOf = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

function compileOutput(dialect: Dialect, node: FilterNode | null, loc: string[]): Sql[] {
  if (!node) return [];
  try {
    return [new FilterCompiler(dialect, sql.ref('r.entries')).where(node)];
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error, loc);
    throw error;
  }
}

/** The §4.10 combinations a reduction refuses, each with what to change. */
function refuseCombinations(body: JoinQuery): void {
  const hasGroups = body.group_by !== undefined;
  if (body.key !== undefined && body.metric === undefined) throw badRequestError('key needs metric: give both to reduce the joined rows, or neither to read them.');
  if (body.metric !== undefined && body.key === undefined) throw badRequestError('metric needs key: name the output column to reduce.');
  if (hasGroups && body.metric === undefined) throw badRequestError('group_by needs metric and key: grouping applies to reductions only.');
  if (body.metric !== undefined) {
    const extra = [body.sorting !== undefined && 'sorting', body.limit !== undefined && 'limit', (body.offset ?? 0) !== 0 && 'a non-zero offset'].filter(Boolean);
    if (extra.length) throw badRequestError(`${extra.join(', ')} cannot be combined with metric: a reduction answers one value (or one per group).`);
  }
}

/** POST /v0/logs/join_query */
export async function joinQuery(db: Conn, dialect: Dialect, scope: Scope, body: JoinQuery): Promise<unknown> {
  refuseCombinations(body);
  const planned = await plan(db, dialect, scope, body);
  const which = body.filter !== undefined ? 'filter' : 'filter_expr';
  const where = compileOutput(dialect, parseOr422(body.filter ?? body.filter_expr, ['body', which]), ['body', which]);
  const compiler = new FilterCompiler(dialect, sql.ref('r.entries'));
  try {
    if (body.metric !== undefined) {
      const groups = body.group_by === undefined ? [] : Array.isArray(body.group_by) ? body.group_by : [body.group_by];
      let rows;
      try {
        rows = await reduceKey(db, compiler, { contextId: 0, from: planned.from, where }, body.metric, body.key!, groups);
      } catch (error) {
        if (error instanceof FilterUnsupportedError) throw filterError(error, ['body', 'key']);
        throw error;
      }
      return groups.length ? nest(body.metric, rows) : (rows[0]?.value ?? (body.metric === 'count' ? 0 : null));
    }
    const sorting = typeof body.sorting === 'object' ? JSON.stringify(body.sorting) : body.sorting;
    const order = sql.join([...sortTerms(compiler, sorting, ['body', 'sorting']), sql`r.a_id asc nulls last`, sql`r.b_id asc nulls last`]);
    const conditions = sql.join([sql`true`, ...where], sql` and `);
    const [page, total] = await Promise.all([
      sql<{
        a_entries: unknown;
        b_entries: unknown;
        a_id: unknown;
        b_id: unknown;
      }>`select r.a_id, r.a_entries, r.b_id, r.b_entries from ${planned.from} where ${conditions} order by ${order} limit ${body.limit ?? 1000} offset ${body.offset ?? 0}`.execute(
        db,
      ),
      sql<{ n: number | string }>`select count(*) as n from ${planned.from} where ${conditions}`.execute(db),
    ]);
    const logs = page.rows.map((r) => ({
      id: null,
      ts: null,
      entries: rowOf(planned.columns, textOf(r.a_entries), textOf(r.b_entries)),
      derived_entries: {},
      join_ids: { A: r.a_id === null ? null : Number(r.a_id), B: r.b_id === null ? null : Number(r.b_id) },
    }));
    return { logs, count: Number(total.rows[0]?.n ?? 0) };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw evaluationError(error);
  }
}

/** At most this many joined rows are written by one POST /v0/logs/join. */
export const MAX_MATERIALISED_ROWS = 100_000;

/** POST /v0/logs/join: the joined rows as new logs of `new_context`, created in the same transaction. */
export async function joinLogs(db: Conn, dialect: Dialect, scope: Scope, body: Join, now: Date) {
  const planned = await plan(db, dialect, scope, body);
  return db.transaction().execute(async (tx) => {
    if (await findContext(tx, planned.project.id, body.new_context)) {
      throw badRequestError(`Context '${body.new_context}' already exists in project '${body.project_name}': choose another new_context, or delete it first.`);
    }
    const found = await sql<{
      a_entries: unknown;
      b_entries: unknown;
    }>`select r.a_entries, r.b_entries from ${planned.from} order by r.a_id asc nulls last, r.b_id asc nulls last limit ${MAX_MATERIALISED_ROWS + 1}`
      .execute(tx)
      .catch((error: unknown) => {
        throw evaluationError(error);
      });
    if (found.rows.length > MAX_MATERIALISED_ROWS) {
      throw badRequestError(`The join has more than ${MAX_MATERIALISED_ROWS} rows: narrow the selections (filter, from_ids) and join in parts.`);
    }
    const rows = found.rows.map((r) => rowOf(planned.columns, textOf(r.a_entries), textOf(r.b_entries))).filter((e) => Object.keys(e).length > 0);
    const created = await createContext(tx, planned.project.id, { name: body.new_context }, now);
    if (!created) throw badRequestError(`Context '${body.new_context}' already exists in project '${body.project_name}'.`);
    const context = await findContext(tx, planned.project.id, body.new_context);
    const schema = new FieldSchema([]);
    for (const fields of rows) {
      const changes = schema.plan({ fields, explicit: {}, inferUntyped: false });
      if ('error' in changes) throw badRequestError(`The joined rows cannot share one context: ${changes.error}`);
      schema.commit(changes);
      await saveFields(tx, context!.id, changes.added, changes.updated, now);
    }
    const ids = await insertRows(tx, rulesOf(context!), rows, now);
    return { info: `Joined ${ids.length} rows into '${body.new_context}'.`, context: body.new_context, log_event_ids: ids, count: ids.length };
  });
}
