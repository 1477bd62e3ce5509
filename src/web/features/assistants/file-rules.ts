/**
 * The server's upload rules, checked in the browser first so a wrong file is refused before any byte
 * is sent. Like the server, the type comes from the file's first bytes, not its name or claimed type.
 */

import { AUDIO_ACCEPT, PHOTO_ACCEPT, PHOTO_MAX_BYTES, SNIFF_BYTES, sniffAudioType, sniffPhotoType, VOICE_SAMPLE_MAX_BYTES } from '../../../shared/assistant-rules.ts';

export const MiB = 1024 * 1024;

export interface FileRule {
  /** What the server accepts, in words ("JPEG, PNG, WebP or GIF"). */
  kinds: string;
  /** What to call such a file in a sentence ("image"). */
  noun: string;
  maxBytes: number;
  /** Files over `maxBytes` and up to this are accepted here, to be made smaller in the browser before upload (photos). */
  reducibleUpTo?: number;
  /** The MIME type the first bytes show, or null when they match none of the accepted kinds. */
  sniff: (head: Uint8Array) => string | null;
  /** For the file picker only (the bytes decide). */
  accept: string[];
}

export const PHOTO_RULE: FileRule = {
  kinds: 'JPEG, PNG, WebP or GIF',
  noun: 'image',
  maxBytes: PHOTO_MAX_BYTES,
  // A phone's photo is often over the server's limit: reduce-photo.ts scales it down first.
  reducibleUpTo: 50 * MiB,
  sniff: sniffPhotoType,
  accept: PHOTO_ACCEPT.split(',').filter((t) => t.includes('/')),
};

export const VOICE_SAMPLE_RULE: FileRule = {
  kinds: 'WAV, MP3, OGG, WebM, M4A or FLAC',
  noun: 'file',
  maxBytes: VOICE_SAMPLE_MAX_BYTES,
  sniff: sniffAudioType,
  accept: AUDIO_ACCEPT.split(',').filter((t) => t.includes('/')),
};

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MiB) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / MiB).toFixed(1)} MB`;
}

export type FileCheck = { ok: true; type: string } | { ok: false; reason: string };

/** Size first (no need to read a huge file), then the first bytes. */
export async function checkFile(file: Blob, rule: FileRule): Promise<FileCheck> {
  if (file.size === 0) return { ok: false, reason: 'The file is empty.' };
  const limit = rule.reducibleUpTo ?? rule.maxBytes;
  if (file.size > limit) {
    return { ok: false, reason: `The file is ${formatBytes(file.size)}; the limit is ${formatBytes(limit)}.` };
  }
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  const type = rule.sniff(head);
  if (!type) return { ok: false, reason: `This is not a ${rule.kinds} file (checked by its content, not its name).` };
  return { ok: true, type };
}

/** Why a file was refused, and what to choose instead. */
export function refusal(file: File, rule: FileRule, reason: string): string {
  return `${file.name}: ${reason} Use a ${rule.kinds} ${rule.noun} of at most ${formatBytes(rule.reducibleUpTo ?? rule.maxBytes)}.`;
}
