import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isStorageKey, StorageUnavailableError, type ByteRange, type FileStorage, type StoredObject } from './storage.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

interface S3Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Drains a response body we do not need, so the socket goes back to the pool. */
async function discard(body: Readable): Promise<string> {
  let text = '';
  for await (const chunk of body) if (text.length < 2000) text += String(chunk);
  return text;
}

const amzDate = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * The Authorization header of AWS Signature Version 4 for service s3. `headers` must hold host,
 * x-amz-date and x-amz-content-sha256 (lower-case names); all of them are signed.
 */
export function signV4(
  method: string,
  pathname: string,
  headers: Record<string, string>,
  credentials: { region: string; accessKeyId: string; secretAccessKey: string },
): string {
  const date = headers['x-amz-date']!;
  const day = date.slice(0, 8);
  const names = Object.keys(headers).sort();
  const canonical = [method, pathname, '', ...names.map((n) => `${n}:${headers[n]!.trim()}`), '', names.join(';'), headers['x-amz-content-sha256']].join('\n');
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
}

/**
 * Objects in an S3-compatible bucket (AWS, MinIO, Ceph, s3rver), path-style addressing, signed with
 * AWS Signature Version 4. Uploads stream the finished temp file (its SHA-256 is signed, so a
 * corrupted transfer is refused by the server); downloads stream the object, ranges included.
 */
export class S3Storage implements FileStorage {
  readonly tempDir: string;
  private readonly endpoint: URL;
  private readonly agent: http.Agent;

  constructor(
    private readonly settings: S3Settings,
    dataDir: string,
  ) {
    this.endpoint = new URL(settings.endpoint);
    this.tempDir = path.join(dataDir, 'uploads-in-progress');
    fs.mkdirSync(this.tempDir, { recursive: true });
    this.agent = this.endpoint.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  private objectPath(key: string): string {
    if (!isStorageKey(key)) throw new Error('Invalid storage key');
    const prefix = this.endpoint.pathname.replace(/\/+$/, '');
    return `${prefix}/${encodeURIComponent(this.settings.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** Signs and sends one request (SigV4, service s3). `body` is a file path for PUT. */
  private request(method: string, pathname: string, extra: Record<string, string>, body?: { file: string; size: number; sha256: string }) {
    const headers: Record<string, string> = {
      host: this.endpoint.host,
      'x-amz-date': amzDate(new Date()),
      'x-amz-content-sha256': body?.sha256 ?? sha256Hex(''),
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k.toLowerCase(), v])),
    };
    if (body) headers['content-length'] = String(body.size);
    headers.authorization = signV4(method, pathname, headers, this.settings);

    const transport = this.endpoint.protocol === 'https:' ? https : http;
    return new Promise<S3Response>((resolve, reject) => {
      const req = transport.request(
        { method, host: this.endpoint.hostname, port: this.endpoint.port || undefined, path: pathname, headers, agent: this.agent },
        (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timed out after 30 s')));
      req.on('error', (error) => reject(new StorageUnavailableError(`S3 ${method} ${pathname}: ${error.message}`, { cause: error })));
      if (body) fs.createReadStream(body.file).on('error', reject).pipe(req);
      else req.end();
    });
  }

  private async fail(op: string, key: string, res: S3Response): Promise<never> {
    const text = await discard(res.body);
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? 'unknown';
    throw new StorageUnavailableError(`S3 ${op} ${key} failed: HTTP ${res.status} ${code}`);
  }

  async putFile(key: string, tempPath: string, contentType: string): Promise<void> {
    const { size } = await fsp.stat(tempPath);
    const sha256 = await fileSha256(tempPath);
    const res = await this.request('PUT', this.objectPath(key), { 'content-type': contentType, 'cache-control': 'public, max-age=31536000, immutable' }, { file: tempPath, size, sha256 });
    if (res.status !== 200) await this.fail('PUT', key, res);
    await discard(res.body);
    await fsp.rm(tempPath, { force: true });
  }

  async stat(key: string): Promise<{ size: number; contentType: string } | null> {
    if (!isStorageKey(key)) return null;
    const res = await this.request('HEAD', this.objectPath(key), {});
    await discard(res.body);
    if (res.status === 404) return null;
    if (res.status !== 200) await this.fail('HEAD', key, res);
    return { size: Number(res.headers['content-length']), contentType: String(res.headers['content-type'] ?? 'application/octet-stream') };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    if (!isStorageKey(key)) return null;
    const res = await this.request('GET', this.objectPath(key), range ? { range: `bytes=${range.start}-${range.end}` } : {});
    if (res.status === 404) {
      await discard(res.body);
      return null;
    }
    if (res.status !== 200 && res.status !== 206) await this.fail('GET', key, res);
    const total = res.status === 206 ? Number(/\/(\d+)$/.exec(String(res.headers['content-range']))?.[1]) : Number(res.headers['content-length']);
    return { size: total, contentType: String(res.headers['content-type'] ?? 'application/octet-stream'), body: res.body };
  }

  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    const res = await this.request('DELETE', this.objectPath(key), {});
    await discard(res.body);
    if (res.status !== 204 && res.status !== 200 && res.status !== 404) await this.fail('DELETE', key, res);
  }
}
