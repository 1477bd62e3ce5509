import { sql, type ExpressionBuilder } from 'kysely';
import type { Scope } from '../auth/principal.ts';

/**
 * Filters rows of a scoped table (columns `user_id`, `organization_id`) to one scope:
 * a personal scope sees the user's rows outside any organization; an org scope sees the org's rows.
 * `table` qualifies the columns when the query joins.
 */
export function inScope(scope: Scope, table?: string) {
  // sql.ref: the column is named at run time, so it cannot be checked against the query's tables.
  const col = (c: string) => sql.ref(table ? `${table}.${c}` : c);
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    scope.organizationId === null
      ? eb.and([eb(col('organization_id'), 'is', null), eb(col('user_id'), '=', scope.userId)])
      : eb(col('organization_id'), '=', scope.organizationId);
}

/** The one column that names a scope, for tables unique per scope (personal 'u:<user>', organization 'o:<org>'; NULLs would not clash). */
export const scopeKey = (scope: Scope) => (scope.organizationId === null ? `u:${scope.userId}` : `o:${scope.organizationId}`);
