import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp } from '../testing/harness.ts';
import { multipart, PNG, WAV } from '../modules/assistants/test-helpers.ts';
import { S3Storage, type S3Settings } from './s3.ts';

// A real S3-compatible server (s3rver, in-process, files in a temp directory) that knows the access key
// of its built-in account S3RVER/S3RVER (it does not check V4 signatures themselves).
let server: S3rver;
let settings: S3Settings;

beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: fs.mkdtempSync(path.join(os.tmpdir(), 'roster-s3rver-')),
    configureBuckets: [{ name: 'roster-test', configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  settings = { endpoint: `http://127.0.0.1:${address.port}`, bucket: 'roster-test', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
});

afterAll(async () => {
  await server?.close();
});

const read = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

describe('S3 storage', () => {
  it('puts, stats, reads (whole and a range) and deletes an object, consuming the temp file', async () => {
    const storage = new S3Storage(settings, fs.mkdtempSync(path.join(os.tmpdir(), 'roster-s3-')));
    const temp = path.join(storage.tempDir, 'upload');
    const content = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    fs.writeFileSync(temp, content);
    await storage.putFile('photos/abcdefgh12.png', temp, 'image/png');
    expect(fs.existsSync(temp)).toBe(false);
    expect(await storage.stat('photos/abcdefgh12.png')).toEqual({ size: content.length, contentType: 'image/png' });
    const whole = await storage.get('photos/abcdefgh12.png');
    expect(whole?.size).toBe(content.length);
    expect((await read(whole!.body)).equals(content)).toBe(true);
    const part = await storage.get('photos/abcdefgh12.png', { start: 100, end: 199 });
    expect(part?.size).toBe(content.length);
    expect((await read(part!.body)).equals(content.subarray(100, 200))).toBe(true);
    await storage.delete('photos/abcdefgh12.png');
    expect(await storage.stat('photos/abcdefgh12.png')).toBeNull();
    expect(await storage.get('photos/abcdefgh12.png')).toBeNull();
    await storage.delete('photos/abcdefgh12.png'); // missing: not an error
  });

  it('refuses keys it does not write, without asking the bucket', async () => {
    const storage = new S3Storage({ ...settings, endpoint: 'http://127.0.0.1:1' }, fs.mkdtempSync(path.join(os.tmpdir(), 'roster-s3-')));
    expect(await storage.get('../roster.db')).toBeNull();
    expect(await storage.stat('photos/../../x.png')).toBeNull();
    await expect(storage.putFile('other/abcdefgh12.png', '/nonexistent', 'image/png')).rejects.toThrow();
  });

  it('sends the session token of temporary credentials, given in the settings or found by the credential chain', async () => {
    // A stand-in bucket that records what it was sent (s3rver ignores session tokens).
    const seen: http.IncomingHttpHeaders[] = [];
    const recorder = http.createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5' }).end();
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    const saved = { ...process.env };
    try {
      const fromSettings = new S3Storage(
        { ...settings, endpoint, accessKeyId: 'ASIASETTINGS', secretAccessKey: 'secret', sessionToken: 'token-from-settings' },
        fs.mkdtempSync(path.join(os.tmpdir(), 'roster-s3-')),
      );
      expect(await fromSettings.stat('photos/abcdefgh12.png')).toEqual({ size: 5, contentType: 'image/png' });
      expect(seen[0]!['x-amz-security-token']).toBe('token-from-settings');
      expect(seen[0]!.authorization).toContain('Credential=ASIASETTINGS/');

      // No key in the settings: the SDK's chain, which reads AWS_* from the environment first.
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: 'ASIAENVIRONMENT',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_SESSION_TOKEN: 'token-from-env',
        AWS_EC2_METADATA_DISABLED: 'true',
      });
      const fromChain = new S3Storage({ ...settings, endpoint, accessKeyId: '', secretAccessKey: '' }, fs.mkdtempSync(path.join(os.tmpdir(), 'roster-s3-')));
      expect(await fromChain.stat('photos/abcdefgh12.png')).not.toBeNull();
      expect(seen[1]!['x-amz-security-token']).toBe('token-from-env');
      expect(seen[1]!.authorization).toContain('Credential=ASIAENVIRONMENT/');
      expect(seen.map((h) => h.host)).toEqual([new URL(endpoint).host, new URL(endpoint).host]);
    } finally {
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_EC2_METADATA_DISABLED']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
      await new Promise((resolve) => recorder.close(resolve));
    }
  });

  it('fails loudly when the bucket refuses (unknown access key)', async () => {
    const storage = new S3Storage({ ...settings, accessKeyId: 'NOBODY' }, fs.mkdtempSync(path.join(os.tmpdir(), 'roster-s3-')));
    const temp = path.join(storage.tempDir, 'upload');
    fs.writeFileSync(temp, PNG);
    await expect(storage.putFile('photos/abcdefgh13.png', temp, 'image/png')).rejects.toThrow(/HTTP 403 InvalidAccessKeyId/);
  });

  it('backs the API: a photo and a voice sample uploaded through the routes are served from the bucket and deleted with their owner', async () => {
    const t = await makeTestApp({ s3: settings });
    const u = await t.user();
    // A polyglot: the bucket gets the re-encoded image, never the appended script.
    const photo = multipart({}, { filename: 'me.png', contentType: 'image/png', content: Buffer.concat([PNG, Buffer.from('<script>alert(1)</script>')]) });
    const uploaded = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: photo.headers, payload: photo.payload });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const url = new URL(uploaded.json().info.url).pathname;
    const key = url.replace('/v0/files/', '');
    const direct = new S3Storage(settings, t.dataDir);
    expect(await direct.stat(key)).toEqual({ size: uploaded.json().info.size, contentType: 'image/png' });
    expect(fs.existsSync(path.join(t.dataDir, 'files', key))).toBe(false);
    const served = await t.request('GET', url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.length).toBe(uploaded.json().info.size);
    expect(served.rawPayload.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);
    expect(served.rawPayload.includes('<script')).toBe(false);

    const voice = multipart({ name: 'Mine' }, { filename: 'sample.wav', contentType: 'audio/wav', content: WAV });
    const cloned = await t.request('POST', '/v0/assistant/voice/clone', { key: u.apiKey, headers: voice.headers, payload: voice.payload });
    expect(cloned.statusCode, cloned.body).toBe(201);
    const sample = new URL(cloned.json().info.sample_url ?? cloned.json().sample_url).pathname;
    const range = await t.request('GET', sample, { headers: { range: 'bytes=0-3' } });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.toString('latin1')).toBe('RIFF');

    const deleted = await t.request('DELETE', '/v0/user/delete-account', { key: u.apiKey, json: { confirm_email: u.email } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expect.poll(() => direct.stat(key)).toBeNull();
  });

  it('answers 503 + Retry-After when the bucket is unreachable, and keeps nothing', async () => {
    const t = await makeTestApp({ s3: { ...settings, endpoint: 'http://127.0.0.1:1' } });
    const u = await t.user();
    const photo = multipart({}, { filename: 'me.png', contentType: 'image/png', content: PNG });
    const res = await t.request('POST', '/v0/assistant/photo/upload', { key: u.apiKey, headers: photo.headers, payload: photo.payload });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ detail: 'File storage is unavailable right now. Retry in a few seconds.' });
    expect(fs.readdirSync(path.join(t.dataDir, 'uploads-in-progress'))).toEqual([]);
    expect((await t.request('GET', '/v0/files/photos/abcdefgh12.png')).statusCode).toBe(503);
  });
});
