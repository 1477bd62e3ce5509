import type { z } from 'zod';
import {
  ASSISTANT_MESSAGES,
  DEFAULT_CLONE_VOICE_PROVIDER,
  EXTENSION_OF_TYPE,
  type AudioType,
  type Voice,
  type VoiceCloneFields,
  type VoiceInUseError,
  type VoiceProvider,
} from '../../../shared/assistants.ts';
import { assistantDisplayName } from '../../../shared/assistant-name.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { forbiddenError, notFoundError } from '../../domain-errors.ts';
import type { IdempotencyHooks } from '../../http/idempotency.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { discard, randomObjectName } from '../../storage/upload.ts';
import { ensurePresetSamples, PRESET_CREATED_AT, PRESET_VOICES, presetById, presetSampleKey, type PresetVoice } from '../../voice/presets.ts';
import { fileUrl } from '../files/urls.ts';
import { assistantsUsingVoice, deleteVoiceRow, findVoiceRow, forgetStoredFile, insertVoice, listVoiceRows, recordStoredFile, toVoice } from './repository.ts';
import type { Log } from './service.ts';
import type { ParsedUpload } from './uploads.ts';

export type ReceivedSample = ParsedUpload<z.output<typeof VoiceCloneFields>, AudioType>;

/**
 * Writes the preset samples, and keeps retrying in the background (every 30 s) until it succeeds: an
 * unreachable bucket must not keep the API down. Returns what stops the retries.
 */
export async function seedPresetSamples(storage: FileStorage, log: Log): Promise<() => void> {
  let retry: NodeJS.Timeout | undefined;
  const seed = () =>
    ensurePresetSamples(storage).catch((err) => {
      log.warn({ err }, 'could not store the preset voice samples; retrying in 30 s');
      retry = setTimeout(seed, 30_000).unref();
    });
  await seed();
  return () => clearTimeout(retry);
}

const presetVoice = (deps: Deps, p: PresetVoice): Voice => ({
  voice_id: p.voice_id,
  name: p.name,
  description: p.description,
  gender: p.gender,
  language: p.language,
  provider: p.provider,
  is_preset: true,
  sample_url: fileUrl(deps.config.publicUrl, presetSampleKey(p)),
  created_at: PRESET_CREATED_AT,
});

/** The seeded presets, then the scope's clones (newest first). */
export async function listVoices(deps: Deps, scope: Scope): Promise<Voice[]> {
  const clones = await listVoiceRows(deps.db, scope);
  return [...PRESET_VOICES.map((p) => presetVoice(deps, p)), ...clones.map((row) => toVoice(row, (key) => fileUrl(deps.config.publicUrl, key)))];
}

/**
 * Clones a voice from a received sample: the sample is stored, the provider clones it, the voice is
 * recorded (with its idempotent answer). Undefined when the key's stored answer was sent instead.
 * Nothing half-made stays behind on failure.
 */
export async function cloneVoice(deps: Deps, log: Log, scope: Scope, received: ReceivedSample, idempotency: IdempotencyHooks): Promise<{ info: Voice } | undefined> {
  const { fields, file, fingerprint } = received;
  const provider = fields.provider ?? DEFAULT_CLONE_VOICE_PROVIDER;
  const key = `voices/${randomObjectName()}.${EXTENSION_OF_TYPE[file.type]}`;
  try {
    if (await idempotency.claim(fingerprint)) {
      await discard(file.tempPath);
      return undefined;
    }
    await deps.storage.putFile(key, file.tempPath, file.type);
  } catch (error) {
    await discard(file.tempPath);
    throw error;
  }
  let clonedId: string | null = null;
  try {
    const cloned = await deps.voiceProviders(provider).clone({
      name: fields.name,
      language: fields.language ?? null,
      description: fields.description ?? null,
      gender: fields.gender ?? null,
      sample: { key, contentType: file.type, size: file.size },
    });
    clonedId = cloned.voiceId;
    const now = deps.now().toISOString();
    const response = await idempotency.transaction(deps.db, async (tx) => {
      if (cloned.keepSample) {
        await recordStoredFile(tx, {
          key,
          user_id: scope.userId,
          organization_id: scope.organizationId,
          kind: 'voice_sample',
          content_type: file.type,
          size: file.size,
          created_at: now,
        });
      }
      const row = await insertVoice(tx, {
        user_id: scope.userId,
        organization_id: scope.organizationId,
        voice_id: cloned.voiceId,
        provider,
        name: fields.name,
        description: fields.description ?? null,
        gender: fields.gender ?? null,
        language: fields.language ?? null,
        sample_key: cloned.keepSample ? key : null,
        created_at: now,
      });
      return { info: toVoice(row, (sample) => fileUrl(deps.config.publicUrl, sample)) };
    });
    // Committed: a sample that fails to go is logged, never turned into an error (or an undo).
    if (!cloned.keepSample) await deps.storage.delete(key).catch((err) => log.warn({ err }, 'could not remove an unkept voice sample'));
    return response;
  } catch (error) {
    // Nothing half-made stays behind: neither the stored sample nor the voice at the provider.
    await deps.storage.delete(key);
    if (clonedId)
      await deps
        .voiceProviders(provider)
        .delete(clonedId)
        .catch(() => {});
    throw error;
  }
}

/** Why a voice was not deleted: the assistants that still speak with it (the route's 409). */
export interface VoiceInUse {
  inUseBy: VoiceInUseError['assistants'];
}

/**
 * Deletes a cloned voice of the scope, its stored sample and its clone at the provider. Presets are
 * refused; a voice in use is left as it is and the assistants using it are returned.
 */
export async function deleteVoice(deps: Deps, scope: Scope, voiceId: string, provider: VoiceProvider | undefined): Promise<VoiceInUse | undefined> {
  const preset = presetById(voiceId);
  if (preset && (!provider || provider === preset.provider)) throw forbiddenError('Preset voices cannot be deleted.');
  const outcome = await deps.db.transaction().execute(async (tx) => {
    const voice = await findVoiceRow(tx, scope, voiceId, provider, deps.dialect === 'postgres' ? 'update' : undefined);
    if (!voice) throw notFoundError(ASSISTANT_MESSAGES.voiceNotFound);
    const users = await assistantsUsingVoice(tx, scope, voice.voice_id, voice.provider);
    if (users.length > 0) {
      const named = users.map((a) => ({ agent_id: String(a.id), name: assistantDisplayName({ agent_id: String(a.id), first_name: a.first_name, surname: a.surname }) }));
      return { inUseBy: named, deleted: null };
    }
    await deleteVoiceRow(tx, voice.id);
    if (voice.sample_key) await forgetStoredFile(tx, voice.sample_key);
    return { inUseBy: null, deleted: voice };
  });
  if (outcome.deleted === null) return { inUseBy: outcome.inUseBy };
  await deps.voiceProviders(outcome.deleted.provider as VoiceProvider).delete(outcome.deleted.voice_id);
  if (outcome.deleted.sample_key) await deps.storage.delete(outcome.deleted.sample_key);
  return undefined;
}
