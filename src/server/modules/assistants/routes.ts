import type { FastifyInstance } from 'fastify';
import {
  ASSISTANT_MESSAGES,
  AssistantIdParams,
  AssistantInfoResponse,
  AssistantListResponse,
  AssistantPricingSchema,
  AUDIO_TYPES,
  CreateAssistantInput,
  DEFAULT_CLONE_VOICE_PROVIDER,
  DeleteVoiceQuery,
  EXTENSION_OF_TYPE,
  PHOTO_MAX_BYTES,
  PHOTO_TYPES,
  PhotoUploadFields,
  PhotoUploadResponse,
  sniffAudioType,
  sniffPhotoType,
  UpdateAssistantConfigInput,
  VOICE_SAMPLE_MAX_BYTES,
  VoiceCloneFields,
  VoiceIdParams,
  VoiceInfoResponse,
  VoiceListResponse,
  type Voice,
  type VoiceProvider,
} from '../../../shared/assistants.ts';
import { assistantDisplayName } from '../../../shared/assistant-name.ts';
import { InfoString } from '../../../shared/common.ts';
import { requireKeyPermission, scopeOf } from '../../auth/principal.ts';
import { forbidden, HttpError, notFound } from '../../http/errors.ts';
import { RawJson, type JsonText } from '../../http/raw-json.ts';
import { route } from '../../http/route.ts';
import { randomObjectName } from '../../storage/upload.ts';
import { discard } from '../../storage/upload.ts';
import { ensurePresetSamples, PRESET_CREATED_AT, PRESET_VOICES, presetById, presetSampleKey } from '../../voice/presets.ts';
import { userDeletionHooks, type UserDeletionHook } from '../account/repository.ts';
import { fileRoutes } from './files.ts';
import {
  assistantsJson,
  assistantsUsingVoice,
  deleteAssistant,
  deletePersonalAssistantData,
  deleteVoiceRow,
  findAssistant,
  findVoiceRow,
  insertVoice,
  listVoiceRows,
  recordStoredFile,
  releasePhoto,
  releaseUnusedPhotos,
  toVoice,
  updateAssistant,
} from './repository.ts';
import { createAssistant, getAssistant, updateAssistantConfig } from './service.ts';
import { reencodePhoto } from './photos.ts';
import { readUpload } from './uploads.ts';

const UNUSED_PHOTO_LIFETIME_MS = 24 * 60 * 60 * 1000;
const PHOTO_SWEEP_EVERY_MS = 60 * 60 * 1000;

/** `{"info": …}` around JSON the database built (one assistant, or the list). */
const INFO_OPEN = Buffer.from('{"info":');
const INFO_CLOSE = Buffer.from('}');
const infoJson = (json: JsonText) =>
  new RawJson(typeof json === 'string' ? `{"info":${json}}` : Buffer.concat([INFO_OPEN, json, INFO_CLOSE]));

