import type { FastifyInstance } from 'fastify';
import { isStorageKey, type ByteRange } from '../../storage/storage.ts';
import { FILES_PATH } from './urls.ts';

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range); null when absent or not satisfiable as one range. */
function parseRange(header: string | undefined, size: number): ByteRange | 'invalid' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // multiple or malformed ranges: send it whole
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

/**
 * Stored files: public by unguessable name (an <img> or <audio> cannot send a bearer key), never
 * changed once written, so cacheable forever. The type comes from the name the server chose after
 * sniffing; nosniff stops browsers from guessing otherwise.
 *
 * A plain Fastify route, not an operation: the key is a wildcard path (`photos/x.png`, which a `{param}`
 * segment cannot hold), the answer is bytes (not a JSON schema), and it is outside the OpenAPI document.
 */
export function filesRoutes(app: FastifyInstance): void {
  const storage = app.deps.storage;
  app.get(`${FILES_PATH}*`, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    if (!isStorageKey(key)) return reply.code(404).header('Cache-Control', 'no-store').send({ detail: 'File not found.' });
    const etag = `"${key.slice(key.lastIndexOf('/') + 1)}"`;
    const head = await storage.stat(key);
    if (!head) return reply.code(404).header('Cache-Control', 'no-store').send({ detail: 'File not found.' });
    reply.headers({
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: etag,
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': 'inline',
      // The dashboard may run on another origin (remote API); files are public by name anyway.
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    const range = parseRange(req.headers.range, head.size);
    if (range === 'invalid') {
      return reply.code(416).header('Content-Range', `bytes */${head.size}`).send({ detail: 'Range not satisfiable.' });
    }
    const object = await storage.get(key, range ?? undefined);
    if (!object) return reply.code(404).send({ detail: 'File not found.' });
    reply.type(object.contentType);
    if (range) {
      reply
        .code(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${object.size}`)
        .header('Content-Length', range.end - range.start + 1);
    } else {
      reply.header('Content-Length', object.size);
    }
    return reply.send(object.body);
  });
}
