import type { FastifyInstance } from 'fastify';
import {
  ASSISTANT_MESSAGES,
  AUDIO_TYPES,
  DEPRECATED_CONFIG_FIELDS,
  PHOTO_MAX_BYTES,
  PHOTO_TYPES,
  PhotoUploadFields,
  sniffAudioType,
  sniffPhotoType,
  VOICE_SAMPLE_MAX_BYTES,
  VoiceCloneFields,
} from '../../../shared/assistants.ts';
import * as ops from '../../../shared/operations/assistants.ts';
import * as voiceOps from '../../../shared/operations/voices.ts';
import { scopeOf } from '../../auth/principal.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { RawJson, type JsonText } from '../../http/raw-json.ts';
import { route } from '../../http/route.ts';
import { assistantsJson } from './repository.ts';
import { photoUploads } from './photo-service.ts';
import { createAssistant, getAssistant, removeAssistant, updateAssistantConfig } from './service.ts';
import { readUpload, registerMultipart, uploadCounter, type UploadRules } from './uploads.ts';
import { cloneVoice, deleteVoice, listVoices, seedPresetSamples } from './voice-service.ts';

/** `{"info": …}` around JSON the database built (one assistant, or the list). */
const INFO_OPEN = Buffer.from('{"info":');
const INFO_CLOSE = Buffer.from('}');
const infoJson = (json: JsonText) => new RawJson(typeof json === 'string' ? `{"info":${json}}` : Buffer.concat([INFO_OPEN, json, INFO_CLOSE]));

/** What each upload route accepts (uploads.ts checks it as the bytes arrive). */
const PHOTO_UPLOAD: UploadRules<(typeof PHOTO_TYPES)[number]> = {
  maxBytes: PHOTO_MAX_BYTES,
  tooLarge: ASSISTANT_MESSAGES.photoTooLarge,
  sniff: sniffPhotoType,
  unsupported: `Unsupported image type. Upload one of: ${PHOTO_TYPES.join(', ')}.`,
};
const VOICE_UPLOAD: UploadRules<(typeof AUDIO_TYPES)[number]> = {
  maxBytes: VOICE_SAMPLE_MAX_BYTES,
  tooLarge: ASSISTANT_MESSAGES.voiceTooLarge,
  sniff: sniffAudioType,
  unsupported: `Unsupported audio type. Upload one of: ${AUDIO_TYPES.join(', ')}.`,
};

// Permissions are the operations' `access` (shared/operations/assistants.ts and voices.ts).
export async function assistantsRoutes(app: FastifyInstance): Promise<void> {
  const { storage } = app.deps;
  const stopSeeding = await seedPresetSamples(storage, app.log);
  app.addHook('onClose', async () => stopSeeding());
  const photos = photoUploads(app.deps, app.log);
  const uploads = uploadCounter();
  app.decorate('openUploads', () => uploads.open());

  route(app, ops.createAssistant, async ({ principal, body, deps, idempotency }) =>
    infoJson(await createAssistant(deps, scopeOf(principal), body, (tx, assistant) => idempotency.record(tx, infoJson(assistant)), principal)),
  );

  route(app, ops.listAssistants, async ({ principal, query, deps }) => {
    // In an organization the list is already the organization's whole list (assistants belong to it, not
    // to the member who hired them): list_all_org=True changes nothing there, and has nothing to list elsewhere.
    if (query.list_all_org && principal.organizationId === null) throw badRequest(ASSISTANT_MESSAGES.listAllOrgNeedsOrganization);
    return infoJson(await assistantsJson(deps.db, deps.dialect, scopeOf(principal), query));
  });

  route(app, ops.getAssistantPricing, ({ deps }) => ({ assistant_cost: deps.config.assistantCost }));

  route(app, ops.getAssistant, async ({ principal, params, deps }) => infoJson(await getAssistant(deps.db, deps.dialect, scopeOf(principal), params.assistant_id)));

  route(app, ops.deleteAssistant, async ({ principal, params, deps }) => {
    await removeAssistant(deps, app.log, scopeOf(principal), params.assistant_id, principal);
    return { info: ASSISTANT_MESSAGES.deleted };
  });

  route(app, ops.updateAssistantConfig, async ({ principal, params, body, deps, reply }) => {
    const assistant = await updateAssistantConfig(deps, scopeOf(principal), params.assistant_id, body, principal);
    if (DEPRECATED_CONFIG_FIELDS.some((k) => k in body)) reply.header('Deprecation', 'true');
    return infoJson(assistant);
  });

  route(app, voiceOps.listVoices, async ({ principal, deps }) => ({ info: await listVoices(deps, scopeOf(principal)) }));

  // The two upload routes, with the multipart parser in their own scope: its hooks (a listener and two promises
  // on every request) would otherwise run on every call of the API, and a multipart body sent to any other
  // operation is 415 like any other type it does not take.
  await app.register(async (scope) => {
    await registerMultipart(scope);
    route(scope, ops.uploadAssistantPhoto, ({ principal, req, idempotency }) =>
      uploads.track(async () => photos.upload(scopeOf(principal), await readUpload(req, storage.tempDir, PhotoUploadFields, PHOTO_UPLOAD), idempotency)),
    );
    route(scope, voiceOps.cloneVoice, ({ principal, req, deps, idempotency }) =>
      uploads.track(async () => cloneVoice(deps, req.log, scopeOf(principal), await readUpload(req, storage.tempDir, VoiceCloneFields, VOICE_UPLOAD), idempotency)),
    );
  });

  route(app, voiceOps.deleteVoice, async ({ principal, params, query, deps }) => {
    const refused = await deleteVoice(deps, scopeOf(principal), params.voice_id, query.provider);
    if (refused) {
      const names = refused.inUseBy.map((a) => a.name).join(', ');
      // The 409 body names them twice: the real service's sentence, and a list a client can link from.
      throw new HttpError(409, `${ASSISTANT_MESSAGES.voiceInUse} Used by: ${names}.`, {}, { assistants: refused.inUseBy });
    }
    return { info: ASSISTANT_MESSAGES.voiceDeleted };
  });
}
