import crypto from 'node:crypto';
import type { AudioType, VoiceProvider } from '../../shared/assistants.ts';

export interface CloneRequest {
  name: string;
  language: string | null;
  description: string | null;
  gender: string | null;
  /** The stored sample (storage key and sniffed type). */
  sample: { key: string; contentType: AudioType; size: number };
}

export interface ClonedVoice {
  /** The voice's identifier at the provider. */
  voiceId: string;
  /** Whether we keep serving our stored copy of the sample (false: the provider holds it). */
  keepSample: boolean;
}

/**
 * One voice provider (Cartesia, ElevenLabs, …). A real adapter calls the provider's API with its
 * credentials; the local adapter registers the voice here only, which is what runs without credentials.
 */
export interface VoiceProviderAdapter {
  /** Short name for logs and diagnostics, e.g. `local`. */
  readonly kind: string;
  clone(request: CloneRequest): Promise<ClonedVoice>;
  /** Removes the voice at the provider; an already missing voice is not an error. */
  delete(voiceId: string): Promise<void>;
}

/** Registers voices locally: the sample stays in our storage and is playable from its URL. */
export class LocalVoiceProvider implements VoiceProviderAdapter {
  readonly kind = 'local';
  async clone(): Promise<ClonedVoice> {
    return { voiceId: crypto.randomUUID(), keepSample: true };
  }
  async delete(): Promise<void> {}
}

export type VoiceProviders = (provider: VoiceProvider) => VoiceProviderAdapter;

/**
 * The adapter for each provider identifier. No provider credentials are configured in this build, so
 * every identifier is served by the local adapter; a real adapter plugs in here per identifier.
 */
export function createVoiceProviders(): VoiceProviders {
  const local = new LocalVoiceProvider();
  return () => local;
}
