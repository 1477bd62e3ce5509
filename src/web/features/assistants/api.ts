import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { z } from 'zod';
import type { SpendingLimitSchema } from '../../../shared/account.ts';
import {
  assistantDisplayName,
  type Assistant,
  type AssistantPricing,
  type CreateAssistant,
  type UpdateAssistantConfig,
  type UploadedFile,
  type Voice,
  type VoiceClone,
  type VoiceInUseError,
} from '../../../shared/assistants.ts';
import type { Credits } from '../../../shared/credits.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { meQuery } from '../../lib/use-me.ts';

export type UploadedPhoto = UploadedFile;

export const assistantKeys = {
  // The account feature invalidates ['assistants'] when the spending limit caps assistants.
  all: ['assistants'] as const,
  list: () => [...assistantKeys.all, 'list'] as const,
  detail: (id: number) => [...assistantKeys.all, 'detail', id] as const,
  voices: () => [...assistantKeys.all, 'voices'] as const,
  pricing: () => [...assistantKeys.all, 'pricing'] as const,
  credits: () => ['credits'] as const,
  // Same key as the account feature's query of the same endpoint, so both share one cache entry.
  spendingLimit: () => ['account', 'spending-limit'] as const,
};

export const assistantQueries = {
  list: () =>
    queryOptions({
      queryKey: assistantKeys.list(),
      queryFn: async ({ signal }) => (await api.get<{ info: Assistant[] }>('/v0/assistant', { signal })).info,
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: assistantKeys.detail(id),
      queryFn: async ({ signal }) => (await api.get<{ info: Assistant }>(`/v0/assistant/${id}`, { signal })).info,
    }),
  voices: () =>
    queryOptions({
      queryKey: assistantKeys.voices(),
      queryFn: async ({ signal }) => (await api.get<{ info: Voice[] }>('/v0/assistant/voice', { signal })).info,
    }),
  pricing: () =>
    queryOptions({
      queryKey: assistantKeys.pricing(),
      queryFn: ({ signal }) => api.get<AssistantPricing>('/v0/assistant/pricing', { signal }),
      staleTime: 5 * 60_000,
    }),
  credits: () =>
    queryOptions({
      queryKey: assistantKeys.credits(),
      queryFn: ({ signal }) => api.get<Credits>('/v0/credits', { signal }),
    }),
  spendingLimit: () =>
    queryOptions({
      queryKey: assistantKeys.spendingLimit(),
      queryFn: ({ signal }) => api.get<z.infer<typeof SpendingLimitSchema>>('/v0/user/spending-limit', { signal }),
    }),
};

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
