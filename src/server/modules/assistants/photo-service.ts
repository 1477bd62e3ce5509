import type { z } from 'zod';
import { ASSISTANT_MESSAGES, EXTENSION_OF_TYPE, type PhotoType, type PhotoUploadFields, type UploadedFile } from '../../../shared/assistants.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { notFoundError } from '../../domain-errors.ts';
import type { IdempotencyHooks } from '../../http/idempotency.ts';
import { discard, randomObjectName } from '../../storage/upload.ts';
import { fileUrl } from '../files/urls.ts';
import { reencodePhoto } from './photos.ts';
import { findAssistant, recordStoredFile, releasePhoto, releaseUnusedPhotos, updateAssistant } from './repository.ts';
import { removeReleasedFile, type Log } from './service.ts';
import type { ParsedUpload } from './uploads.ts';

const UNUSED_PHOTO_LIFETIME_MS = 24 * 60 * 60 * 1000;
const PHOTO_SWEEP_EVERY_MS = 60 * 60 * 1000;

export type ReceivedPhoto = ParsedUpload<z.output<typeof PhotoUploadFields>, PhotoType>;

/**
 * Profile photo uploads of one app. Photos uploaded for a hire that never happened are deleted a day
 * after their upload when no assistant shows them: swept at most once an hour, on an upload, by
 * whichever server gets there (hence the state per app).
 */
export function photoUploads(deps: Deps, log: Log) {
  let lastSweep = 0;
  const sweepUnusedPhotos = async (now: Date) => {
    if (now.getTime() - lastSweep < PHOTO_SWEEP_EVERY_MS && now.getTime() >= lastSweep) return;
    lastSweep = now.getTime();
    const before = new Date(now.getTime() - UNUSED_PHOTO_LIFETIME_MS).toISOString();
    try {
      const keys = await deps.db.transaction().execute((tx) => releaseUnusedPhotos(tx, before));
      for (const key of keys) await removeReleasedFile(deps, log, key);
    } catch (err) {
      log.warn({ err }, 'could not sweep unused photos');
    }
  };

  /**
   * Stores a received photo, re-encoded; with `assistant_id` it becomes that assistant's photo (and the
   * one it replaces is released). Undefined when the idempotency key's stored answer was sent instead.
   * The temp file is the service's from here on: kept as the stored file or discarded.
   */
  async function upload(scope: Scope, received: ReceivedPhoto, idempotency: IdempotencyHooks): Promise<{ info: UploadedFile } | undefined> {
    const { fields, file: raw, fingerprint } = received;
    // Claimed once the upload is in (its fingerprint covers the bytes as sent); the assistant is checked
    // too before the costly decode.
    try {
      if (await idempotency.claim(fingerprint)) {
        await discard(raw.tempPath);
        return undefined;
      }
      if (fields.assistant_id !== undefined && !(await findAssistant(deps.db, scope, fields.assistant_id))) {
        throw notFoundError(ASSISTANT_MESSAGES.notFound);
      }
    } catch (error) {
      await discard(raw.tempPath);
      throw error;
    }
    // Only freshly encoded pixels are kept: no metadata, no appended payload, no bombs (photos.ts).
    const file = await reencodePhoto(raw.tempPath, raw.type, deps.storage.tempDir);
    const key = `photos/${randomObjectName()}.${EXTENSION_OF_TYPE[file.type]}`;
    try {
      await deps.storage.putFile(key, file.tempPath, file.type);
    } catch (error) {
      await discard(file.tempPath);
      throw error;
    }
    const url = fileUrl(deps.config.publicUrl, key);
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
          if (!assistant) throw notFoundError(ASSISTANT_MESSAGES.notFound);
          await updateAssistant(tx, fields.assistant_id, { profile_photo: url, updated_at: deps.now().toISOString() });
          released = await releasePhoto(tx, scope, assistant.profile_photo);
        }
        await idempotency.record(tx, response);
      });
    } catch (error) {
      await deps.storage.delete(key);
      throw error;
    }
    await removeReleasedFile(deps, log, released);
    await sweepUnusedPhotos(deps.now());
    return response;
  }

  return { upload };
}