// Permissions (semantics §1 roles): reading needs assistant:read, creating and changing (including
// uploads and voice clones) assistant:write, deleting an assistant or a voice assistant:delete.
export async function assistantsRoutes(app: FastifyInstance): Promise<void> {
  const { storage, config } = app.deps;
  const fileUrl = (key: string) => `${config.publicUrl}/v0/files/${key}`;
  /** A file whose record a committed transaction removed: gone from storage too, or logged and left (harmless). */
  const removeFile = async (key: string | null) => {
    if (!key) return;
    await storage.delete(key).catch((err: unknown) => app.log.warn({ err, key }, 'could not delete a released file'));
  };

  /**
   * Photos uploaded for a hire that never happened: a day after their upload, when no assistant shows them,
   * they are deleted. Swept at most once an hour, on a photo upload, by whichever server gets there.
   */
  let lastSweep = 0;
  const sweepUnusedPhotos = async (now: Date) => {
    if (now.getTime() - lastSweep < PHOTO_SWEEP_EVERY_MS && now.getTime() >= lastSweep) return;
    lastSweep = now.getTime();
    const before = new Date(now.getTime() - UNUSED_PHOTO_LIFETIME_MS).toISOString();
    try {
      const keys = await app.deps.db.transaction().execute((tx) => releaseUnusedPhotos(tx, before));
      for (const key of keys) await removeFile(key);
    } catch (err) {
      app.log.warn({ err }, 'could not sweep unused photos');
    }
  };

  // The preset samples are written on start; an unreachable bucket must not keep the API down, so a
  // failure is logged and retried in the background until it succeeds.
  let retry: NodeJS.Timeout | undefined;
  const seedPresets = () =>
    ensurePresetSamples(storage).catch((err) => {
      app.log.warn({ err }, 'could not store the preset voice samples; retrying in 30 s');
      retry = setTimeout(seedPresets, 30_000).unref();
    });
  await seedPresets();
  app.addHook('onClose', async () => clearTimeout(retry));
  fileRoutes(app);

  // A deleted user's personal assistants, voices and files go with them; organization ones stay.
  const hook: UserDeletionHook = async (tx, userId) => {
    const { keys, voices } = await deletePersonalAssistantData(tx, userId);
    if (keys.length === 0 && voices.length === 0) return;
    return async () => {
      for (const voice of voices) await app.deps.voiceProviders(voice.provider as VoiceProvider).delete(voice.voice_id);
      for (const key of keys) await storage.delete(key);
    };
  };
  userDeletionHooks.push(hook);
  app.addHook('onClose', async () => {
    const at = userDeletionHooks.indexOf(hook);
    if (at >= 0) userDeletionHooks.splice(at, 1);
  });

  route(app, {
    method: 'POST',
    url: '/v0/assistant',
    operationId: 'createAssistant',
    summary: 'Create (hire) an assistant; deducts its cost in credits from the key’s account',
    description:
      'A personal key charges the user, an organization key the organization (assistant:write). Short of credits → 402 and nothing is written.',
    tag: 'assistants',
    body: CreateAssistantInput,
    response: AssistantInfoResponse,
    errors: [402, 403, 422],
    idempotent: true,
    handler: async ({ principal, body, deps, idempotency }) => {
      requireKeyPermission(principal, 'assistant:write');
      return infoJson(await createAssistant(deps, scopeOf(principal), body, (tx, assistant) => idempotency.record(tx, infoJson(assistant))));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/assistant',
    operationId: 'listAssistants',
    summary: 'Assistants of the key’s workspace, newest first',
    tag: 'assistants',
    extension: true,
    response: AssistantListResponse,
    errors: [403],
    handler: async ({ principal, deps }) => {
      requireKeyPermission(principal, 'assistant:read');
      return infoJson(await assistantsJson(deps.db, deps.dialect, scopeOf(principal)));
    },
  });

  route(app, {
    method: 'GET',
    url: '/v0/assistant/pricing',
    operationId: 'getAssistantPricing',
    summary: 'What creating an assistant costs, in credits',
    tag: 'assistants',
    extension: true,
    response: AssistantPricingSchema,
    handler: ({ deps }) => ({ assistant_cost: deps.config.assistantCost }),
  });

  route(app, {
    method: 'GET',
    url: '/v0/assistant/{assistant_id}',
    operationId: 'getAssistant',
    summary: 'One assistant',
    tag: 'assistants',
    extension: true,
    params: AssistantIdParams,
    response: AssistantInfoResponse,
    errors: [403, 404, 422],
    handler: async ({ principal, params, deps }) => {
      requireKeyPermission(principal, 'assistant:read');
      return infoJson(await getAssistant(deps.db, deps.dialect, scopeOf(principal), params.assistant_id));
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/assistant/{assistant_id}',
    operationId: 'deleteAssistant',
    summary: 'Delete an assistant (no refund)',
    tag: 'assistants',
    extension: true,
    params: AssistantIdParams,
    response: InfoString,
    errors: [403, 404, 422],
    handler: async ({ principal, params, deps }) => {
      requireKeyPermission(principal, 'assistant:delete');
      const deleted = await deps.db.transaction().execute((tx) => deleteAssistant(tx, scopeOf(principal), params.assistant_id));
      if (!deleted) throw notFound(ASSISTANT_MESSAGES.notFound);
      await removeFile(deleted.releasedPhoto);
      return { info: ASSISTANT_MESSAGES.deleted };
    },
  });

  route(app, {
    method: 'PATCH',
    url: '/v0/assistant/{assistant_id}/config',
    operationId: 'updateAssistantConfig',
    summary: 'Update an assistant’s configuration: omitted fields stay, null clears',
    description:
      'profile_photo is ignored (upload a photo with assistant_id instead). The deprecated contact fields (user_phone, phone, phone_country, email, user_whatsapp_number) are accepted and ignored; the response then carries `Deprecation: true`.',
    tag: 'assistants',
    params: AssistantIdParams,
    body: UpdateAssistantConfigInput,
    response: AssistantInfoResponse,
    errors: [403, 404, 422],
    handler: async ({ principal, params, body, deps, reply }) => {
      requireKeyPermission(principal, 'assistant:write');
      const assistant = await updateAssistantConfig(deps, scopeOf(principal), params.assistant_id, body);
      if (['user_phone', 'phone', 'phone_country', 'email', 'user_whatsapp_number'].some((k) => k in body)) {
        reply.header('Deprecation', 'true');
      }
      return infoJson(assistant);
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/assistant/photo/upload',
    operationId: 'uploadAssistantPhoto',
    summary: 'Upload a profile photo (JPEG, PNG, WebP or GIF, at most 5 MiB); with assistant_id it becomes that assistant’s photo',
    description:
      'The image is decoded and stored re-encoded: EXIF orientation applied, metadata and anything after the image removed, at most 2048 px on a side, GIF stored as PNG (content_type and size describe the stored file). Animated, undecodable or over-40-megapixel images → 422.',
    tag: 'assistants',
    multipart: {
      fields: {
        file: { type: 'binary', required: true, description: 'The image; its type is read from its bytes.' },
        assistant_id: { type: 'string', description: 'Integer id of an assistant whose profile_photo to set.' },
      },
    },
    response: PhotoUploadResponse,
    status: 201,
    errors: [403, 404, 413, 415, 422],
    idempotent: true,
    handler: async ({ principal, req, deps, idempotency }) => {
      requireKeyPermission(principal, 'assistant:write');
      const scope = scopeOf(principal);
      const { fields, file: received, fingerprint } = await readUpload(req, storage.tempDir, PhotoUploadFields, {
        maxBytes: PHOTO_MAX_BYTES,
        tooLarge: ASSISTANT_MESSAGES.photoTooLarge,
        sniff: sniffPhotoType,
        unsupported: `Unsupported image type. Upload one of: ${PHOTO_TYPES.join(', ')}.`,
      });
      // Claimed once the upload is in (its fingerprint covers the bytes as sent); the assistant is checked
      // too before the costly decode.
      try {
        if (await idempotency.claim(fingerprint)) {
          await discard(received.tempPath);
          return undefined;
        }
        if (fields.assistant_id !== undefined && !(await findAssistant(deps.db, scope, fields.assistant_id))) {
          throw notFound(ASSISTANT_MESSAGES.notFound);
        }
      } catch (error) {
        await discard(received.tempPath);
        throw error;
      }
      // Only freshly encoded pixels are kept: no metadata, no appended payload, no bombs (photos.ts).
      const file = await reencodePhoto(received.tempPath, received.type, storage.tempDir);
      const key = `photos/${randomObjectName()}.${EXTENSION_OF_TYPE[file.type]}`;
      try {
        await storage.putFile(key, file.tempPath, file.type);
      } catch (error) {
        await discard(file.tempPath);
        throw error;
      }
      const url = fileUrl(key);
      const response = { info: { url, content_type: file.type, size: file.size } };
      let released: string | null = null;
      try {
        await deps.db.transaction().execute(async (tx) => {
          await recordStoredFile(tx, {
            key,
            user_id: scope.userId,
            organization_id: scope.organizationId,
            kind: 'photo',
            content_type: file.type,
            size: file.size,
            created_at: deps.now().toISOString(),
          });
          if (fields.assistant_id !== undefined) {
            // Checked again in the transaction: it may have been deleted meanwhile.
            const assistant = await findAssistant(tx, scope, fields.assistant_id);
            if (!assistant) throw notFound(ASSISTANT_MESSAGES.notFound);
            await updateAssistant(tx, fields.assistant_id, { profile_photo: url, updated_at: deps.now().toISOString() });
            released = await releasePhoto(tx, scope, assistant.profile_photo);
          }
          await idempotency.record(tx, response);
        });
      } catch (error) {
        await storage.delete(key);
        throw error;
      }
      await removeFile(released);
      await sweepUnusedPhotos(deps.now());
      return response;
    },
  });

  const presetVoice = (p: (typeof PRESET_VOICES)[number]): Voice => ({
    voice_id: p.voice_id,
    name: p.name,
    description: p.description,
    gender: p.gender,
    language: p.language,
    provider: p.provider,
    is_preset: true,
    sample_url: fileUrl(presetSampleKey(p)),
    created_at: PRESET_CREATED_AT,
  });

  route(app, {
    method: 'GET',
    url: '/v0/assistant/voice',
    operationId: 'listVoices',
    summary: 'Voices the key’s workspace can use: the seeded presets, then its clones (newest first)',
    tag: 'assistants',
    extension: true,
    response: VoiceListResponse,
    errors: [403],
    handler: async ({ principal, deps }) => {
      requireKeyPermission(principal, 'assistant:read');
      const clones = await listVoiceRows(deps.db, scopeOf(principal));
      return { info: [...PRESET_VOICES.map(presetVoice), ...clones.map((row) => toVoice(row, fileUrl))] };
    },
  });

  route(app, {
    method: 'POST',
    url: '/v0/assistant/voice/clone',
    operationId: 'cloneVoice',
    summary: 'Clone a voice from an audio sample (WAV, MP3, OGG, WebM, M4A or FLAC, at most 25 MiB)',
    tag: 'assistants',
    multipart: {
      fields: {
        name: { type: 'string', required: true, description: '1–100 characters' },
        language: { type: 'string' },
        description: { type: 'string' },
        gender: { type: 'string' },
        provider: { type: 'string', description: 'cartesia (default) or elevenlabs' },
        file: { type: 'binary', required: true, description: 'The audio sample; its type is read from its bytes.' },
      },
    },
    response: VoiceInfoResponse,
    status: 201,
    errors: [403, 413, 415, 422],
    idempotent: true,
    handler: async ({ principal, req, deps, idempotency }) => {
      requireKeyPermission(principal, 'assistant:write');
      const scope = scopeOf(principal);
      const { fields, file, fingerprint } = await readUpload(req, storage.tempDir, VoiceCloneFields, {
        maxBytes: VOICE_SAMPLE_MAX_BYTES,
        tooLarge: ASSISTANT_MESSAGES.voiceTooLarge,
        sniff: sniffAudioType,
        unsupported: `Unsupported audio type. Upload one of: ${AUDIO_TYPES.join(', ')}.`,
      });
      const provider = fields.provider ?? DEFAULT_CLONE_VOICE_PROVIDER;
      const key = `voices/${randomObjectName()}.${EXTENSION_OF_TYPE[file.type]}`;
      try {
        if (await idempotency.claim(fingerprint)) {
          await discard(file.tempPath);
          return undefined;
        }
        await storage.putFile(key, file.tempPath, file.type);
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
            await recordStoredFile(tx, { key, user_id: scope.userId, organization_id: scope.organizationId, kind: 'voice_sample', content_type: file.type, size: file.size, created_at: now });
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
          return { info: toVoice(row, fileUrl) };
        });
        // Committed: a sample that fails to go is logged, never turned into an error (or an undo).
        if (!cloned.keepSample) await storage.delete(key).catch((err) => req.log.warn({ err }, 'could not remove an unkept voice sample'));
        return response;
      } catch (error) {
        // Nothing half-made stays behind: neither the stored sample nor the voice at the provider.
        await storage.delete(key);
        if (clonedId) await deps.voiceProviders(provider).delete(clonedId).catch(() => {});
        throw error;
      }
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/v0/assistant/voice/{voice_id}',
    operationId: 'deleteVoice',
    summary: 'Delete a cloned voice and its stored sample',
    description:
      'Presets cannot be deleted (403). A voice in use answers 409 with `detail` naming the assistants and `assistants: [{agent_id, name}]`.',
    tag: 'assistants',
    params: VoiceIdParams,
    query: DeleteVoiceQuery,
    response: InfoString,
    errors: [403, 404, 409, 422],
    handler: async ({ principal, params, query, deps }) => {
      requireKeyPermission(principal, 'assistant:delete');
      const scope = scopeOf(principal);
      const preset = presetById(params.voice_id);
      if (preset && (!query.provider || query.provider === preset.provider)) throw forbidden('Preset voices cannot be deleted.');
      const sampleKey = await deps.db.transaction().execute(async (tx) => {
        const voice = await findVoiceRow(tx, scope, params.voice_id, query.provider, deps.dialect === 'postgres' ? 'update' : undefined);
        if (!voice) throw notFound(ASSISTANT_MESSAGES.voiceNotFound);
        const users = await assistantsUsingVoice(tx, scope, voice.voice_id, voice.provider);
        if (users.length > 0) {
          const named = users.map((a) => ({ agent_id: String(a.id), name: assistantDisplayName({ agent_id: String(a.id), first_name: a.first_name, surname: a.surname }) }));
          throw new HttpError(409, `${ASSISTANT_MESSAGES.voiceInUse} Used by: ${named.map((a) => a.name).join(', ')}.`, {}, { assistants: named });
        }
        await deleteVoiceRow(tx, voice.id);
        if (voice.sample_key) await tx.deleteFrom('stored_files').where('key', '=', voice.sample_key).execute();
        return { key: voice.sample_key, voiceId: voice.voice_id, provider: voice.provider };
      });
      await deps.voiceProviders(sampleKey.provider as VoiceProvider).delete(sampleKey.voiceId);
      if (sampleKey.key) await storage.delete(sampleKey.key);
      return { info: ASSISTANT_MESSAGES.voiceDeleted };
    },
  });
}
