import { sql } from 'kysely';
import type { z } from 'zod';
import type { GroupsQuery, MetricPath, MetricQuery } from '../../../shared/logs.ts';
import { FilterSyntaxError } from '../../../shared/logs-filter/index.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError } from '../../domain-errors.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { FilterCompiler } from './filter-sql.ts';
import { groupKey } from './groups.ts';
import type { Sql } from './json-sql.ts';
import { aggregate, metricValues, rowEntries } from './repository.ts';
import { contextForRead, filterError, parseOr422 } from './service.ts';

// GET /v0/logs/metric/{metric} (logs-api.md §4.5): reductions in SQL (count, sum, mean, min, max, and
// var/std from sums of squares); median and mode from the values SQL returns in order. Logs lacking the
// key are ignored. var and std are the population ones (numpy's default, ddof=0).

type Metric = z.output<typeof MetricPath>['metric'];
type Query = z.output<typeof MetricQuery>;

/** A parameter that is a plain value or JSON text (`[`/`{` first): a list of names, or a map key → value. */
function jsonOr<T>(text: string | undefined, name: string): T | string | undefined {
  if (text === undefined) return undefined;
  const first = text.trimStart()[0];
  if (first !== '[' && first !== '{') return text;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw badRequestError(`${name} is not valid JSON.`);
  }
}

function names(text: string | undefined, name: string): string[] {
  const value = jsonOr<unknown>(text, name);
  if (value === undefined) return [];
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw badRequestError(`${name} must be a field name or a JSON array of field names.`);
}

/** The value for `key` of a parameter that may be one value for all keys or a JSON object per key. */
function perKey(text: string | undefined, key: string, name: string): string | undefined {
  const value = jsonOr<unknown>(text, name);
  if (value === undefined || typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw badRequestError(`${name}: the value for "${key}" must be a string.`);
    return v;
  }
  throw badRequestError(`${name} must be a string or a JSON object mapping keys to strings.`);
}

