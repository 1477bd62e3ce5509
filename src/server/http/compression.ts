import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

/** Smaller answers go as they are: compressing them saves less than it costs. */
const COMPRESS_THRESHOLD = 1024;

// JSON, HTML and other text; not images, audio or an already-compressed format.
const COMPRESSIBLE = /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml|javascript)\b)/;

const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];

function encodingFor(req: FastifyRequest): 'br' | 'gzip' | null {
  const header = req.headers['accept-encoding'];
  if (!header) return null;
  // x-gzip is the old name of gzip (RFC 9110 §8.4.1.3).
  return negotiate(header.toLowerCase().replace(/\bx-gzip\b/g, 'gzip'), ENCODINGS);
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'Accept-Encoding');
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(String(vary))) reply.header('vary', `${String(vary)}, Accept-Encoding`);
}

/**
 * Answers made whole in memory (JSON, pages, the OpenAPI document) of at least 1 KB are sent with brotli or
 * gzip when the client takes one. Streams (the build's assets, which are precompressed, and stored files)
 * go as they are. Brotli's fastest quality: on a 2.3 MB list of 10 000 contexts it took 3 ms for 40 KB where
 * @fastify/compress's default (4) took 8 ms for 48 KB.
 */
const compressAnswer: onSendHookHandler<unknown> = (req, reply, payload, done) => {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  const size = Buffer.byteLength(payload);
  if (size < COMPRESS_THRESHOLD || reply.statusCode === 206 || reply.getHeader('content-encoding') !== undefined) return done(null, payload);
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
  addVary(reply);
  const encoding = encodingFor(req);
  if (!encoding) return done(null, payload);
  const body =
    encoding === 'br'
      ? brotliCompressSync(payload, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size } })
      : gzipSync(payload, { level: 4 });
  reply.header('content-encoding', encoding).header('content-length', body.length);
  done(null, body);
};

/**
 * Compression both ways. Request bodies sent with Content-Encoding gzip, br or deflate are inflated by
 * @fastify/compress (route.ts turns that off for operations without a body). Answers are compressed by one
 * global hook above instead of the plugin's: the plugin adds an onRequest and an onSend hook to every route,
 * which cost at least ~1.5 µs of a cached GET /v0/user/basic-info's ~30 (its onSend and the header reads it
 * makes, in a CPU profile; the hook runners on top) for answers that are almost all under the threshold.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook (added below): no route gets the plugin's answer hooks.
  app.addHook('onRoute', (routeOptions) => {
    routeOptions.compress = false;
  });
  await app.register(compress);
  app.addHook('onSend', compressAnswer);
}
