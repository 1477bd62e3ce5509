import { describe, expect, it } from 'vitest';
import { checkFile, PHOTO_RULE, refusal, VOICE_SAMPLE_RULE } from './file-rules.ts';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const wavHeader = new TextEncoder().encode('RIFF\u0024\u0000\u0000\u0000WAVEfmt ');

describe('checkFile (browser-side copy of the server upload rules)', () => {
  it('accepts a PNG by its bytes whatever its claimed type', async () => {
    expect(await checkFile(new Blob([new Uint8Array(PNG)], { type: 'text/plain' }), PHOTO_RULE)).toEqual({ ok: true, type: 'image/png' });
  });

  it('refuses text named like a picture, an empty file, and a photo over 50 MiB (one over 5 MiB is reduced in the browser)', async () => {
    const spoof = await checkFile(new Blob(['hello, I am not a PNG'], { type: 'image/png' }), PHOTO_RULE);
    expect(spoof).toMatchObject({ ok: false, reason: expect.stringContaining('not a JPEG, PNG, WebP or GIF') });
    expect(await checkFile(new Blob([]), PHOTO_RULE)).toMatchObject({ ok: false, reason: 'The file is empty.' });
    const phone = new Uint8Array(5 * 1024 * 1024 + 1);
    phone.set(PNG);
    expect(await checkFile(new Blob([phone]), PHOTO_RULE)).toEqual({ ok: true, type: 'image/png' });
    const huge = new Uint8Array(50 * 1024 * 1024 + 1);
    huge.set(PNG);
    expect(await checkFile(new Blob([huge]), PHOTO_RULE)).toMatchObject({ ok: false, reason: expect.stringContaining('the limit is 50.0 MB') });
  });

  it('refuses a voice sample over its limit: nothing reduces those', async () => {
    const big = new Uint8Array(VOICE_SAMPLE_RULE.maxBytes + 1);
    big.set(wavHeader);
    expect(await checkFile(new Blob([big]), VOICE_SAMPLE_RULE)).toMatchObject({ ok: false, reason: expect.stringContaining('the limit is') });
  });

  it('recognises a WAV voice sample and refuses a picture as one', async () => {
    expect(await checkFile(new Blob([wavHeader]), VOICE_SAMPLE_RULE)).toEqual({ ok: true, type: 'audio/wav' });
    expect(await checkFile(new Blob([new Uint8Array(PNG)]), VOICE_SAMPLE_RULE)).toMatchObject({ ok: false });
  });

  it('says what to choose instead of a refused file', () => {
    const file = new File(['x'], 'cat.txt');
    expect(refusal(file, PHOTO_RULE, 'The file is empty.')).toBe('cat.txt: The file is empty. Use a JPEG, PNG, WebP or GIF image of at most 50.0 MB.');
    expect(refusal(file, VOICE_SAMPLE_RULE, 'Nope.')).toMatch(/^cat\.txt: Nope\. Use a WAV, MP3, OGG, WebM, M4A or FLAC file of at most /);
  });
});
