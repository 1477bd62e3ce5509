import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { default as Sharp } from 'sharp';
import type { PhotoType } from '../../../shared/assistants.ts';
import { invalid } from '../../http/errors.ts';
import { discard } from '../../storage/upload.ts';

/**
 * Decoding limit: 40 megapixels. A 5 MiB photo is in practice at most ~25 MP (a 12 MP phone JPEG is
 * 2–4 MiB), so this leaves room for large panoramas and screenshots while refusing decompression bombs
 * (a PNG of a few KB can declare 100000×100000 = 10 gigapixels).
 */
export const PHOTO_MAX_PIXELS = 40_000_000;
/** Stored photos fit in this square (the dashboard shows avatars far smaller and crops to ≤ 1024). */
export const PHOTO_MAX_SIDE = 2048;
/** A decode that takes longer than this is a pixel flood, not a photo. */
const DECODE_TIMEOUT_SECONDS = 20;

/**
 * What a photo is stored as: the same family, except GIF, which becomes PNG (only still images are
 * accepted, and PNG holds one GIF frame losslessly, transparency included).
 */
const OUTPUT_OF: Record<PhotoType, 'image/jpeg' | 'image/png' | 'image/webp'> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/webp': 'image/webp',
  'image/gif': 'image/png',
};
/** sharp's name for each accepted input type: the decoder must agree with the magic-byte sniffer. */
const SHARP_FORMAT: Record<PhotoType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' };

/**
 * libvips is loaded with the first photo, not with the server: it adds ~19 MB of memory that a server
 * nobody uploads photos to never needs. Each upload is a new image, so its operation cache is off.
 */
let loaded: Promise<typeof Sharp> | null = null;
function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}

export interface ReencodedPhoto {
  tempPath: string;
  size: number;
  type: 'image/jpeg' | 'image/png' | 'image/webp';
}

const refuse = (msg: string) => invalid(['form', 'file'], msg);

/**
 * Decodes an accepted upload (already size-limited and sniffed) and writes a fresh image to a new temp
 * file: EXIF orientation applied, at most PHOTO_MAX_SIDE on a side, and no metadata (EXIF, GPS, XMP,
 * ICC, comments) or bytes after the image (appended ZIP/HTML/script) carried over, since only decoded
 * pixels are encoded again. Bombs, animations and undecodable files → 422 on `file`. The input temp
 * file is always removed; on success the caller owns the output.
 */
export async function reencodePhoto(input: string, type: PhotoType, tempDir: string): Promise<ReencodedPhoto> {
  let output: string | null = null;
  try {
    const sharp = await loadSharp();
    // The header only (no pixels), read without the pixel limit so the refusal can say the size.
    const meta = await sharp(input, { limitInputPixels: false })
      .metadata()
      .catch((error: Error) => {
        throw refuse(`The image could not be read (${firstLine(error, input)}). Upload an intact JPEG, PNG, WebP or GIF.`);
      });
    if (meta.format !== SHARP_FORMAT[type]) {
      throw refuse(`The file starts like ${type} but decodes as ${meta.format ?? 'nothing known'}. Upload an intact JPEG, PNG, WebP or GIF.`);
    }
    if ((meta.pages ?? 1) > 1) throw refuse('Animated or multi-page images are not accepted. Upload a still image.');
    if (meta.width * meta.height > PHOTO_MAX_PIXELS) {
      throw refuse(
        `The image is ${meta.width}×${meta.height} pixels; at most ${PHOTO_MAX_PIXELS / 1_000_000} megapixels are accepted. Scale it down and upload it again.`,
      );
    }
    const outType = OUTPUT_OF[type];
    // failOn 'warning' (sharp's advice for untrusted input): truncated or damaged pixel data is refused.
    let pipeline = sharp(input, { failOn: 'warning', limitInputPixels: PHOTO_MAX_PIXELS })
      .autoOrient()
      .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS });
    pipeline = outType === 'image/jpeg' ? pipeline.jpeg({ quality: 85 }) : outType === 'image/webp' ? pipeline.webp({ quality: 85 }) : pipeline.png();
    // The output is bounded (≤ 2048² pixels), so it is held in memory, then written with plain fs so a
    // disk failure stays a server error and every decoder complaint is the client's file.
    const encoded = await pipeline.toBuffer().catch((error: Error) => {
      throw refuse(
        /^timeout/.test(error.message)
          ? `The image took more than ${DECODE_TIMEOUT_SECONDS} seconds to decode. Upload a smaller, ordinary photo.`
          : `The image could not be decoded; it may be truncated or damaged (${firstLine(error, input)}). Upload an intact JPEG, PNG, WebP or GIF.`,
      );
    });
    output = path.join(tempDir, `${crypto.randomUUID()}.part`);
    await fsp.writeFile(output, encoded, { flag: 'wx' });
    return { tempPath: output, size: encoded.length, type: outType };
  } catch (error) {
    if (output) await discard(output);
    throw error;
  } finally {
    await discard(input);
  }
}

/** libvips joins several messages with newlines; the first says enough, without our temp path. */
function firstLine(error: Error, input: string): string {
  const line = (error.message.split('\n').find((l) => l.trim() !== '') ?? 'unknown error').trim();
  return line.split(input).join('the file').replace(/:$/, '').slice(0, 200);
}
