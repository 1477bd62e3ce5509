/**
 * A phone's photo (often 4000×3000 and 6–12 MB) made small enough to upload, in the browser: drawn on a
 * canvas with its longer side at most 2048 px and saved as JPEG (or WebP, keeping transparency), lowering
 * the quality until it fits the server's limit. Smaller photos pass through untouched.
 */

import { PHOTO_MAX_BYTES } from '../../../shared/assistant-rules.ts';
import { formatBytes } from './file-rules.ts';

export const PHOTO_LONG_SIDE = 2048;

export interface PictureSize {
  bytes: number;
  width: number;
  height: number;
}

export interface FittedPhoto {
  file: File;
  /** The MIME type of `file` (what the bytes are). */
  type: string;
  before: PictureSize;
  /** What it became, when it had to be reduced; null when the original is used as it is. */
  after: PictureSize | null;
}

/** Whether a picture of this size must be reduced before upload. */
export function needsReducing(size: PictureSize): boolean {
  return size.bytes > PHOTO_MAX_BYTES || Math.max(size.width, size.height) > PHOTO_LONG_SIDE;
}

/** The size a picture is drawn at: the longer side at most PHOTO_LONG_SIDE, the shape kept. */
export function reducedDimensions(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, PHOTO_LONG_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const QUALITIES = [0.9, 0.8, 0.7, 0.55];

function toBlob(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

/** Throws (with a sentence to show) when the browser cannot read or redraw the picture. */
export async function fitPhoto(file: File, type: string): Promise<FittedPhoto> {
  let bitmap: ImageBitmap;
  try {
    // The EXIF orientation is applied, as the cropper's <img> shows it.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new Error('This image could not be read. Choose another file.');
  }
  try {
    const before = { bytes: file.size, width: bitmap.width, height: bitmap.height };
    if (!needsReducing(before)) return { file, type, before, after: null };
    const { width, height } = reducedDimensions(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error(`This browser cannot make the photo smaller. Choose one of at most ${formatBytes(PHOTO_MAX_BYTES)}.`);
    // Photos stay JPEG; other kinds may be transparent, which WebP keeps (JPEG would turn it black).
    let target = type === 'image/jpeg' ? 'image/jpeg' : 'image/webp';
    const draw = () => {
      ctx.clearRect(0, 0, width, height);
      if (target === 'image/jpeg') {
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, width, height);
      }
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, 0, 0, width, height);
    };
    draw();
    let blob: Blob | null = null;
    for (const quality of QUALITIES) {
      blob = await toBlob(canvas, target, quality);
      // A browser without a WebP encoder hands back PNG: JPEG then, on white.
      if (blob && blob.type !== target) {
        target = 'image/jpeg';
        draw();
        blob = await toBlob(canvas, target, quality);
      }
      if (blob && blob.size <= PHOTO_MAX_BYTES) break;
    }
    if (!blob || blob.size > PHOTO_MAX_BYTES) throw new Error(`This photo could not be made small enough. Choose one of at most ${formatBytes(PHOTO_MAX_BYTES)}.`);
    const stem = file.name.replace(/\.[^.]+$/, '') || 'photo';
    const reduced = new File([blob], `${stem}.${target === 'image/jpeg' ? 'jpg' : 'webp'}`, { type: target });
    return { file: reduced, type: target, before, after: { bytes: reduced.size, width, height } };
  } finally {
    bitmap.close();
  }
}
