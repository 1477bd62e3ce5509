// `npm start`: builds the dashboard when dist/ is missing or older than its sources, then runs the server.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { newestMtime } from './server-bundle.mjs';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.resolve(root, process.env.ROSTER_WEB_DIR || 'dist');
const sources = ['index.html', 'vite.config.ts', 'public', 'src/web', 'src/shared', 'package-lock.json'];

if (process.env.ROSTER_WEB_DIR !== 'none') {
  const built = path.join(webDir, 'index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  const changedAt = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  if (changedAt > builtAt) {
    console.log(builtAt ? 'Dashboard sources changed: rebuilding…' : 'Building the dashboard (first start)…');
    // The whole production build (scripts/build.mjs): the app, the server-rendered first screens and the
    // precompressed copies the server sends as they are.
    const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--outDir', webDir], {
      cwd: root,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

const server = spawn(process.execPath, [path.join(root, 'scripts/roster.mjs'), 'serve'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
