import { queryOptions } from '@tanstack/react-query';
import type { Assistant, CreateAssistant, UpdateAssistantConfig } from '../../shared/assistants.ts';
import {
  createAssistant,
  deleteAssistant,
  getAssistant,
  getAssistantPricing,
  listAssistants,
  updateAssistantConfig,
  uploadAssistantPhoto,
} from '../../shared/operations/assistants.ts';
import { api, upload } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';
import { accountKeys } from './account.ts';
import { creditKeys } from './credits.ts';

// Assistants of the active key's workspace: cache keys, reads and changes. Voices are in voices.ts.

export const assistantKeys = {
  // The account's spending limit invalidates all of them when it caps assistants.
  all: ['assistants'] as const,
  list: () => [...assistantKeys.all, 'list'] as const,
  detail: (id: number) => [...assistantKeys.all, 'detail', id] as const,
  pricing: () => [...assistantKeys.all, 'pricing'] as const,
};

export const assistantQueries = {
  list: () => queryOptions({ queryKey: assistantKeys.list(), queryFn: async ({ signal }) => (await api(listAssistants, { signal })).info }),
  detail: (id: number) =>
    queryOptions({
      queryKey: assistantKeys.detail(id),
      queryFn: async ({ signal }) => (await api(getAssistant, { params: { assistant_id: id }, signal })).info,
    }),
  pricing: () => queryOptions({ queryKey: assistantKeys.pricing(), queryFn: ({ signal }) => api(getAssistantPricing, { signal }), staleTime: 5 * 60_000 }),
};

/** A photo to upload; with `assistantId` the server makes it that assistant's photo. */
export interface PhotoUpload {
  file: Blob & { name?: string };
  assistantId?: number;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

// Hiring spends credits; a 402 spends none, but the balance shown may be stale either way.
const balance = () => [creditKeys.balance(), accountKeys.me];

export const assistantMutations = {
  create: mutation({
    mutationFn: async (body: CreateAssistant) => (await api(createAssistant, { body })).info,
    invalidates: () => [assistantKeys.list(), ...balance()],
    invalidatesOnError: balance,
  }),
  update: mutation({
    mutationFn: async ({ id, changes }: { id: number; changes: UpdateAssistantConfig }) =>
      (await api(updateAssistantConfig, { params: { assistant_id: id }, body: changes })).info,
    invalidates: () => [assistantKeys.list()],
  }),
  delete: mutation({
    mutationFn: (assistant: Assistant) => api(deleteAssistant, { params: { assistant_id: Number(assistant.agent_id) } }),
    invalidates: () => [assistantKeys.list()],
    invalidatesOnError: () => [assistantKeys.list()],
    removes: (_r, assistant) => [assistantKeys.detail(Number(assistant.agent_id))],
  }),
  /** With real upload progress; the answer's URL is what the hire form sends as `profile_photo`. */
  uploadPhoto: mutation({
    mutationFn: async ({ file, assistantId, onProgress, signal }: PhotoUpload) => {
      const form = new FormData();
      if (assistantId !== undefined) form.append('assistant_id', String(assistantId));
      form.append('file', file, file.name ?? 'photo');
      return (await upload(uploadAssistantPhoto, form, { onProgress, signal })).info;
    },
    invalidates: (_r, { assistantId }) => (assistantId === undefined ? [] : [assistantKeys.all]),
  }),
};
