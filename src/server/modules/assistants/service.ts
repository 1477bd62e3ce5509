import {
  ASSISTANT_MESSAGES,
  DEFAULT_ASSISTANT_VOICE_PROVIDER,
  DEFAULT_COUNTRY,
  type CreateAssistantParsed,
  type UpdateAssistantConfigParsed,
  type VoiceProvider,
} from '../../../shared/assistants.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { invalidField, notFoundError } from '../../domain-errors.ts';
import { accountOf, chargeCredits, fromMicros, toMicros } from '../credits/repository.ts';
import { HIRE_CATEGORY } from '../../../shared/credits.ts';
import { presetById } from '../../voice/presets.ts';
import {
  assistantJson,
  deleteAssistant,
  deleteAssistantData,
  findAssistant,
  findVoiceRow,
  insertAssistant,
  updateAssistant,
  userSpendingCapMicros,
  type AssistantChanges,
  type AssistantRow,
} from './repository.ts';
import { fictionalPhone } from './fictional-phones.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';

const assistantTarget = (id: number, first: string | null | undefined, surname: string | null | undefined) => ({
  type: 'assistant',
  id,
  label: [first, surname].filter(Boolean).join(' ') || null,
});

/** `ada.lovelace-12@domain`: readable, unique by the id. */
export function assistantMailbox(id: number, firstName: string | null, surname: string | null, domain: string): string {
  const slug = [firstName, surname]
    .filter(Boolean)
    .join('.')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '')
    .replace(/\.+/g, '.')
    .replace(/^\.|\.$/g, '')
    .slice(0, 40);
  return `${slug || 'assistant'}-${id}@${domain}`;
}

/** Contact infrastructure still missing on an assistant, allocated locally (no external provider). */
function infraChanges(row: Pick<AssistantRow, 'id' | 'first_name' | 'surname' | 'email' | 'phone' | 'country'>, domain: string): AssistantChanges {
  const changes: AssistantChanges = { create_infra: 1 };
  if (!row.email) changes.email = assistantMailbox(row.id, row.first_name, row.surname, domain);
  if (!row.phone) Object.assign(changes, fictionalPhone(row.id, row.country));
  return changes;
}

/** A voice the scope may use: one of its clones or a preset, with the provider it belongs to. */
async function checkVoice(deps: Deps, tx: Conn, scope: Scope, voiceId: string, provider: VoiceProvider | undefined): Promise<VoiceProvider> {
  const preset = presetById(voiceId);
  const lock = deps.dialect === 'postgres' ? 'share' : undefined;
  const actual = (preset?.provider ?? (await findVoiceRow(tx, scope, voiceId, undefined, lock))?.provider) as VoiceProvider | undefined;
  if (!actual) throw invalidField(['body', 'voice_id'], `Voice ${voiceId} was not found among your voices (GET /v0/assistant/voice lists them).`);
  if (provider && provider !== actual) {
    throw invalidField(['body', 'voice_id'], `Voice ${voiceId} belongs to provider ${actual}; send voice_provider "${actual}".`);
  }
  return actual;
}

/**
 * Hires an assistant: insert and charge in one transaction; returns it as the API's JSON object.
 * `beforeCommit` runs last in that transaction with the result (the route stores its idempotent
 * response there).
 */
