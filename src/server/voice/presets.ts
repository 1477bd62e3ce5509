import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { VoiceProvider } from '../../shared/assistants.ts';
import type { FileStorage } from '../storage/storage.ts';

export interface PresetVoice {
  voice_id: string;
  name: string;
  description: string;
  gender: string;
  language: string;
  provider: VoiceProvider;
  /** Pitch of the generated sample, so presets sound different from each other. */
  pitchHz: number;
}

/** Seeded voices every workspace may use; they cannot be deleted. */
export const PRESET_VOICES: readonly PresetVoice[] = [
  { voice_id: 'preset-aria', name: 'Aria', description: 'Warm, clear narration', gender: 'female', language: 'en', provider: 'elevenlabs', pitchHz: 220 },
  { voice_id: 'preset-roger', name: 'Roger', description: 'Calm, confident', gender: 'male', language: 'en', provider: 'elevenlabs', pitchHz: 120 },
  { voice_id: 'preset-lucia', name: 'Lucía', description: 'Friendly Spanish voice', gender: 'female', language: 'es', provider: 'elevenlabs', pitchHz: 240 },
  { voice_id: 'preset-nova', name: 'Nova', description: 'Bright conversational voice', gender: 'female', language: 'en', provider: 'cartesia', pitchHz: 260 },
  { voice_id: 'preset-atlas', name: 'Atlas', description: 'Deep, steady', gender: 'male', language: 'en', provider: 'cartesia', pitchHz: 100 },
  { voice_id: 'preset-jonas', name: 'Jonas', description: 'Neutral German voice', gender: 'male', language: 'de', provider: 'cartesia', pitchHz: 140 },
];

export const PRESET_CREATED_AT = '2026-01-01T00:00:00.000Z';

export function presetById(voiceId: string): PresetVoice | undefined {
  return PRESET_VOICES.find((p) => p.voice_id === voiceId);
}

export const presetSampleKey = (preset: PresetVoice) => `presets/${preset.voice_id}.wav`;

/** A short 16-bit mono WAV: a hummed tone with vibrato and a soft envelope (no recording ships with the code). */
export function synthesizeSample(pitchHz: number, seconds = 1.2, rate = 22_050): Buffer {
  const samples = Math.floor(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const envelope = Math.min(1, t / 0.08) * Math.min(1, (seconds - t) / 0.25);
    const f = pitchHz * (1 + 0.02 * Math.sin(2 * Math.PI * 5 * t));
    const phase = 2 * Math.PI * f * t;
    const v = 0.5 * Math.sin(phase) + 0.25 * Math.sin(2 * phase) + 0.12 * Math.sin(3 * phase);
    data.writeInt16LE(Math.round(v * envelope * 0.6 * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Writes the presets' samples to storage once (idempotent, safe on every start). */
export async function ensurePresetSamples(storage: FileStorage): Promise<void> {
  for (const preset of PRESET_VOICES) {
    const key = presetSampleKey(preset);
    if (await storage.stat(key)) continue;
    const temp = path.join(storage.tempDir, `${crypto.randomUUID()}.part`);
    await fsp.mkdir(storage.tempDir, { recursive: true });
    await fsp.writeFile(temp, synthesizeSample(preset.pitchHz));
    await storage.putFile(key, temp, 'audio/wav');
  }
}
