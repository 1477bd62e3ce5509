import { randomUUID } from 'node:crypto';
import { accountsEpochOf, type Conn } from '../../db/connection.ts';
import { cachePerDatabase, type MaybePromise } from '../../db/epoch-cache.ts';
import { runPrepared } from '../../db/prepared.ts';
import { generateApiKey } from '../../auth/keys.ts';
import { openAccount } from '../credits/repository.ts';

export interface NewUser {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  accountType?: string | null;
  businessInfo?: unknown;
  creditsMicros: number;
  /** An instance administrator (may create other people's accounts). */
  admin?: boolean;
}

/**
 * Inserts a user with their personal key and billing account, in the caller's transaction (a new
 * account is more than this: account/service.ts createAccount). Returns the raw key: the only time it
 * exists outside the caller's hands.
 */
export async function insertUser(tx: Conn, input: NewUser, now: Date): Promise<{ userId: string; apiKey: string }> {
  const userId = randomUUID();
  const at = now.toISOString();
  await tx
    .insertInto('users')
    .values({
      id: userId,
      email: input.email ? input.email.toLowerCase() : null,
      first_name: input.firstName ?? null,
      last_name: input.lastName ?? null,
      job_title: null,
      bio: null,
      timezone: null,
      phone_number: null,
      whatsapp_number: null,
      discord_id: null,
      image: null,
      account_type: input.accountType ?? null,
      business_info: input.businessInfo == null ? null : JSON.stringify(input.businessInfo),
      monthly_spending_cap_micros: null,
      is_admin: input.admin ? 1 : 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const { apiKey } = await insertPersonalKey(tx, userId, at);
  await openAccount(tx, { userId }, input.creditsMicros, now);
  return { userId, apiKey };
}

export function findUserByEmail(db: Conn, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export function findUser(db: Conn, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** Stores a new personal key (its hash only) and returns its id and the raw key: the one time it exists. */
export async function insertPersonalKey(tx: Conn, userId: string, at: string, name: string | null = null): Promise<{ id: number; apiKey: string }> {
  const key = generateApiKey('personal');
  const { id } = await tx
    .insertInto('api_keys')
    .values({
      key_hash: key.hash,
      prefix: key.prefix,
      kind: 'personal',
      user_id: userId,
      organization_id: null,
      membership_id: null,
      created_at: at,
      revoked_at: null,
      name,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, apiKey: key.raw };
}

/** Revokes the user's personal keys and issues a new one (CLI `key rotate`); organization keys keep working. */
export async function rotatePersonalKey(db: Conn, userId: string, now: Date): Promise<{ apiKey: string; organizationKeysStillValid: number }> {
  return db.transaction().execute(async (tx) => {
    const at = now.toISOString();
    await tx.updateTable('api_keys').set({ revoked_at: at }).where('user_id', '=', userId).where('kind', '=', 'personal').where('revoked_at', 'is', null).execute();
    const orgKeys = await tx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'organization')
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    const { apiKey } = await insertPersonalKey(tx, userId, at, 'Rotated key');
    return { apiKey, organizationKeysStillValid: Number(orgKeys.n) };
  });
}

/**
 * Revokes every key of the person, personal and organization ones, and issues a new personal key (a leak
 * of unknown extent): CLI `key revoke-all` and the API keys page's "Revoke all my keys".
 */
export async function revokeAllKeys(
  db: Conn,
  userId: string,
  now: Date,
  beforeCommit?: (tx: Conn, revoked: number) => Promise<void>,
): Promise<{ apiKey: string; revoked: number }> {
  return db.transaction().execute(async (tx) => {
    const at = now.toISOString();
    const result = await tx.updateTable('api_keys').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
    const { apiKey } = await insertPersonalKey(tx, userId, at, 'Issued by revoke all');
    await beforeCommit?.(tx, Number(result.numUpdatedRows));
    return { apiKey, revoked: Number(result.numUpdatedRows) };
  });
}

/**
 * The dashboard asks this on every page: the user and their personal balance in one query (prepared once),
 * only the columns basic-info answers (every other column is a row key built for nothing, on every call).
 * Kept per person while no person's row and no balance has changed, here or in another process, and for at
 * most the epoch's bound (db/epoch-cache.ts): the read was ~30 % of the server's CPU for a basic-info request.
 */
const userWithBalanceQuery = (db: Conn) =>
  db
    .selectFrom('users as u')
    .leftJoin('billing_accounts as b', 'b.user_id', 'u.id')
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.job_title',
      'u.bio',
      'u.timezone',
      'u.phone_number',
      'u.whatsapp_number',
      'u.discord_id',
      'u.account_type',
      'u.is_admin',
      'b.credits_micros',
    ])
    .where('u.id', '=', '?');

export type UserWithBalance = Awaited<ReturnType<ReturnType<typeof userWithBalanceQuery>['execute']>>[number];
const userCache = cachePerDatabase<UserWithBalance | undefined>(accountsEpochOf);

export function findUserWithBalance(db: Conn, userId: string): MaybePromise<UserWithBalance | undefined> {
  return userCache(db).get(userId, async () => (await runPrepared(db, 'basic-info', userWithBalanceQuery, [userId]))[0]);
}

/** Sets the account classification (and names when given) of an existing user. */
export async function classifyUser(
  db: Conn,
  userId: string,
  input: { accountType: string; businessInfo: unknown; firstName?: string | null; lastName?: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      account_type: input.accountType,
      business_info: input.businessInfo ? JSON.stringify(input.businessInfo) : null,
      ...(input.firstName ? { first_name: input.firstName } : {}),
      ...(input.lastName ? { last_name: input.lastName } : {}),
      updated_at: now.toISOString(),
    })
    .where('id', '=', userId)
    .execute();
}

/** Deletes the user; their keys and memberships go by cascade (account deletion, after its other steps). */
export async function deleteUser(db: Conn, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/** Whether the instance has any user yet (its first one becomes an administrator). */
export async function hasAnyUser(db: Conn): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').limit(1).executeTakeFirst());
}

export async function isAdmin(db: Conn, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('is_admin').where('id', '=', userId).executeTakeFirst();
  return row?.is_admin === 1;
}

/** Makes the user an instance administrator (CLI `admin grant`). */
export async function grantAdmin(db: Conn, userId: string): Promise<void> {
  await db.updateTable('users').set({ is_admin: 1 }).where('id', '=', userId).execute();
}