function ids(text: string | undefined, name: string): number[] | undefined {
  if (text === undefined || text === '') return undefined;
  const parts = text.split('&').filter((p) => p !== '');
  if (!parts.every((p) => /^\d{1,15}$/.test(p))) throw badRequestError(`${name} must be ids joined with &.`);
  return parts.map(Number);
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function reduceInOrder(metric: 'median' | 'mode', values: unknown[]): unknown {
  if (values.length === 0) return null;
  if (metric === 'median') {
    const nums = values.map(Number);
    const mid = Math.floor(nums.length / 2);
    return nums.length % 2 ? nums[mid] : (nums[mid - 1]! + nums[mid]!) / 2;
  }
  // The most common value, the first one in order on a tie.
  const counts = new Map<string, number>();
  let best: string | null = null;
  for (const v of values.map(String)) {
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (best === null || n > counts.get(best)!) best = v;
  }
  return JSON.parse(best!);
}

export async function reduceKey(
  db: Conn,
  compiler: FilterCompiler,
  base: { contextId: number; where: Sql[]; from?: Sql },
  metric: Metric,
  key: string,
  groups: string[],
) {
  const q = { contextId: base.contextId, from: base.from, where: base.where, groups: groups.map((g) => compiler.fieldJson(g)) };
  const value = compiler.numberField(key);
  const rows: { groups: string[]; value: unknown }[] = [];
  const groupsOf = (r: Record<string, unknown>) =>
    groups.map((_, i) => groupKey(r[`g${i}`] === null || r[`g${i}`] === undefined ? null : JSON.parse(String(r[`g${i}`]))));
  if (metric === 'median' || metric === 'mode') {
    const values = metric === 'mode' ? compiler.fieldJson(key) : value;
    const found = await metricValues(db, { ...q, where: [...q.where, sql`${values} is not null`, metric === 'mode' ? compiler.presentField(key) : sql`true`] }, values);
    const byGroup = new Map<string, { groups: string[]; values: unknown[] }>();
    for (const r of found) {
      const g = groupsOf(r);
      const id = JSON.stringify(g);
      if (!byGroup.has(id)) byGroup.set(id, { groups: g, values: [] });
      byGroup.get(id)!.values.push(r.value);
    }
    for (const { groups: g, values } of byGroup.values()) rows.push({ groups: g, value: reduceInOrder(metric, values) });
    if (groups.length === 0 && rows.length === 0) rows.push({ groups: [], value: null });
    return rows;
  }
  // * 1.0: SQLite divides integers as integers.
  const variance = (v: Sql) => sql`(sum(${v} * ${v}) - sum(${v}) * sum(${v}) * 1.0 / count(${v})) * 1.0 / count(${v})`;
  const reduce: Record<Exclude<Metric, 'median' | 'mode'>, (v: Sql) => Sql> = {
    count: () => sql`count(*)`,
    sum: (v) => sql`sum(${v})`,
    mean: (v) => sql`avg(${v})`,
    min: (v) => sql`min(${v})`,
    max: (v) => sql`max(${v})`,
    var: variance,
    std: variance,
  };
  // count counts the logs holding the key (any value but None); the others reduce its numbers.
  const reduced =
    metric === 'count'
      ? await aggregate(db, compiler.dialect, { ...q, where: [...q.where, compiler.presentField(key)] }, sql`null`, reduce.count, false)
      : await aggregate(db, compiler.dialect, q, value, reduce[metric], true);
  for (const r of reduced) {
    let v = num(r.value);
    if (v !== null && (metric === 'var' || metric === 'std')) v = Math.max(0, v);
    if (v !== null && metric === 'std') v = Math.sqrt(v);
    rows.push({ groups: groupsOf(r), value: metric === 'count' ? (v ?? 0) : v });
  }
  return rows;
}

/** Nested objects, one level per group field, with the leaf `{metric: value}` as the SDK's tests read it. */
export function nest(metric: Metric, rows: { groups: string[]; value: unknown }[]): Record<string, unknown> {
  // Keys are values from the logs: objects without a prototype keep a group called __proto__ a key.
  const out = Object.create(null) as Record<string, unknown>;
  for (const r of rows) {
    let node = out;
    for (const [i, g] of r.groups.entries()) {
      if (i === r.groups.length - 1) node[g] = Object.fromEntries([[metric, r.value]]);
      else node = (node[g] ??= Object.create(null)) as Record<string, unknown>;
    }
  }
  return out;
}

export async function logsMetric(db: Conn, dialect: Dialect, scope: Scope, metric: Metric, query: Query) {
  const project = await projectInScopeOr404(db, scope, query.project_name);
  const keys = names(query.key, 'key');
  if (keys.length === 0) throw badRequestError('Name the field to reduce (key).');
  const groups = names(query.group_by, 'group_by');
  const which = query.filter !== undefined ? 'filter' : 'filter_expr';
  const context = await contextForRead(db, project.id, query.project_name, query.context ?? '');
  const compiler = new FilterCompiler(dialect, rowEntries());
  const result = Object.create(null) as Record<string, unknown>;
  for (const key of keys) {
    const where: Sql[] = [];
    try {
      const filter = parseOr422(perKey(query.filter ?? query.filter_expr, key, which), ['query', which]);
      if (filter) where.push(compiler.where(filter));
      const from = ids(perKey(query.from_ids, key, 'from_ids'), 'from_ids');
      const exclude = ids(perKey(query.exclude_ids, key, 'exclude_ids'), 'exclude_ids');
      if (from) where.push(sql`r.id in (${sql.join(from)})`);
      if (exclude) where.push(sql`r.id not in (${sql.join(exclude)})`);
      const rows = context ? await reduceKey(db, compiler, { contextId: context.id, where }, metric, key, groups) : [];
      result[key] = groups.length ? nest(metric, rows) : (rows[0]?.value ?? (metric === 'count' ? 0 : null));
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw filterError(error, ['query', which]);
      throw error;
    }
  }
  const single = jsonOr<unknown>(query.key, 'key');
  return typeof single === 'string' ? result[single] : result;
}

/** GET /v0/logs/groups: each distinct value of `key` once, ordered by the oldest log holding it. */
export async function logsGroups(db: Conn, dialect: Dialect, scope: Scope, query: z.output<typeof GroupsQuery>) {
  const project = await projectInScopeOr404(db, scope, query.project_name);
  const context = await contextForRead(db, project.id, query.project_name, query.context ?? '');
  const which = query.filter !== undefined ? 'filter' : 'filter_expr';
  const compiler = new FilterCompiler(dialect, rowEntries());
  const where: Sql[] = [];
  try {
    const filter = parseOr422(query.filter ?? query.filter_expr, ['query', which]);
    if (filter) where.push(compiler.where(filter));
    where.push(compiler.presentField(query.key));
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error, ['query', which]);
    throw error;
  }
  if (query.from_ids?.length) where.push(sql`r.id in (${sql.join(query.from_ids)})`);
  if (query.exclude_ids?.length) where.push(sql`r.id not in (${sql.join(query.exclude_ids)})`);
  if (!context) return {};
  const rows = await aggregate(db, dialect, { contextId: context.id, where, groups: [compiler.fieldJson(query.key)] }, sql`r.id`, (id) => sql`min(${id})`, false);
  const ordered = rows.map((r) => ({ value: JSON.parse(String(r.g0)) as unknown, first: Number(r.value) })).sort((a, b) => a.first - b.first);
  return Object.fromEntries(ordered.map((r, i) => [String(i), r.value]));
}
