import { sql } from 'kysely';
import { FilterSyntaxError, parseFilter } from '../../../shared/logs-filter/index.ts';
import { FilterCompiler } from './filter-sql.ts';

/**
 * What is wrong with a filter saved for later use (a dashboard tile's), or null when it would run: it is
 * parsed and compiled as a read would (compiling builds SQL without running it, so the dialect does not
 * matter), so functions and constructs this server does not evaluate are found now, not when the tile reads.
 */
export function filterProblem(text: string): FilterSyntaxError | null {
  try {
    const node = parseFilter(text);
    if (node) new FilterCompiler('sqlite', sql`entries`).where(node);
    return null;
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error;
    throw error;
  }
}
