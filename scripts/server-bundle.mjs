// The server as it runs outside development: src/server bundled by esbuild into one ES module
// (dependencies stay in node_modules). Running the TypeScript through tsx instead costs a loader thread with
// its own V8 heap (~56 MB of resident memory) and twice the start-up time. The bundle is rebuilt when a
// source is newer than it; a build is written under private names and renamed into place, so processes
// starting at the same time never read a half-written file.
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'dist-server');
export const serverBundle = path.join(outDir, 'main.mjs');
const sources = ['src/server', 'src/shared', 'package.json', 'package-lock.json'];

/** Newest modification time under `target` (0 when it does not exist). */
export function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Builds the bundle when it is missing or older than its sources; returns its path. */
export function ensureServerBundle() {
  const builtAt = fs.existsSync(serverBundle) ? fs.statSync(serverBundle).mtimeMs : 0;
  if (builtAt >= Math.max(...sources.map((s) => newestMtime(path.join(root, s))))) return serverBundle;
  fs.mkdirSync(outDir, { recursive: true });
  // Built in memory for the final path (the source map's paths are relative to it), written under private
  // names, then renamed into place: the map first, the module last.
  const { outputFiles } = buildSync({
    entryPoints: [path.join(root, 'src/server/bin.ts')],
    outfile: serverBundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    write: false,
    logLevel: 'error',
  });
  outputFiles.sort((a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')));
  for (const file of outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    fs.writeFileSync(partial, file.contents);
    fs.renameSync(partial, file.path);
  }
  return serverBundle;
}
