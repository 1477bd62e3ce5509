import type { UpdateAssistantConfig } from '../../../shared/assistants.ts';

/**
 * The PATCH body for a configuration form: only what the user changed goes to the server (omitted =
 * unchanged) and a cleared field is sent as null. The voice travels with its provider; clearing the
 * voice sends `voice_id: null`, which clears both.
 */
export function changedFields(values: Record<string, unknown>, dirty: Partial<Record<string, unknown>>): UpdateAssistantConfig {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(dirty)) {
    if (!dirty[key] || key === 'voice_provider') continue;
    const value = values[key];
    changes[key] = value === undefined || value === '' ? null : value;
  }
  if (dirty.voice_provider && !('voice_id' in changes)) changes.voice_id = values.voice_id ?? null;
  if ('voice_id' in changes && changes.voice_id !== null) changes.voice_provider = values.voice_provider ?? null;
  return changes as UpdateAssistantConfig;
}
