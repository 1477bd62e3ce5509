// `npm run dev`: the API server on PORT (default 8080) and Vite with hot reload on 5173, proxying /v0 to it.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = { ROSTER_PUBLIC_URL: 'http://localhost:5173', ...process.env, ROSTER_WEB_DIR: 'none' };
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', path.join(root, 'src/server/bin.ts'), 'serve'], { cwd: root, env, stdio: 'inherit' }),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], { cwd: root, env, stdio: 'inherit' }),
];
const stop = (signal) => children.forEach((child) => child.kill(signal));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exit(code ?? 0);
  });
