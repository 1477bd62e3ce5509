import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { assistantDisplayName } from '../../../shared/assistant-name.ts';
import {
  type Assistant,
  type CreateAssistant,
  type UpdateAssistantConfig,
  type UploadedFile,
  type Voice,
  type VoiceClone,
  type VoiceInUseError,
} from '../../../shared/assistants.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { meQuery } from '../../lib/me-query.ts';
import { assistantKeys } from './queries.ts';

export type UploadedPhoto = UploadedFile;

export function useCreateAssistant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateAssistant) => (await api.post<{ info: Assistant }>('/v0/assistant', input)).info,
    onSuccess: (assistant) => {
      client.setQueryData(assistantKeys.detail(Number(assistant.agent_id)), assistant);
      notifications.show({ color: 'teal', message: `${assistantDisplayName(assistant)} was hired.` });
    },
    // A 402 changes nothing, but the balance shown may be stale either way.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: assistantKeys.list() }),
        client.invalidateQueries({ queryKey: assistantKeys.credits() }),
        client.invalidateQueries({ queryKey: meQuery.queryKey }),
      ]),
  });
}

export function useUpdateAssistant(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (changes: UpdateAssistantConfig) => (await api.patch<{ info: Assistant }>(`/v0/assistant/${id}/config`, changes)).info,
    onSuccess: (assistant) => {
      client.setQueryData(assistantKeys.detail(id), assistant);
      void client.invalidateQueries({ queryKey: assistantKeys.list() });
      notifications.show({ color: 'teal', message: `${assistantDisplayName(assistant)}: changes saved.` });
    },
  });
}

export function useDeleteAssistant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (assistant: Assistant) => api.delete<{ info: string }>(`/v0/assistant/${assistant.agent_id}`),
    onSuccess: (_result, assistant) => {
      client.removeQueries({ queryKey: assistantKeys.detail(Number(assistant.agent_id)) });
      notifications.show({ color: 'teal', message: `${assistantDisplayName(assistant)} was deleted.` });
    },
    onSettled: () => client.invalidateQueries({ queryKey: assistantKeys.list() }),
  });
}

/** The photo is uploaded with real progress; with an assistant id the server attaches it. */
export async function uploadPhoto(
  file: Blob & { name?: string },
  options: { assistantId?: number; onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UploadedPhoto> {
  const form = new FormData();
  if (options.assistantId !== undefined) form.append('assistant_id', String(options.assistantId));
  form.append('file', file, file.name ?? 'photo');
  const result = await api.upload<{ info: UploadedPhoto }>('/v0/assistant/photo/upload', form, { onProgress: options.onProgress, signal: options.signal });
  return result.info;
}

/** Fields first, then the file: a server reading the stream sees the small fields before the audio. */
export async function cloneVoice(
  fields: VoiceClone,
  file: File,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<Voice> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined && value !== '') form.append(key, String(value));
  form.append('file', file, file.name);
  const result = await api.upload<{ info: Voice }>('/v0/assistant/voice/clone', form, options);
  return result.info;
}

/** The assistants that keep a voice from being deleted (409), from the server's answer. */
export function voiceInUseBy(error: unknown): VoiceInUseError['assistants'] | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const assistants = (error.body as Partial<VoiceInUseError> | null)?.assistants;
  return Array.isArray(assistants) ? assistants : [];
}

export function useDeleteVoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (voice: Voice) => api.delete<{ info: string }>(`/v0/assistant/voice/${encodeURIComponent(voice.voice_id)}`, { query: { provider: voice.provider } }),
    onSuccess: (_result, voice) => notifications.show({ color: 'teal', message: `Voice ${voice.name} deleted.` }),
    onSettled: () => client.invalidateQueries({ queryKey: assistantKeys.voices() }),
  });
}

export function invalidateVoices(client: ReturnType<typeof useQueryClient>) {
  return client.invalidateQueries({ queryKey: assistantKeys.voices() });
}