export async function createAssistant(
  deps: Deps,
  scope: Scope,
  input: CreateAssistantParsed,
  beforeCommit?: (tx: Conn, assistant: string) => Promise<void>,
  actor: AuditActor = { userId: scope.userId, keyId: null },
): Promise<string> {
  const provider = input.voice_provider ?? DEFAULT_ASSISTANT_VOICE_PROVIDER;
  const account = await accountOf(deps.db, scope);
  const now = deps.now();
  const stamp = now.toISOString();
  const createInfra = input.create_infra ?? true;
  return deps.db.transaction().execute(async (tx) => {
    // In the transaction: the voice cannot be deleted before this assistant is committed.
    if (input.voice_id) await checkVoice(deps, tx, scope, input.voice_id, provider);
    const id = await insertAssistant(tx, {
      user_id: scope.userId,
      organization_id: scope.organizationId,
      first_name: input.first_name ?? null,
      surname: input.surname ?? null,
      age: input.age ?? null,
      weekly_limit: input.weekly_limit ?? null,
      max_parallel: input.max_parallel ?? null,
      about: input.about ?? null,
      phone: input.phone ?? null,
      email: input.email ?? null,
      nationality: null,
      country: input.country ?? DEFAULT_COUNTRY,
      phone_country: null,
      profile_photo: input.profile_photo ?? null,
      profile_video: input.profile_video ?? null,
      voice_id: input.voice_id ?? null,
      voice_provider: input.voice_id ? provider : null,
      timezone: input.timezone ?? null,
      region: input.region ?? null,
      desktop_url: input.desktop_url ?? null,
      user_local_desktop: input.user_local_desktop ?? null,
      desktop_mode: null,
      user_desktop_id: null,
      user_desktop_filesys_sync: null,
      is_local: null,
      monthly_spending_cap_micros: null,
      deploy_env: null,
      user_phone: input.user_phone ?? null,
      user_whatsapp_number: input.user_whatsapp_number ?? null,
      pre_hire_chat: input.pre_hire_chat ? JSON.stringify(input.pre_hire_chat) : null,
      create_infra: 0,
      created_at: stamp,
      updated_at: stamp,
    });
    // Same transaction as the insert: short of credits → 402 and the insert is rolled back.
    await chargeCredits(tx, account.id, toMicros(deps.config.assistantCost), 'assistant_create', `assistant:${id}`, now, ASSISTANT_MESSAGES.insufficientCredits, {
      category: HIRE_CATEGORY,
      userId: actor.userId,
      assistantId: id,
    });
    const base = {
      id,
      first_name: input.first_name ?? null,
      surname: input.surname ?? null,
      email: input.email ?? null,
      phone: input.phone ?? null,
      country: input.country ?? DEFAULT_COUNTRY,
    };
    if (createInfra) await updateAssistant(tx, id, infraChanges(base, deps.config.assistantMailDomain));
    const assistant = await getAssistant(tx, deps.dialect, scope, id);
    await recordAudit(tx, { workspace: scope, actor, action: 'assistant.hired', target: assistantTarget(id, input.first_name, input.surname), at: now });
    await beforeCommit?.(tx, assistant);
    return assistant;
  });
}

/** One assistant of the scope as the API's JSON object; 404 when the scope has none with this id. */
export async function getAssistant(db: Conn, dialect: Dialect, scope: Scope, id: number): Promise<string> {
  const assistant = await assistantJson(db, dialect, scope, id);
  if (assistant === undefined) throw notFoundError(ASSISTANT_MESSAGES.notFound);
  return assistant;
}

