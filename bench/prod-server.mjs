// The production build served by the real server on a fresh data directory, for the browser audits
// (`npm run lighthouse`, `npm run bench:typing`). Builds the dashboard, starts the server, and offers the
// CLI and an API client to seed data.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export async function startProdServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-audit-'));
  const webDir = path.join(dataDir, 'web');
  const port = 21000 + Math.floor(Math.random() * 9000);
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, ROSTER_DATA_DIR: dataDir, ROSTER_LOG_LEVEL: 'silent' };

  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--outDir', webDir], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the dashboard build failed');

  const server = spawn(process.execPath, [path.join(root, 'scripts/roster.mjs'), 'serve'], {
    cwd: root,
    // Seeding makes thousands of calls: the limits stay on, high enough not to answer 429.
    env: { ...env, PORT: String(port), ROSTER_WEB_DIR: webDir, ROSTER_SEED_DEMO: 'false', ROSTER_LOG_LEVEL: 'warn', ROSTER_RATE_LIMIT: '1000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Roster is running')) resolve();
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });

  /** `npm run roster -- …` on this data directory; returns its JSON output. */
  function cli(...args) {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/roster.mjs'), ...args], { cwd: root, encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`CLI ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  }

  async function api(key, method, url, body) {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Runs `count` calls with a few in flight at once. */
  async function many(count, run, parallel = 8) {
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) await run(next++);
      }),
    );
  }

  function stop() {
    server.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  return { base, cli, api, many, stop };
}
