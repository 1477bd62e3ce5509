import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { inScope, scopeKey } from '../../db/scope.ts';

const columns = ['name', 'url', 'model_arg', 'key_name', 'created_at'] as const;

export function listCustomEndpoints(db: Conn, scope: Scope) {
  return db.selectFrom('custom_endpoints').select(columns).where(inScope(scope)).orderBy('name').execute();
}

export interface NewCustomEndpoint {
  name: string;
  url: string;
  model_arg: string;
  key_name?: string | null;
}

/** Inserts unless the name is taken in the scope; returns null on a clash (the unique index decides, so concurrent creates cannot both win). */
export async function createCustomEndpoint(db: Conn, scope: Scope, input: NewCustomEndpoint, now: Date) {
  const row = await db
    .insertInto('custom_endpoints')
    .values({
      user_id: scope.userId,
      organization_id: scope.organizationId,
      scope_key: scopeKey(scope),
      name: input.name,
      url: input.url,
      model_arg: input.model_arg,
      key_name: input.key_name ?? null,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['scope_key', 'name']).doNothing())
    .returning(columns)
    .executeTakeFirst();
  return row ?? null;
}

/** True when a row was deleted. */
export async function deleteCustomEndpoint(db: Conn, scope: Scope, name: string): Promise<boolean> {
  const result = await db.deleteFrom('custom_endpoints').where('scope_key', '=', scopeKey(scope)).where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes the user's personal endpoints; part of account deletion (an organization's stay with it). */
export async function deletePersonalCustomEndpoints(db: Conn, userId: string): Promise<void> {
  await db
    .deleteFrom('custom_endpoints')
    .where('scope_key', '=', scopeKey({ userId, organizationId: null }))
    .execute();
}
