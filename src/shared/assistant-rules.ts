/*
 * The assistants contract's bounds, choices and file rules (semantics.md §2): plain values, no schemas. The
 * dashboard checks with these and the server enforces them (src/shared/assistants.ts, which re-exports them).
 * Kept apart so that a page needing a constant does not build every assistant schema as it loads (the
 * assistants list spent ~45 ms of its first load there).
 */

export const AGE_MIN = 0;
export const AGE_MAX = 150;
/** Hours in a week. */
export const WEEKLY_LIMIT_MIN = 0;
export const WEEKLY_LIMIT_MAX = 168;
export const MAX_PARALLEL_MIN = 1;
export const MAX_PARALLEL_MAX = 1000;
/** Dollars per month; the account's own cap (PUT /v0/user/spending-limit) is a further upper bound. */
export const MONTHLY_SPENDING_CAP_MAX = 1_000_000_000;
export const NAME_MAX = 100;
export const ABOUT_MAX = 2000;
export const PRE_HIRE_CHAT_MAX_ITEMS = 500;
export const PRE_HIRE_CHAT_MSG_MAX = 10_000;

export const DEFAULT_COUNTRY = 'US';
/** Countries whose assistants get a phone number of their own (from a fictional range); others get a US one. */
export const FICTIONAL_PHONE_COUNTRIES = ['US', 'CA', 'GB'] as const;
export const DESKTOP_SYSTEMS = ['ubuntu', 'windows', 'macos'] as const;
export type DesktopSystem = (typeof DESKTOP_SYSTEMS)[number];
export const DEPLOY_ENVS = ['preview'] as const;

export const VOICE_PROVIDERS = ['cartesia', 'elevenlabs'] as const;
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number];
/** Default `voice_provider` of an assistant (create). Differs from the cloning default, as in the spec. */
export const DEFAULT_ASSISTANT_VOICE_PROVIDER: VoiceProvider = 'elevenlabs';
/** Default `provider` of POST /v0/assistant/voice/clone. */
export const DEFAULT_CLONE_VOICE_PROVIDER: VoiceProvider = 'cartesia';
export const VOICE_NAME_MAX = 100;

const MiB = 1024 * 1024;
/** Photos above this are refused with 413 (`File size exceeds 5MB limit.`). */
export const PHOTO_MAX_BYTES = 5 * MiB;
/** Voice samples above this are refused with 413. */
export const VOICE_SAMPLE_MAX_BYTES = 25 * MiB;

/** Accepted photo types, decided by magic bytes (the client's content type is not trusted). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];
/** For `<input accept>` / dropzone `accept`. */
export const PHOTO_ACCEPT = '.jpg,.jpeg,.png,.webp,.gif,image/jpeg,image/png,image/webp,image/gif';

/** Accepted audio types for voice samples, decided by magic bytes. */
export const AUDIO_TYPES = ['audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/webm', 'audio/mp4', 'audio/flac'] as const;
export type AudioType = (typeof AUDIO_TYPES)[number];
export const AUDIO_ACCEPT = '.wav,.mp3,.ogg,.oga,.opus,.webm,.m4a,.mp4,.flac,audio/wav,audio/x-wav,audio/mpeg,audio/ogg,audio/webm,audio/mp4,audio/x-m4a,audio/flac';

/** How many leading bytes the sniffers below need. */
export const SNIFF_BYTES = 16;

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type of a file from its first bytes, or null when it is not an accepted photo. */
export function sniffPhotoType(head: Uint8Array): PhotoType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** The audio type of a file from its first bytes, or null when it is not an accepted sample. */
export function sniffAudioType(head: Uint8Array): AudioType | null {
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(head, ascii('ID3'))) return 'audio/mpeg';
  // MPEG audio frame sync: 11 set bits, a valid layer, not the reserved version.
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) !== 0 && (head[1] & 0x18) !== 0x08) {
    return 'audio/mpeg';
  }
  if (startsWith(head, ascii('OggS'))) return 'audio/ogg';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'audio/webm';
  if (startsWith(head, ascii('fLaC'))) return 'audio/flac';
  if (startsWith(head, ascii('ftyp'), 4)) return 'audio/mp4';
  return null;
}

/** File extension used when storing a file of this type. */
export const EXTENSION_OF_TYPE: Record<PhotoType | AudioType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'audio/mp4': 'm4a',
  'audio/flac': 'flac',
};
