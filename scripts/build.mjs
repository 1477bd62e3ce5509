// `npm run build`: the production dashboard, then its JavaScript budget: what the sign-in route and
// the shell load (the entry chunk and its static imports) must stay within 200 KB gzip.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--outDir');
const outDir = path.resolve(root, outIndex >= 0 ? args[outIndex + 1] : 'dist');
const BUDGET_KB = Number(process.env.ROSTER_JS_BUDGET_KB || 200);

const build = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

// The first screens the server renders into the HTML (src/web/frame.tsx): a module for Node, next to the
// files it serves but never served itself (the static files plugin ignores dot-directories).
const frameDir = path.join(outDir, '.frame');
const frame = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--ssr', 'src/web/frame.tsx', '--outDir', frameDir, '--emptyOutDir', '--logLevel', 'warn'],
  { cwd: root, stdio: 'inherit' },
);
if (frame.status !== 0) process.exit(frame.status ?? 1);
console.log(`Server-rendered first screens: ${path.relative(root, frameDir) || frameDir}`);

// Precompressed copies (brotli at its best quality, gzip) for the server to send as they are: assets are
// compressed once here instead of on every request.
const compressible = /\.(js|css|html|svg|json|txt|map)$/;
let precompressed = 0;
for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !compressible.test(entry.name) || entry.parentPath.startsWith(frameDir)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const raw = fs.readFileSync(file);
  if (raw.length < 1024) continue;
  fs.writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
  fs.writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
  precompressed += 1;
}
console.log(`Precompressed ${precompressed} files (.br, .gz).`);

const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'));
const gzKb = (file) => gzipSync(fs.readFileSync(path.join(outDir, file))).length / 1024;

/** Files a chunk needs before it runs: itself and its static imports, transitively. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const firstScreens = {
  'sign-in': 'src/web/app/sign-in-page.tsx',
  shell: 'src/web/app/layout/signed-in-layout.tsx',
};
const rows = Object.values(manifest)
  .filter((c) => c.file.endsWith('.js'))
  .map((c) => ({ file: c.file, kb: gzKb(c.file) }))
  .sort((a, b) => b.kb - a.kb);
console.log('\nJavaScript (gzip):');
for (const r of rows) console.log(`  ${r.kb.toFixed(1).padStart(7)} KB  ${r.file}`);

// Mantine's styles are imported per component (src/web/app/mantine-styles.css): a component used without
// its sheet would render unstyled. Its class names (m_ and 8 hex digits, keyframes included) must all be
// in the emitted CSS.
const assets = fs.readdirSync(path.join(outDir, 'assets'));
const emitted = (ext) =>
  assets
    .filter((f) => f.endsWith(ext))
    .map((f) => fs.readFileSync(path.join(outDir, 'assets', f), 'utf8'))
    .join('\n');
const css = emitted('.css');
const unstyled = [...new Set(emitted('.js').match(/\bm_[0-9a-f]{8}\b/g) ?? [])].filter((name) => !css.includes(name));
let over = false;
if (unstyled.length) {
  const sheetsDir = path.join(root, 'node_modules/@mantine/core/styles');
  const sheets = fs.readdirSync(sheetsDir).filter((f) => f.endsWith('.css') && !f.endsWith('.layer.css'));
  const missing = new Set(unstyled.map((name) => sheets.find((f) => fs.readFileSync(path.join(sheetsDir, f), 'utf8').includes(name)) ?? name));
  console.error(`Mantine styles missing for components in use: ${[...missing].join(', ')}. Import them in src/web/app/mantine-styles.css.`);
  over = true;
}
for (const [screen, source] of Object.entries(firstScreens)) {
  if (!manifest[source]) {
    console.error(`Budget check: ${source} is not a chunk of its own any more (it must stay lazy).`);
    over = true;
    continue;
  }
  const files = closure(source, closure(entryKey));
  const kb = [...files].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzKb(f), 0);
  console.log(`  first screen "${screen}": ${kb.toFixed(1)} KB of ${BUDGET_KB} KB budget`);
  if (kb > BUDGET_KB) {
    console.error(`The "${screen}" screen loads ${kb.toFixed(1)} KB gzip of JavaScript, over the ${BUDGET_KB} KB budget: lazy-load what it does not need.`);
    over = true;
  }
}
if (over) process.exit(1);
