import { sql, type Expression, type SqlBool } from 'kysely';
import type { Conn } from '../../db/connection.ts';

/** Page of a list: 1-based page number and its size. */
export interface PageRequest {
  search: string | undefined;
  page: number;
  perPage: number;
}

/** `%text%` for LIKE, with the text's own wildcards escaped (matched with `escape '\'`). */
function containing(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Case-insensitive "contains" on any of the expressions; lower() on both sides, so both dialects agree on every letter. */
function anyContains(columns: Expression<string | null>[], search: string): Expression<SqlBool> {
  const pattern = containing(search);
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`lower(coalesce(${c}, '')) like lower(${pattern}) escape '\\'`),
    sql` or `,
  )})`;
}

const fullName = sql<string>`trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))`;

function usersQuery(db: Conn, search: string | undefined) {
  let q = db.selectFrom('users as u');
  if (search) q = q.where(anyContains([sql.ref('u.email'), fullName], search));
  return q;
}

/** Every person of the instance matching the search, newest first, with their personal balance and how many organizations they are in. */
export async function listUsers(db: Conn, { search, page, perPage }: PageRequest) {
  const rows = await usersQuery(db, search)
    .leftJoin('billing_accounts as b', 'b.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.is_admin', 'u.disabled_at', 'u.created_at', 'b.credits_micros'])
    .select((eb) => eb.selectFrom('memberships as m').whereRef('m.user_id', '=', 'u.id').select(eb.fn.countAll().as('n')).as('organization_count'))
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const { n } = await usersQuery(db, search)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

export function findAdminUser(db: Conn, userId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('billing_accounts as b', 'b.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.is_admin', 'u.disabled_at', 'u.created_at', 'b.credits_micros'])
    .select((eb) => eb.selectFrom('memberships as m').whereRef('m.user_id', '=', 'u.id').select(eb.fn.countAll().as('n')).as('organization_count'))
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export type AdminUserRow = NonNullable<Awaited<ReturnType<typeof findAdminUser>>>;

/** Disables (a time) or enables (null) the account. Writing users moves the auth epoch: cached keys are read again at once. */
export async function setDisabled(db: Conn, userId: string, disabledAt: string | null, now: Date): Promise<void> {
  await db.updateTable('users').set({ disabled_at: disabledAt, updated_at: now.toISOString() }).where('id', '=', userId).execute();
}

function organizationsQuery(db: Conn, search: string | undefined) {
  let q = db.selectFrom('organizations as o').innerJoin('users as u', 'u.id', 'o.owner_id');
  if (search) q = q.where(anyContains([sql.ref('o.name'), sql.ref('u.email'), fullName], search));
  return q;
}

/** Every organization matching the search (its name, or its owner's e-mail or name), newest first. */
export async function listOrganizations(db: Conn, { search, page, perPage }: PageRequest) {
  const rows = await organizationsQuery(db, search)
    .leftJoin('billing_accounts as b', 'b.organization_id', 'o.id')
    .select(['o.id', 'o.name', 'o.owner_id', 'o.created_at', 'u.email as owner_email', 'u.first_name', 'u.last_name', 'b.credits_micros'])
    .select((eb) => eb.selectFrom('memberships as m').whereRef('m.organization_id', '=', 'o.id').select(eb.fn.countAll().as('n')).as('member_count'))
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const { n } = await organizationsQuery(db, search)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

function grantsQuery(db: Conn, search: string | undefined) {
  let q = db.selectFrom('credit_grants as g');
  if (search) q = q.where(anyContains([sql.ref('g.recipient'), sql.ref('g.reason'), sql.ref('g.granted_by')], search));
  return q;
}

/** Credit grants, newest first; the search looks at the recipient, the reason and who granted. */
export async function listGrants(db: Conn, { search, page, perPage }: PageRequest) {
  const rows = await grantsQuery(db, search)
    .selectAll('g')
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const { n } = await grantsQuery(db, search)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

export type CreditGrantRow = Awaited<ReturnType<typeof listGrants>>['rows'][number];

export interface NewGrant {
  grantedBy: string;
  grantedByUserId: string | null;
  userId: string | null;
  organizationId: number | null;
  recipient: string;
  amountMicros: number;
  reason: string;
  balanceAfterMicros: number;
}

/** Records a grant, in the transaction that changed the balance. */
export async function insertGrant(tx: Conn, grant: NewGrant, now: Date): Promise<CreditGrantRow> {
  return tx
    .insertInto('credit_grants')
    .values({
      granted_by: grant.grantedBy,
      granted_by_user_id: grant.grantedByUserId,
      user_id: grant.userId,
      organization_id: grant.organizationId,
      recipient: grant.recipient,
      amount_micros: grant.amountMicros,
      reason: grant.reason,
      balance_after_micros: grant.balanceAfterMicros,
      created_at: now.toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
