import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Assistant, PreHireChatMessage, Voice } from '../../../shared/assistants.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { fromMicros } from '../credits/repository.ts';
import type { AssistantTable, StoredFileTable, VoiceTable } from './tables.ts';

export type AssistantRow = Selectable<AssistantTable>;
export type VoiceRow = Selectable<VoiceTable>;
export type NewAssistant = Insertable<AssistantTable>;
export type AssistantChanges = Updateable<AssistantTable>;

const bool = (v: number | null) => (v === null ? null : v !== 0);

export function toAssistant(row: AssistantRow): Assistant {
  return {
    agent_id: String(row.id),
    first_name: row.first_name,
    surname: row.surname,
    age: row.age,
    weekly_limit: row.weekly_limit === null ? null : Number(row.weekly_limit),
    max_parallel: row.max_parallel,
    about: row.about,
    phone: row.phone,
    email: row.email,
    nationality: row.nationality,
    country: row.country,
    phone_country: row.phone_country,
    profile_photo: row.profile_photo,
    profile_video: row.profile_video,
    voice_id: row.voice_id,
    voice_provider: row.voice_provider,
    timezone: row.timezone,
    region: row.region,
    desktop_url: row.desktop_url,
    user_local_desktop: row.user_local_desktop,
    desktop_mode: row.desktop_mode,
    user_desktop_id: row.user_desktop_id,
    user_desktop_filesys_sync: bool(row.user_desktop_filesys_sync),
    is_local: bool(row.is_local),
    monthly_spending_cap: row.monthly_spending_cap_micros === null ? null : fromMicros(row.monthly_spending_cap_micros),
    deploy_env: row.deploy_env,
    user_phone: row.user_phone,
    user_whatsapp_number: row.user_whatsapp_number,
    pre_hire_chat: row.pre_hire_chat === null ? null : (JSON.parse(row.pre_hire_chat) as PreHireChatMessage[]),
    create_infra: row.create_infra !== 0,
    user_id: row.user_id,
    organization_id: row.organization_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Rows of one scope: a personal key sees the user's personal rows, an org key the organization's. */
// The tables filtered here (assistants, voices) share user_id/organization_id; the builder is untyped
// only inside this one helper.
const inScope = (scope: Scope) => (eb: any) =>
  scope.organizationId === null
    ? eb.and([eb('user_id', '=', scope.userId), eb('organization_id', 'is', null)])
    : eb('organization_id', '=', scope.organizationId);

export async function listAssistants(db: Conn, scope: Scope): Promise<AssistantRow[]> {
  return db.selectFrom('assistants').selectAll().where(inScope(scope)).orderBy('id', 'desc').execute();
}

export async function findAssistant(db: Conn, scope: Scope, id: number): Promise<AssistantRow | undefined> {
  return db.selectFrom('assistants').selectAll().where(inScope(scope)).where('id', '=', id).executeTakeFirst();
}

export async function insertAssistant(tx: Conn, values: NewAssistant): Promise<number> {
  const { id } = await tx.insertInto('assistants').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateAssistant(tx: Conn, id: number, changes: AssistantChanges): Promise<AssistantRow> {
  if (Object.keys(changes).length > 0) await tx.updateTable('assistants').set(changes).where('id', '=', id).execute();
  return tx.selectFrom('assistants').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Deletes an assistant; returns false when it is not in the scope, else the storage key of a photo now unused. */
export async function deleteAssistant(tx: Conn, scope: Scope, id: number): Promise<false | { releasedPhoto: string | null }> {
  const row = await findAssistant(tx, scope, id);
  if (!row) return false;
  await tx.deleteFrom('assistants').where('id', '=', row.id).execute();
  return { releasedPhoto: await releasePhoto(tx, scope, row.profile_photo) };
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
export async function findVoiceRow(
  db: Conn,
  scope: Scope,
  voiceId: string,
  provider?: string,
  lock?: 'share' | 'update',
): Promise<VoiceRow | undefined> {
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
  return db.selectFrom('assistants').select(['id', 'first_name', 'surname']).where(inScope(scope))
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
  const key = photoUrl?.split('/v0/files/')[1];
  if (!key || !key.startsWith('photos/') || key.includes('%')) return null;
  const stillShown = await tx.selectFrom('assistants').select('id').where('profile_photo', 'like', `%/v0/files/${key}`).executeTakeFirst();
  if (stillShown) return null;
  const removed = await tx.deleteFrom('stored_files').where('key', '=', key).where('kind', '=', 'photo').where(inScope(scope)).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0 ? key : null;
}

export async function forgetStoredFile(db: Conn, key: string): Promise<void> {
  await db.deleteFrom('stored_files').where('key', '=', key).execute();
}

/**
 * Removes a user's personal assistants, voices and file records (no cascade does it: user_id is
 * "set null" so organization rows survive) and returns the storage keys to delete after the commit.
 */
export async function deletePersonalAssistantData(
  tx: Conn,
  userId: string,
): Promise<{ keys: string[]; voices: { voice_id: string; provider: string }[] }> {
  const files = await tx
    .selectFrom('stored_files')
    .select('key')
    .where('user_id', '=', userId)
    .where('organization_id', 'is', null)
    .execute();
  const samples = await tx
    .selectFrom('voices')
    .select(['sample_key', 'voice_id', 'provider'])
    .where('user_id', '=', userId)
    .where('organization_id', 'is', null)
    .execute();
  await tx.deleteFrom('assistants').where('user_id', '=', userId).where('organization_id', 'is', null).execute();
  await tx.deleteFrom('voices').where('user_id', '=', userId).where('organization_id', 'is', null).execute();
  await tx.deleteFrom('stored_files').where('user_id', '=', userId).where('organization_id', 'is', null).execute();
  const keys = new Set(files.map((f) => f.key));
  for (const s of samples) if (s.sample_key) keys.add(s.sample_key);
  return { keys: [...keys], voices: samples.map(({ voice_id, provider }) => ({ voice_id, provider })) };
}
