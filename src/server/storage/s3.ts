import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { isStorageKey, StorageUnavailableError, type ByteRange, type FileStorage, type StoredObject } from './storage.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  /** Empty: the AWS SDK's credential chain (AWS_* variables, shared config, container and instance roles). */
  accessKeyId: string;
  secretAccessKey: string;
  /** With temporary credentials (STS) given in the settings. */
  sessionToken?: string;
  /** `bucket` in the path (MinIO, Ceph, s3rver); false: in the host name (AWS's virtual-hosted style). */
  forcePathStyle?: boolean;
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * Objects in an S3-compatible bucket (AWS, MinIO, Ceph, s3rver) through the AWS SDK's S3 client, which
 * signs, retries and resolves credentials. Uploads stream the finished temp file with its SHA-256 (a
 * corrupted transfer is refused by the bucket); downloads stream the object, ranges included.
 */
export class S3Storage implements FileStorage {
  readonly tempDir: string;
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    dataDir: string,
  ) {
    this.tempDir = path.join(dataDir, 'uploads-in-progress');
    fs.mkdirSync(this.tempDir, { recursive: true });
    const { accessKeyId, secretAccessKey, sessionToken } = settings;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle ?? true,
      credentials: accessKeyId ? { accessKeyId, secretAccessKey, sessionToken: sessionToken || undefined } : undefined,
      // The SHA-256 sent with each upload is the integrity check; the SDK's default CRC trailer (aws-chunked
      // uploads) is not understood by every S3-compatible server.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    });
  }

  /** Sends one command; anything but an answer the caller handles becomes a StorageUnavailableError (503). */
  private async send<T>(op: string, key: string, run: () => Promise<T>, missing?: () => T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (missing && statusOf(error) === 404) return missing();
      if (error instanceof S3ServiceException) {
        throw new StorageUnavailableError(`S3 ${op} ${key} failed: HTTP ${statusOf(error) ?? '?'} ${error.name}`, { cause: error });
      }
      throw new StorageUnavailableError(`S3 ${op} ${key}: ${(error as Error).message}`, { cause: error });
    }
  }

  private checked(key: string): string {
    if (!isStorageKey(key)) throw new Error('Invalid storage key');
    return key;
  }

  async putFile(key: string, tempPath: string, contentType: string): Promise<void> {
    const Key = this.checked(key);
    const { size } = await fsp.stat(tempPath);
    const ChecksumSHA256 = await fileSha256(tempPath);
    await this.send('PUT', key, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.settings.bucket,
          Key,
          Body: fs.createReadStream(tempPath),
          ContentLength: size,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
          ChecksumSHA256,
        }),
      ),
    );
    await fsp.rm(tempPath, { force: true });
  }

  async stat(key: string): Promise<{ size: number; contentType: string } | null> {
    if (!isStorageKey(key)) return null;
    const head = await this.send(
      'HEAD',
      key,
      () => this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key })),
      () => null,
    );
    return head && { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    if (!isStorageKey(key)) return null;
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    const object = await this.send(
      'GET',
      key,
      () => this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key, Range })),
      () => null,
    );
    if (!object) return null;
    const total = object.ContentRange ? Number(/\/(\d+)$/.exec(object.ContentRange)?.[1]) : (object.ContentLength ?? 0);
    return { size: total, contentType: object.ContentType ?? 'application/octet-stream', body: object.Body as Readable };
  }

  async delete(key: string): Promise<void> {
    if (!isStorageKey(key)) return;
    await this.send(
      'DELETE',
      key,
      () => this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key })),
      () => undefined,
    );
  }
}
