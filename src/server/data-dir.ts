import fs from 'node:fs';

// The data directory holds the database, uploaded files and outgoing mail: only the server's own user
// may read it (security review: it was created 755 and the database 644).

/** Creates the directory private (700) when missing; returns a warning when an existing one is open to others. */
export function preparePrivateDir(dir: string): string | null {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return null;
  return `The data directory ${dir} can be read by other users of this machine (mode ${mode.toString(8)}): run chmod 700 on it.`;
}
