import { describe, expect, it } from 'vitest';
import { CreateAssistantInput, sniffAudioType, sniffPhotoType, UpdateAssistantConfigInput } from './assistants.ts';
import { isTimeZone } from './time-zones.ts';

const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('magic-byte sniffers (shared by the dashboard and the server)', () => {
  it('recognizes each accepted photo type and nothing else', () => {
    expect(sniffPhotoType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffPhotoType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(sniffPhotoType(bytes('GIF89a'))).toBe('image/gif');
    expect(sniffPhotoType(bytes('GIF87a'))).toBe('image/gif');
    expect(sniffPhotoType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffPhotoType(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBeNull();
    expect(sniffPhotoType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffPhotoType(bytes('hello'))).toBeNull();
    expect(sniffPhotoType(new Uint8Array())).toBeNull();
  });

  it('recognizes each accepted audio type and nothing else', () => {
    expect(sniffAudioType(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBe('audio/wav');
    expect(sniffAudioType(bytes('ID3', [4, 0]))).toBe('audio/mpeg');
    expect(sniffAudioType(bytes([0xff, 0xfb, 0x90, 0x00]))).toBe('audio/mpeg');
    expect(sniffAudioType(bytes('OggS', [0]))).toBe('audio/ogg');
    expect(sniffAudioType(bytes([0x1a, 0x45, 0xdf, 0xa3]))).toBe('audio/webm');
    expect(sniffAudioType(bytes('fLaC'))).toBe('audio/flac');
    expect(sniffAudioType(bytes([0, 0, 0, 0x20], 'ftypM4A '))).toBe('audio/mp4');
    expect(sniffAudioType(bytes('RIFF', [1, 2, 3, 4], 'AVI LIST'))).toBeNull();
    expect(sniffAudioType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBeNull(); // a JPEG is not MPEG audio
    expect(sniffAudioType(bytes('just text'))).toBeNull();
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('refuses legacy abbreviations and links the runtime would accept, and takes renamed zones either way', () => {
    for (const legacy of ['PST', 'EST', 'CET', 'US/Pacific', 'GMT', 'Etc/GMT+5']) expect(isTimeZone(legacy), legacy).toBe(false);
    for (const zone of ['Asia/Kolkata', 'Asia/Calcutta', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires']) expect(isTimeZone(zone), zone).toBe(true);
  });
});

describe('schemas', () => {
  it('PATCH keeps null (clear) apart from omitted (unchanged) and drops unknown keys', () => {
    expect(UpdateAssistantConfigInput.parse({ about: null, extra: 1 })).toEqual({ about: null });
    expect(UpdateAssistantConfigInput.parse({})).toEqual({});
  });

  it('create treats null, blank and NaN as not given', () => {
    expect(CreateAssistantInput.parse({ first_name: null, about: ' ', age: Number.NaN })).toEqual({});
  });
});
