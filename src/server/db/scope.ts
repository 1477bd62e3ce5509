import type { ExpressionBuilder } from 'kysely';
import type { Scope } from '../auth/principal.ts';

/**
 * Filters rows of a scoped table (columns `user_id`, `organization_id`) to one scope:
 * a personal scope sees the user's rows outside any organization; an org scope sees the org's rows.
 * `table` qualifies the columns when the query joins.
 */
export function inScope(scope: Scope, table?: string) {
  const col = (c: string) => (table ? `${table}.${c}` : c);
  return (eb: ExpressionBuilder<any, any>) =>
    scope.organizationId === null
      ? eb.and([eb(col('organization_id'), 'is', null), eb(col('user_id'), '=', scope.userId)])
      : eb(col('organization_id'), '=', scope.organizationId);
}
