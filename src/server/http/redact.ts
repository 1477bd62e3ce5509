// What the request log may show of a URL: secrets travel in some (invite tokens in the path or the
// dashboard's /invite?token=…), and a log line outlives the secret's owner's control.

/** Query parameters whose value is a secret, whatever the route. */
const SECRET_PARAMS = new Set(['token', 'key', 'api_key', 'apikey', 'access_token', 'password', 'secret', 'code']);

/** The URL with secret path segments and query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).replace(/(\/invites\/)[^/?]+/g, '$1[redacted]');
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the raw name.
      }
      return SECRET_PARAMS.has(name.toLowerCase()) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
