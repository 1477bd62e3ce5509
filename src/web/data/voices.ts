import { queryOptions } from '@tanstack/react-query';
import type { Voice, VoiceClone, VoiceInUseError } from '../../shared/assistants.ts';
import { cloneVoice, deleteVoice, listVoices } from '../../shared/operations/voices.ts';
import { api, ApiError, upload } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';

// Voices of the active key's workspace (presets and its clones): cache keys, reads and changes.

export const voiceKeys = {
  all: ['voices'] as const,
  list: () => [...voiceKeys.all, 'list'] as const,
};

export const voiceQueries = {
  list: () => queryOptions({ queryKey: voiceKeys.list(), queryFn: async ({ signal }) => (await api(listVoices, { signal })).info }),
};

export interface VoiceCloneUpload {
  fields: VoiceClone;
  file: File;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export const voiceMutations = {
  /** Fields first, then the file: a server reading the stream sees the small fields before the audio. */
  clone: mutation({
    mutationFn: async ({ fields, file, onProgress, signal }: VoiceCloneUpload) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined && value !== '') form.append(key, String(value));
      form.append('file', file, file.name);
      return (await upload(cloneVoice, form, { onProgress, signal })).info;
    },
    invalidates: () => [voiceKeys.all],
  }),
  delete: mutation({
    mutationFn: (voice: Voice) => api(deleteVoice, { params: { voice_id: voice.voice_id }, query: { provider: voice.provider } }),
    invalidates: () => [voiceKeys.all],
    invalidatesOnError: () => [voiceKeys.all],
  }),
};

/** The assistants that keep a voice from being deleted (the 409 of deleteVoice), from the server's answer. */
export function voiceInUseBy(error: unknown): VoiceInUseError['assistants'] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const assistants = (error.body as Partial<VoiceInUseError> | null)?.assistants;
  return Array.isArray(assistants) ? assistants : [];
}
