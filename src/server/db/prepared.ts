import type { Compilable, CompiledQuery } from 'kysely';
import { directReadOf, type Conn } from './connection.ts';

const compiledByDb = new WeakMap<Conn, Map<string, CompiledQuery>>();

/**
 * Runs a fixed-shape query on hot paths (every authenticated request) without rebuilding and
 * recompiling it each time: it is built once per database with placeholder values, and later calls
 * only swap the parameters. `params` must be in the order the placeholders appear in the SQL. On SQLite,
 * reads run on the connection directly when they may (db/connection.ts, directReadOf).
 */
export async function runPrepared<R>(db: Conn, name: string, build: (db: Conn) => Compilable<R>, params: readonly unknown[]): Promise<R[]> {
  let cache = compiledByDb.get(db);
  if (!cache) compiledByDb.set(db, (cache = new Map()));
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
