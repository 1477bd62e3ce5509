import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES } from '../../shared/assistants.ts';

export interface ReceivedFile<T> {
  tempPath: string;
  size: number;
  /** What the first bytes say the file is, or null when the sniffer does not accept it. */
  type: T | null;
  /** True when more than maxBytes arrived (the rest was discarded, never buffered). */
  tooLarge: boolean;
  /** SHA-256 (base64url) of the bytes received, hashed as they streamed by (an Idempotency-Key fingerprint). */
  sha256: string;
}

/**
 * Streams an upload to a temp file, counting bytes and keeping only its first bytes in memory for
 * the type check. Past `maxBytes` it stops writing and drains the rest, so a 100 MB upload costs
 * neither memory nor disk. The caller removes the temp file (see discard) or hands it to storage.
 */
export async function receiveToTempFile<T>(source: Readable, tempDir: string, maxBytes: number, sniff: (head: Uint8Array) => T | null): Promise<ReceivedFile<T>> {
  await fsp.mkdir(tempDir, { recursive: true, mode: 0o700 });
  const tempPath = path.join(tempDir, `${crypto.randomUUID()}.part`);
  let size = 0;
  let head = Buffer.alloc(0);
  let tooLarge = false;
  const hash = crypto.createHash('sha256');
  const guard = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      size += chunk.length;
      if (!tooLarge) hash.update(chunk);
      if (size > maxBytes) {
        tooLarge = true;
        return done(); // drop: keep draining the source without writing
      }
      done(null, chunk);
    },
  });
  const out = fs.createWriteStream(tempPath, { flags: 'wx' });
  try {
    await pipeline(source, guard, out);
  } catch (error) {
    // A source that fails early (a body cut off mid-file) can reject the pipeline while the file is
    // still being opened: removing it before the stream closes would let the open create it afterwards.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await discard(tempPath);
    throw error;
  }
  // A multipart parser with its own fileSize limit truncates rather than passing the excess through.
  if ((source as Readable & { truncated?: boolean }).truncated) tooLarge = true;
  return { tempPath, size, type: sniff(new Uint8Array(head)), tooLarge, sha256: hash.digest('base64url') };
}

export async function discard(tempPath: string): Promise<void> {
  await fsp.rm(tempPath, { force: true });
}

/** A random, unguessable object name: file URLs are capabilities (an <img> cannot send a bearer key). */
export function randomObjectName(): string {
  return crypto.randomBytes(16).toString('base64url');
}
