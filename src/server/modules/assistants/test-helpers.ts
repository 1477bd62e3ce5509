import { Readable } from 'node:stream';
import { synthesizeSample } from '../../voice/presets.ts';

export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
]);
export const WAV = synthesizeSample(200, 0.2);

const BOUNDARY = '----rostertestboundary7MA4YWxkTrZu0gW';

interface FilePart {
  field?: string;
  filename: string;
  contentType: string;
  content: Buffer | Readable;
}

/** A multipart/form-data body for app.inject; a Readable file part is streamed, never joined. */
export function multipart(fields: Record<string, string>, file?: FilePart) {
  const head: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    head.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  const tail = Buffer.from(`--${BOUNDARY}--\r\n`);
  if (!file) return { headers, payload: Buffer.concat([...head, tail]) };
  const fileHead = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
  );
  const fileTail = Buffer.from(`\r\n`);
  if (Buffer.isBuffer(file.content)) {
    return { headers, payload: Buffer.concat([...head, fileHead, file.content, fileTail, tail]) };
  }
  const content = file.content;
  async function* parts() {
    for (const b of head) yield b;
    yield fileHead;
    for await (const chunk of content) yield chunk as Buffer;
    yield fileTail;
    yield tail;
  }
  return { headers, payload: Readable.from(parts()) };
}

/** `total` bytes of zeros produced lazily in 64 KiB chunks. */
export function zeros(total: number, first?: Buffer): Readable {
  async function* gen() {
    let left = total;
    if (first) {
      yield first;
      left -= first.length;
    }
    const chunk = Buffer.alloc(64 * 1024);
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
  }
  return Readable.from(gen());
}
