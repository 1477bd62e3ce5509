import { sql, type Insertable, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { Assistant, AssistantListFilters, Voice } from '../../../shared/assistants.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { inScope } from '../../db/scope.ts';
import type { JsonText } from '../../http/raw-json.ts';
import { FILES_PATH, fileKeyOf } from '../files/urls.ts';
import type { AssistantTable, StoredFileTable, VoiceTable } from './tables.ts';

export type AssistantRow = Selectable<AssistantTable>;
export type VoiceRow = Selectable<VoiceTable>;
export type NewAssistant = Insertable<AssistantTable>;
export type AssistantChanges = Updateable<AssistantTable>;

type Kind = 'as-is' | 'id' | 'bool' | 'real' | 'micros' | 'json';

/**
 * Every key of the API's assistant in `Assistant`'s order, with its column and how that column holds it:
 * the id is shown as a string, booleans are 0/1 integers (null stays null), money is integer micros shown
 * as dollars, pre_hire_chat is JSON text.
 */
const FIELDS: Record<keyof Assistant, [column: keyof AssistantRow, kind: Kind]> = {
  agent_id: ['id', 'id'],
  first_name: ['first_name', 'as-is'],
  surname: ['surname', 'as-is'],
  age: ['age', 'as-is'],
  weekly_limit: ['weekly_limit', 'real'],
  max_parallel: ['max_parallel', 'as-is'],
  about: ['about', 'as-is'],
  phone: ['phone', 'as-is'],
  email: ['email', 'as-is'],
  nationality: ['nationality', 'as-is'],
  country: ['country', 'as-is'],
  phone_country: ['phone_country', 'as-is'],
  profile_photo: ['profile_photo', 'as-is'],
  profile_video: ['profile_video', 'as-is'],
  voice_id: ['voice_id', 'as-is'],
  voice_provider: ['voice_provider', 'as-is'],
  timezone: ['timezone', 'as-is'],
  region: ['region', 'as-is'],
  desktop_url: ['desktop_url', 'as-is'],
  user_local_desktop: ['user_local_desktop', 'as-is'],
  desktop_mode: ['desktop_mode', 'as-is'],
  user_desktop_id: ['user_desktop_id', 'as-is'],
  user_desktop_filesys_sync: ['user_desktop_filesys_sync', 'bool'],
  is_local: ['is_local', 'bool'],
  monthly_spending_cap: ['monthly_spending_cap_micros', 'micros'],
  deploy_env: ['deploy_env', 'as-is'],
  user_phone: ['user_phone', 'as-is'],
  user_whatsapp_number: ['user_whatsapp_number', 'as-is'],
  pre_hire_chat: ['pre_hire_chat', 'json'],
  create_infra: ['create_infra', 'bool'],
  user_id: ['user_id', 'as-is'],
  organization_id: ['organization_id', 'as-is'],
  created_at: ['created_at', 'as-is'],
  updated_at: ['updated_at', 'as-is'],
};

/**
 * How each database spells a column as its JSON value. Numbers come out as JavaScript writes them
 * (JSON.stringify), so an answer reads the same on both databases:
 * - dollars from micros (millionths; caps are 0…10^9 dollars, at most 15 significant digits): SQLite by
 *   integer arithmetic, PostgreSQL as an exact numeric with its trailing zeros trimmed: 12.5, 0.000001, 500.
 * - a real: PostgreSQL writes the fewest digits that read back as the same double (extra_float_digits 1,
 *   its default), like JavaScript. SQLite's own JSON has 15 digits, or 17 when those do not read back, and
 *   20 as 20.0; the fewest of 15, 16 and 17 digits that read back is what JavaScript writes for any number
 *   a person types, and for 1/3. What still reads differently is the same number: a computed one needing
 *   17 digits may end in another 17th digit on SQLite, and below 0.0001 both databases write 1e-05 where
 *   JavaScript writes 0.00001.
 */
const SPELLING: Record<Dialect, Record<Kind, (column: string) => string>> = {
  sqlite: {
    'as-is': (c) => c,
    id: (c) => `cast(${c} as text)`,
    bool: (c) => `json(case when ${c} is null then 'null' when ${c} <> 0 then 'true' else 'false' end)`,
    real: (c) =>
      `json(case when ${c} is null then 'null' ` +
      [15, 16].map((digits) => `when cast(printf('%.${digits}g', ${c}) as real) = ${c} then printf('%.${digits}g', ${c}) `).join('') +
      `else printf('%!.17g', ${c}) end)`,
    micros: (c) => `json((${c} / 1000000) || rtrim('.' || printf('%06d', ${c} % 1000000), '.0'))`,
    json: (c) => `json(${c})`,
  },
  postgres: {
    'as-is': (c) => c,
    id: (c) => `${c}::text`,
    bool: (c) => `(${c} <> 0)`,
    real: (c) => c,
    micros: (c) => `trim_scale(${c} * 0.000001)`,
    json: (c) => `${c}::json`,
  },
};

/** The API's assistant as a JSON object built by the database, from the row `a` (SQL text, not JSON). */
function objectSql(dialect: Dialect): string {
  const spell = SPELLING[dialect];
  const entries = Object.entries(FIELDS).map(([key, [column, kind]]) => `'${key}', ${spell[kind](`a.${column}`)}`);
  return `${dialect === 'postgres' ? 'json_build_object' : 'json_object'}(${entries.join(', ')})`;
}

const OBJECT: Record<Dialect, RawBuilder<string>> = {
  sqlite: sql.raw(objectSql('sqlite')),
  postgres: sql.raw(`${objectSql('postgres')}::text`),
};
// SQLite hands the list over as its UTF-8 bytes (see contextsJson): no large string on the JavaScript heap.
const LIST: Record<Dialect, RawBuilder<JsonText>> = {
  sqlite: sql.raw(`cast(json_group_array(${objectSql('sqlite')} order by a.id desc) as blob)`),
  postgres: sql.raw(`coalesce(json_agg(${objectSql('postgres')} order by a.id desc), '[]'::json)::text`),
};

/**
 * The scope's assistants, newest first, as the JSON array the API answers, built by the database itself:
 * one pass in C instead of materializing ~35 columns of every row in JavaScript, shaping and serializing
 * them again.
 */
export async function assistantsJson(db: Conn, dialect: Dialect, scope: Scope, filters: AssistantListFilters = {}): Promise<JsonText> {
  let q = db.selectFrom('assistants as a').select(LIST[dialect].as('json')).where(inScope(scope, 'a'));
  if (filters.phone !== undefined) q = q.where('a.phone', '=', filters.phone);
  if (filters.email !== undefined) q = q.where((eb) => eb(eb.fn('lower', ['a.email']), '=', filters.email!.toLowerCase()));
  if (filters.agent_id !== undefined) {
    // An id that is not a whole number (or is out of range) is no assistant's: the list is empty.
    const id = /^\d{1,10}$/.test(filters.agent_id) ? Number(filters.agent_id) : NaN;
    q = Number.isSafeInteger(id) && id <= 2_147_483_647 ? q.where('a.id', '=', id) : q.where(sql<boolean>`1 = 0`);
  }
  const row = await q.executeTakeFirstOrThrow();
  return row.json;
}

/** One assistant of the scope as the API's JSON object (the same builder as the list), or undefined. */
export async function assistantJson(db: Conn, dialect: Dialect, scope: Scope, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('assistants as a').select(OBJECT[dialect].as('json')).where(inScope(scope)).where('a.id', '=', id).executeTakeFirst();
  return row?.json;
}

export async function findAssistant(db: Conn, scope: Scope, id: number): Promise<AssistantRow | undefined> {
  return db.selectFrom('assistants').selectAll().where(inScope(scope)).where('id', '=', id).executeTakeFirst();
}

export async function insertAssistant(tx: Conn, values: NewAssistant): Promise<number> {
  const { id } = await tx.insertInto('assistants').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateAssistant(tx: Conn, id: number, changes: AssistantChanges): Promise<void> {
  if (Object.keys(changes).length > 0) await tx.updateTable('assistants').set(changes).where('id', '=', id).execute();
}

/** Deletes an assistant; returns false when it is not in the scope, else the storage key of a photo now unused. */
export async function deleteAssistant(tx: Conn, scope: Scope, id: number): Promise<false | { releasedPhoto: string | null }> {
  const row = await findAssistant(tx, scope, id);
  if (!row) return false;
  await tx.deleteFrom('assistants').where('id', '=', row.id).execute();
  return { releasedPhoto: await releasePhoto(tx, scope, row.profile_photo) };
}

/**
 * The user's own monthly spending limit (micros; null = none), read in `tx`. `lock` (PostgreSQL) holds the
 * user row so a concurrent PUT /v0/user/spending-limit waits for the caller's update, then caps it.
 */
export async function userSpendingCapMicros(tx: Conn, userId: string, lock: boolean): Promise<number | null> {
  let q = tx.selectFrom('users').select('monthly_spending_cap_micros').where('id', '=', userId);
  if (lock) q = q.forUpdate();
  return (await q.executeTakeFirst())?.monthly_spending_cap_micros ?? null;
}

// --- voices -------------------------------------------------------------------------------------

export async function listVoiceRows(db: Conn, scope: Scope): Promise<VoiceRow[]> {
  return db.selectFrom('voices').selectAll().where(inScope(scope)).orderBy('id', 'desc').execute();
}

/**
 * `lock` (PostgreSQL only; SQLite serializes transactions): `share` while assigning the voice to an
 * assistant, `update` while deleting it, so a voice cannot be deleted between the in-use check and an
 * assignment committing.
 */
export async function findVoiceRow(db: Conn, scope: Scope, voiceId: string, provider?: string, lock?: 'share' | 'update'): Promise<VoiceRow | undefined> {
  let q = db.selectFrom('voices').selectAll().where(inScope(scope)).where('voice_id', '=', voiceId);
  if (provider) q = q.where('provider', '=', provider);
  if (lock === 'share') q = q.forShare();
  if (lock === 'update') q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function insertVoice(db: Conn, values: Insertable<VoiceTable>): Promise<VoiceRow> {
  return db.insertInto('voices').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function deleteVoiceRow(db: Conn, id: number): Promise<void> {
  await db.deleteFrom('voices').where('id', '=', id).execute();
}

/** Assistants of the scope that use the voice, for the 409 that names them. */
export async function assistantsUsingVoice(db: Conn, scope: Scope, voiceId: string, provider: string) {
  return db
    .selectFrom('assistants')
    .select(['id', 'first_name', 'surname'])
    .where(inScope(scope))
    .where('voice_id', '=', voiceId)
    .where('voice_provider', '=', provider)
    .orderBy('id')
    .execute();
}

export function toVoice(row: VoiceRow, sampleUrl: (key: string) => string): Voice {
  return {
    voice_id: row.voice_id,
    name: row.name,
    description: row.description,
    gender: row.gender,
    language: row.language,
    provider: row.provider,
    is_preset: false,
    sample_url: row.sample_key ? sampleUrl(row.sample_key) : null,
    created_at: row.created_at,
  };
}

// --- stored files -------------------------------------------------------------------------------

export async function recordStoredFile(db: Conn, values: Insertable<StoredFileTable>): Promise<void> {
  await db.insertInto('stored_files').values(values).execute();
}

/**
 * Called in the transaction that replaced or removed an assistant's photo: when `photoUrl` names an uploaded
 * photo of this scope that no assistant shows any more, its record goes in the same transaction and its
 * storage key is returned, to delete the file once the transaction has committed (a crash in between leaves
 * an unreferenced file, never a reference to a missing one). URLs are compared by their key, whatever host
 * they were issued under; LIKE's `_` only widens the match, which keeps more files, never fewer.
 */
export async function releasePhoto(tx: Conn, scope: Scope, photoUrl: string | null): Promise<string | null> {
  const key = fileKeyOf(photoUrl);
  if (!key || !key.startsWith('photos/') || key.includes('%')) return null;
  const stillShown = await tx.selectFrom('assistants').select('id').where('profile_photo', 'like', `%${FILES_PATH}${key}`).executeTakeFirst();
  if (stillShown) return null;
  const removed = await tx.deleteFrom('stored_files').where('key', '=', key).where('kind', '=', 'photo').where(inScope(scope)).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0 ? key : null;
}

/**
 * Uploaded photos that no assistant shows and that are older than `before`: photos uploaded for a hire that
 * never happened. Their records go in `tx` (a few hundred at a time) and their storage keys are returned,
 * to delete the files once `tx` has committed. Compared by key as in `releasePhoto`.
 */
export async function releaseUnusedPhotos(tx: Conn, before: string, limit = 500): Promise<string[]> {
  const unused = tx
    .selectFrom('stored_files as f')
    .select('f.key')
    .where('f.kind', '=', 'photo')
    .where('f.created_at', '<', before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('assistants as a')
            .select('a.id')
            .where('a.profile_photo', 'like', sql<string>`${sql.lit('%' + FILES_PATH)} || f.key`),
        ),
      ),
    )
    .limit(limit);
  // One statement checks and deletes, so a photo an assistant starts showing meanwhile is kept.
  const removed = await tx.deleteFrom('stored_files').where('key', 'in', unused).returning('key').execute();
  return removed.map((r) => r.key);
}

export async function forgetStoredFile(db: Conn, key: string): Promise<void> {
  await db.deleteFrom('stored_files').where('key', '=', key).execute();
}

/**
 * Removes the assistants, voices and file records of one scope: a user's personal ones (no cascade does
 * it: user_id is "set null" so organization rows survive), or an organization's (before the organization
 * row goes, so that its files are known). Returns the storage keys and cloned voices to delete after the commit.
 */
export async function deleteAssistantData(tx: Conn, scope: Scope): Promise<{ keys: string[]; voices: { voice_id: string; provider: string }[] }> {
  const files = await tx.selectFrom('stored_files').select('key').where(inScope(scope)).execute();
  const samples = await tx.selectFrom('voices').select(['sample_key', 'voice_id', 'provider']).where(inScope(scope)).execute();
  await tx.deleteFrom('assistants').where(inScope(scope)).execute();
  await tx.deleteFrom('voices').where(inScope(scope)).execute();
  await tx.deleteFrom('stored_files').where(inScope(scope)).execute();
  const keys = new Set(files.map((f) => f.key));
  for (const s of samples) if (s.sample_key) keys.add(s.sample_key);
  return { keys: [...keys], voices: samples.map(({ voice_id, provider }) => ({ voice_id, provider })) };
}
