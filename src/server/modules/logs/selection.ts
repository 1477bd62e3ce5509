import { sql } from 'kysely';
import type { LogsSelectionType } from '../../../shared/logs-queries.ts';
import { FilterSyntaxError } from '../../../shared/logs-filter/index.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError } from '../../domain-errors.ts';
import { FilterCompiler } from './filter-sql.ts';
import { FALSE, type Sql } from './json-sql.ts';
import { fieldsOf, rowEntries } from './repository.ts';
import { contextCondition } from '../contexts/repository.ts';
import { contextForRead, filterError, parseOr422 } from './service.ts';

// A set of GET /v0/logs arguments inside a body (a join's pair_of_args, derived referenced_logs): the
// logs of one context of the project, filtered and picked by id, as a SQL row source `(id, entries)`.

export interface Selection {
  /** `(select r.id, r.entries from context_rows … where …)`: bound parameters only. */
  rows: Sql;
  contextId: number | null;
  /** The context's field names in creation order (then any column it lists that has no definition). */
  fields: string[];
}

export async function selectionOf(
  db: Conn,
  dialect: Dialect,
  project: { id: number; name: string },
  args: LogsSelectionType,
  loc: (string | number)[],
): Promise<Selection> {
  if (args.from_ids?.length && args.exclude_ids?.length) throw badRequestError(`${loc.join('.')}: give from_ids or exclude_ids, not both.`);
  const which = args.filter !== undefined ? 'filter' : 'filter_expr';
  const filter = parseOr422(args.filter ?? args.filter_expr, [...loc.map(String), which]);
  const context = await contextForRead(db, project.id, project.name, args.context ?? '');
  const where: Sql[] = [];
  if (!context) where.push(FALSE);
  else where.push(await contextCondition(db, context.id), sql`r.entries <> '{}'`);
  if (filter) {
    try {
      where.push(new FilterCompiler(dialect, rowEntries()).where(filter));
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw filterError(error, [...loc.map(String), which]);
      throw error;
    }
  }
  if (args.from_ids?.length) where.push(sql`r.id in (${sql.join(args.from_ids)})`);
  if (args.exclude_ids?.length) where.push(sql`r.id not in (${sql.join(args.exclude_ids)})`);
  const fields = context ? (await fieldsOf(db, context.id)).map((f) => f.name) : [];
  if (context) for (const c of JSON.parse(context.columns) as string[]) if (!fields.includes(c)) fields.push(c);
  return { rows: sql`(select r.id, r.entries from context_rows as r where ${sql.join(where, sql` and `)})`, contextId: context?.id ?? null, fields };
}