const fmtDollars = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 6 })}`;

/** PATCH config: only keys present in the body change; null clears. Returns the API's JSON object. */
export async function updateAssistantConfig(
  deps: Deps,
  scope: Scope,
  id: number,
  input: UpdateAssistantConfigParsed,
  actor: AuditActor = { userId: scope.userId, keyId: null },
): Promise<string> {
  const has = (key: keyof UpdateAssistantConfigParsed) => Object.prototype.hasOwnProperty.call(input, key);
  const changes: AssistantChanges = {};
  const plain = [
    'first_name',
    'surname',
    'age',
    'nationality',
    'weekly_limit',
    'max_parallel',
    'profile_video',
    'desktop_mode',
    'user_desktop_id',
    'about',
    'timezone',
    'deploy_env',
  ] as const;
  for (const key of plain) if (has(key)) (changes as Record<string, unknown>)[key] = input[key] ?? null;
  for (const key of ['user_desktop_filesys_sync', 'is_local'] as const) {
    if (has(key)) changes[key] = input[key] === null || input[key] === undefined ? null : input[key] ? 1 : 0;
  }

  if (has('voice_id')) {
    if (input.voice_id === null || input.voice_id === undefined) {
      changes.voice_id = null;
      changes.voice_provider = null;
    } else {
      changes.voice_id = input.voice_id; // voice_provider: checked in the transaction below
    }
  } else if (has('voice_provider') && input.voice_provider != null) {
    throw invalidField(['body', 'voice_provider'], 'Send voice_id together with voice_provider (voice_id: null clears the voice).');
  }

  if (has('monthly_spending_cap')) {
    const cap = input.monthly_spending_cap ?? null;
    changes.monthly_spending_cap_micros = cap === null ? null : toMicros(cap);
  }

  return deps.db.transaction().execute(async (tx) => {
    const current = await findAssistant(tx, scope, id);
    if (!current) throw notFoundError(ASSISTANT_MESSAGES.notFound);
    if (changes.voice_id) changes.voice_provider = await checkVoice(deps, tx, scope, changes.voice_id, input.voice_provider ?? undefined);
    if (has('monthly_spending_cap') && current.organization_id === null && input.monthly_spending_cap != null) {
      // Read in the transaction (locked on PostgreSQL): a concurrent lowering of the account limit is
      // not overtaken. SQLite transactions are serialized anyway.
      const limit = await userSpendingCapMicros(tx, scope.userId, deps.dialect === 'postgres');
      if (limit !== null && changes.monthly_spending_cap_micros! > limit) {
        throw invalidField(
          ['body', 'monthly_spending_cap'],
          `Must not exceed your monthly spending limit of ${fmtDollars(fromMicros(limit))} (PUT /v0/user/spending-limit raises it).`,
        );
      }
    }
    if (input.create_infra !== false) {
      const merged = { ...current, ...changes } as AssistantRow;
      if (!merged.email || !merged.phone) Object.assign(changes, infraChanges(merged, deps.config.assistantMailDomain));
    }
    const now = deps.now();
    await updateAssistant(tx, id, { ...changes, updated_at: now.toISOString() });
    const target = assistantTarget(id, has('first_name') ? input.first_name : current.first_name, has('surname') ? input.surname : current.surname);
    await recordAudit(tx, { workspace: scope, actor, action: 'assistant.reconfigured', target, detail: { fields: Object.keys(input).sort() }, at: now });
    return getAssistant(tx, deps.dialect, scope, id);
  });
}

/** What services log to (the request's or the app's logger). */
export type Log = Pick<FastifyBaseLogger, 'warn'>;

/** A file whose record a committed transaction removed: gone from storage too, or logged and left (harmless). */
export async function removeReleasedFile(deps: Pick<Deps, 'storage'>, log: Log, key: string | null): Promise<void> {
  if (!key) return;
  await deps.storage.delete(key).catch((err: unknown) => log.warn({ err, key }, 'could not delete a released file'));
}

/** Deletes an assistant of the scope (no refund), and its photo when no other assistant shows it. */
export async function removeAssistant(deps: Deps, log: Log, scope: Scope, id: number, actor: AuditActor = { userId: scope.userId, keyId: null }): Promise<void> {
  const deleted = await deps.db.transaction().execute(async (tx) => {
    const current = await findAssistant(tx, scope, id);
    const gone = await deleteAssistant(tx, scope, id);
    if (gone)
      await recordAudit(tx, { workspace: scope, actor, action: 'assistant.deleted', target: assistantTarget(id, current?.first_name, current?.surname), at: deps.now() });
    return gone;
  });
  if (!deleted) throw notFoundError(ASSISTANT_MESSAGES.notFound);
  await removeReleasedFile(deps, log, deleted.releasedPhoto);
}

/**
 * Account and organization deletion call this in their transaction: the scope's assistants, voices and
 * file records go (a person's organization ones stay with the organization). Returns the cleanup to run
 * once that transaction has committed (the cloned voices at their providers, the stored files), or
 * undefined when there is nothing to clean.
 */
export async function deleteAssistantsIn(tx: Conn, scope: Scope, deps: Pick<Deps, 'storage' | 'voiceProviders'>): Promise<(() => Promise<void>) | undefined> {
  const { keys, voices } = await deleteAssistantData(tx, scope);
  if (keys.length === 0 && voices.length === 0) return undefined;
  return async () => {
    for (const voice of voices) await deps.voiceProviders(voice.provider as VoiceProvider).delete(voice.voice_id);
    for (const key of keys) await deps.storage.delete(key);
  };
}
