import type { Compilable, CompiledQuery, DialectAdapter } from 'kysely';
import { directReadOf, type Conn } from './connection.ts';

// By the database's adapter, which its transactions share: a statement built once serves inside them too.
const compiledByDb = new WeakMap<DialectAdapter, Map<string, CompiledQuery>>();

/**
 * Runs a fixed-shape statement on hot paths (every authenticated request, every audited write) without
 * rebuilding and recompiling it each time: it is built once per database with placeholder values, and later
 * calls only swap the parameters (in a transaction too: pass the transaction). `params` must be in the order
 * the placeholders appear in the SQL. On SQLite, reads outside a transaction run on the connection directly
 * when they may (db/connection.ts, directReadOf).
 */
export async function runPrepared<R>(db: Conn, name: string, build: (db: Conn) => Compilable<R>, params: readonly unknown[]): Promise<R[]> {
  const adapter = db.getExecutor().adapter;
  let cache = compiledByDb.get(adapter);
  if (!cache) compiledByDb.set(adapter, (cache = new Map()));
  let compiled = cache.get(name);
  if (!compiled) {
    compiled = build(db).compile();
    if (compiled.parameters.length !== params.length) {
      throw new Error(`Prepared query ${name} has ${compiled.parameters.length} parameters, got ${params.length}`);
    }
    cache.set(name, compiled);
  }
  const direct = directReadOf(db)?.(compiled.sql, params);
  if (direct) return direct as R[];
  const result = await db.executeQuery<R>({ ...compiled, parameters: params });
  return result.rows;
}

/**
 * An insert of whole rows for runPrepared: `template` names every column of `Row` (a missing one is a compile
 * error; the values are only placeholders), `placeholders` is what the statement is built with, and
 * `params(row)` gives a row's values in the template's order, the order of the statement's placeholders.
 */
export function insertShape<Row>(template: { [C in keyof Row]-?: null }) {
  const columns = Object.keys(template) as (keyof Row)[];
  return { placeholders: template as never, params: (row: Row) => columns.map((c) => row[c]) };
}
