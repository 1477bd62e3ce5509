import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { synthesizeSample } from '../../voice/presets.ts';

/** A real, decodable 16×12 PNG (uploads are decoded and re-encoded, so a header alone is refused). */
export const PNG = await sharp({ create: { width: 16, height: 12, channels: 4, background: { r: 30, g: 90, b: 200, alpha: 1 } } })
  .png()
  .toBuffer();

/** A PNG chunk with its length and CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a well-formed PNG of about 1 KB whose header declares width×height RGB pixels
 * (its one IDAT is a megabyte of zeros, deflated).
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([PNG.subarray(0, 8), pngChunk('IHDR', header), pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(1024 * 1024))), pngChunk('IEND', Buffer.alloc(0))]);
}

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
