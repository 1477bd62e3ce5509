// The server the e2e suite drives: the production build of the dashboard (built here unless
// E2E_WEB_DIR points at one) and the real API on a fresh data directory.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = process.env.E2E_DATA_DIR;
const port = process.env.E2E_PORT;
if (!dataDir || !port) throw new Error('E2E_DATA_DIR and E2E_PORT are set by playwright.config.ts');

let webDir = process.env.E2E_WEB_DIR;
if (!webDir || !fs.existsSync(path.join(webDir, 'index.html'))) {
  webDir = path.join(dataDir, 'web');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--outDir', webDir], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [path.join(root, 'scripts/roster.mjs'), 'serve'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: port,
    HOST: '127.0.0.1',
    ROSTER_DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${path.join(dataDir, 'roster.db')}`,
    ROSTER_WEB_DIR: webDir,
    ROSTER_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ROSTER_SEED_DEMO: 'false',
    ROSTER_LOG_LEVEL: 'warn',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
