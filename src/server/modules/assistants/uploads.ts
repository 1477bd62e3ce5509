import { finished } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { z } from 'zod';
import { badRequest, HttpError, invalid, payloadTooLarge, unsupportedMediaType } from '../../http/errors.ts';
import { parseOr422 } from '../../http/validation.ts';
import { canonicalJson } from '../../canonical-json.ts';
import { sha256 } from '../../http/idempotency.ts';
import { discard, receiveToTempFile } from '../../storage/upload.ts';

/** Errors busboy raises for a body that is not well-formed multipart (truncated, wrong boundary…). */
const MALFORMED_MULTIPART = /^(Unexpected end of (multipart data|form)|Multipart: Boundary not found|Malformed part header|Malformed urlencoded form)/;

export interface ParsedUpload<F, T> {
  fields: F;
  file: { tempPath: string; size: number; type: T };
  /**
   * What the request asks for, for an Idempotency-Key: a hash of the text fields as received and of
   * the file's bytes (hashed while streaming). Independent of the multipart boundary, part order,
   * file name and declared type, none of which change what the upload does.
   */
  fingerprint: string;
}

/**
 * Counts the upload requests whose handler has not settled. An upload cut off mid-file must settle
 * (answered or failed, its temp file gone) instead of waiting for bytes that never come: the test that
 * cuts connections checks this comes back to 0 (app.openUploads()).
 */
export function uploadCounter() {
  let open = 0;
  return {
    open: () => open,
    async track<R>(handle: () => Promise<R>): Promise<R> {
      open += 1;
      try {
        return await handle();
      } finally {
        open -= 1;
      }
    },
  };
}

/**
 * The multipart parser, for the upload routes' scope only. They stream parts themselves (req.parts()) with
 * per-route file size limits, checked by readUpload (truncated → 413 with their own message), not thrown here.
 */
export async function registerMultipart(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fieldNameSize: 100, fieldSize: 64 * 1024, fields: 20, files: 1, parts: 25, headerPairs: 100 },
  });
}

export interface UploadRules<T> {
  maxBytes: number;
  tooLarge: string;
  sniff: (head: Uint8Array) => T | null;
  unsupported: string;
}

/**
 * Reads a multipart request: text fields into `fields`, the `file` part streamed to a temp file with
 * its size limit enforced as it arrives. Then checks, in order: fields (422), size (413), emptiness
 * (422), type by magic bytes (415). On any error the temp file is gone; on success the caller owns it.
 */
export async function readUpload<S extends z.ZodType, T>(
  req: FastifyRequest,
  tempDir: string,
  fieldsSchema: S,
  rules: UploadRules<T>,
): Promise<ParsedUpload<z.output<S>, T>> {
  if (!req.isMultipart()) {
    throw new HttpError(422, [{ type: 'missing', loc: ['form', 'file'], msg: 'Field required (send multipart/form-data with a file field).' }]);
  }
  const raw: Record<string, string> = {};
  let received: Awaited<ReturnType<typeof receiveToTempFile<T>>> | null = null;
  try {
    const parts = req.parts({ limits: { fileSize: rules.maxBytes } });
    for await (const part of parts) {
      if (part.type === 'file') {
        const filePart = part as MultipartFile;
        if (filePart.fieldname !== 'file' || received) {
          // Not ours: drain it. finished() also settles when the part fails or the connection is cut,
          // where waiting for 'end' alone waited forever.
          filePart.file.resume();
          await finished(filePart.file);
          continue;
        }
        received = await receiveToTempFile(filePart.file, tempDir, rules.maxBytes, rules.sniff);
      } else if (typeof part.value === 'string' && part.value.trim() !== '') {
        // An empty form field means "not given", as null does in JSON.
        raw[part.fieldname] = part.value;
      }
    }
    const fields = parseOr422(fieldsSchema, raw, 'form');
    if (!received) throw invalid(['form', 'file'], 'Field required', 'missing');
    if (received.tooLarge) throw payloadTooLarge(rules.tooLarge);
    if (received.size === 0) throw invalid(['form', 'file'], 'The file is empty.');
    if (received.type === null) throw unsupportedMediaType(rules.unsupported);
    return {
      fields,
      file: { tempPath: received.tempPath, size: received.size, type: received.type },
      fingerprint: sha256(canonicalJson({ fields: raw, file: received.sha256 })),
    };
  } catch (error) {
    if (received) await discard(received.tempPath);
    // The client went away mid-body (closed or reset): its fault, not the server's, and nobody reads
    // the answer; the parser and file streams have failed with it and the temp file is gone.
    if (!(error instanceof HttpError) && req.raw.destroyed && !req.raw.complete) {
      throw badRequest('The upload was cut off before its end. Send the whole multipart body again.');
    }
    // The multipart parser's complaints are the client's body, not a server fault.
    if (!(error instanceof HttpError) && MALFORMED_MULTIPART.test((error as Error).message)) {
      throw badRequest(`The multipart body is malformed or cut off (${(error as Error).message}). Send multipart/form-data with a file field.`);
    }
    throw error;
  }
}
