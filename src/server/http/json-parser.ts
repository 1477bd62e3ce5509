// Hand-written: Fastify's JSON parser has no nesting limit, and the depth must be checked before JSON.parse builds the tree.
import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies: an empty body is "no body" (clients send Content-Type: application/json on every call,
 * GET and DELETE included); anything else must parse. Prototype keys are harmless here because every
 * body goes through a zod object schema, which keeps only the fields it declares.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  // Every body of this API is JSON (or multipart for uploads): text/plain is refused with a 415
  // instead of arriving as a string that then reads as "field required".
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    if (nestingExceeds(text, MAX_JSON_DEPTH)) {
      const error = Object.assign(new SyntaxError(`nested deeper than ${MAX_JSON_DEPTH} levels.`), { statusCode: 400 });
      return done(error, undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      const error = err as Error & { statusCode?: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
}

/** Deeper bodies are refused before parsing: recursive work on them (validation, hashing) must stay bounded. */
export const MAX_JSON_DEPTH = 64;

/** Scans the text once, counting brackets outside strings: cheap next to JSON.parse itself. */
function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
