import type { FastifyInstance } from 'fastify';
import { INLINE_SCRIPT_HASHES } from './inline-scripts.ts';

const CSP = [
  "default-src 'self'",
  // No inline script but the dashboard's two (inline-scripts.ts), by their hashes (the /docs page loads its init
  // script from a file).
  `script-src 'self' ${INLINE_SCRIPT_HASHES}`,
  "script-src-attr 'none'",
  // Mantine sets CSS variables through style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: data:",
  // The dashboard may manage a remote deployment of the API (sign-in screen).
  "connect-src 'self' https: http:",
  "font-src 'self' data:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * The same strict headers on every response, computed once (helmet rebuilt the CSP string on each
 * request: 5% of the CPU of a small API call). No upgrade-insecure-requests: plain-http hosts
 * (localhost, a LAN address) must keep working. Names in lower case, as they go on the wire: Fastify
 * lowercases every name it is given, and a name that is not already lower case becomes a new string to
 * look up in V8's string table, per header and request (~4% of a basic-info request's CPU in `perf`).
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CSP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-site',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * API answers (JSON, uploaded files) load nothing and are framed nowhere: the policy recommended for APIs,
 * stricter than the dashboard's and a third of its bytes on every call. And only the headers that act on a
 * response that is not a page (OWASP's REST Security Cheat Sheet: no-store, frame-ancestors, nosniff, HSTS,
 * X-Frame-Options; with CORP, which keeps other sites from loading the JSON into their own process). Those
 * that govern a page — its opener, agent cluster, referrer, DNS prefetching, Flash/PDF policies, the old XSS
 * auditor — would change nothing, and each costs Node a validated header on every call (the six: ~7% of the
 * instructions of a cached GET /v0/user/basic-info, counted with callgrind). An uploaded file opened in a tab
 * is a page, but a sandboxed one (files/routes.ts) whose policy lets it load nothing.
 */
export const API_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  ...Object.fromEntries(
    ['cross-origin-resource-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options'].map((name) => [name, SECURITY_HEADERS[name]!]),
  ),
};

/**
 * One hook (callback style: no promise per request) sets the security headers, the request id, and
 * `Cache-Control: no-store` on API answers; routes that may be cached (uploaded files, the OpenAPI
 * document) set their own.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    const api = req.url.startsWith('/v0/');
    reply.headers(api ? API_SECURITY_HEADERS : SECURITY_HEADERS);
    if (api && !req.url.startsWith('/v0/files/')) reply.header('cache-control', 'no-store');
    reply.header('x-request-id', req.id);
    done();
  });
}
