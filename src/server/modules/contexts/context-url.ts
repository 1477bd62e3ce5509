// Context names hold "/" and the platform's clients put them in the path unescaped (logs-api.md §6):
// `DELETE /v0/project/P/contexts/a/b?include_children=True`, `POST …/contexts/a/b/commit`. Before routing,
// such a path is read by suffix and the name re-encoded into the one `{context_name}` segment the routes
// have (Fastify's rewriteUrl, app.ts):
// - a trailing `rename` (PATCH), `commit`/`rollback` (POST) or `commits` (GET) is the action on the
//   context the segments before it name; `POST …/contexts/add_logs` is the add-logs action;
// - Roster's own row routes take the name as ONE segment (the dashboard encodes it): `GET`/`POST
//   …/{c}/logs` and `PATCH`/`DELETE …/{c}/logs/{id}` with a single segment before `logs` (and one after it). A raw
//   `…/a/b/logs` (several segments before it) is therefore the context named `a/b/logs`, as the contract
//   reads it; the rows of `a/b` are at `…/a%2Fb/logs`.
// - everything else after `contexts/` is the name. Segments are percent-decoded one by one; empty
//   segments at either end are dropped (leading/trailing "/").

const CONTEXT_PATH = /^(\/v0\/project\/[^/?#]+\/contexts)\/([^?#]*)(.*)$/s;

const ACTIONS: Record<string, readonly string[]> = { PATCH: ['rename'], POST: ['commit', 'rollback'], GET: ['commits'] };
const ROW_LIST_METHODS = ['GET', 'POST'];
const ROW_METHODS = ['PATCH', 'DELETE'];

function decodeAll(segments: string[]): string[] | null {
  try {
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/** The URL routed for `method url`: unchanged unless it addresses a context by a (possibly multi-segment) name. */
export function contextUrl(method: string, url: string): string {
  const match = CONTEXT_PATH.exec(url);
  if (!match) return url;
  const [, base, rest, tail] = match as unknown as [string, string, string, string];
  const raw = rest.split('/');
  while (raw.length > 0 && raw[0] === '') raw.shift();
  while (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  if (raw.length === 0) return `${base}${tail}`;
  if (method === 'POST' && raw.length === 1 && raw[0] === 'add_logs') return url;
  // A malformed escape: left for the router, which answers 400.
  const segments = decodeAll(raw);
  if (!segments) return url;
  const at = (name: string, suffix: string[]) => [base, encodeURIComponent(name), ...suffix].join('/') + tail;
  if (segments.length === 2 && raw[1] === 'logs' && ROW_LIST_METHODS.includes(method)) return at(segments[0]!, ['logs']);
  // Whatever the id segment holds (a non-number is the row route's 422, not another context's name).
  if (segments.length === 3 && raw[1] === 'logs' && ROW_METHODS.includes(method)) return at(segments[0]!, ['logs', raw[2]!]);
  const last = raw[raw.length - 1]!;
  if (segments.length >= 2 && ACTIONS[method]?.includes(last)) return at(segments.slice(0, -1).join('/'), [last]);
  return at(segments.join('/'), []);
}
