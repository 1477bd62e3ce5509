// The production build's file names must not depend on where the repository is checked out: they are
// shown to browsers and end up in caches and logs. A small app (an entry, a static import from src and
// from node_modules, a lazy page) is built with the real vite.config.ts from a folder with an odd name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const FOLDER = 'checkout-qzxv';

function write(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

describe('production build file names', () => {
  it('do not contain the name of the folder the repository sits in', async () => {
    const checkout = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'roster-names-')), FOLDER);
    write(checkout, {
      'index.html': '<!doctype html><html><body><script type="module" src="/src/web/main.ts"></script></body></html>',
      'src/web/main.ts': "import { greet } from 'tiny-lib';\nimport { shell } from './shell.ts';\ndocument.body.append(greet(shell));\nvoid import('./page.ts');\n",
      'src/web/shell.ts': "export const shell = 'shell';\n",
      'src/web/page.ts': "import { greet } from 'tiny-lib';\nimport { shell } from './shell.ts';\nexport const page = greet(shell);\n",
      'node_modules/tiny-lib/package.json': '{ "name": "tiny-lib", "type": "module", "main": "index.js" }',
      'node_modules/tiny-lib/index.js': 'export const greet = (name) => `hello ${name}`;\n',
    });
    const outDir = path.join(checkout, 'dist');
    await build({ root: checkout, configFile: path.join(root, 'vite.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(1);
    expect(files.filter((f) => f.includes(FOLDER))).toEqual([]);
    // The code the entry imports statically is in the chunk named after the 'app' group.
    expect(files.filter((f) => /^assets[\\/]app-[\w-]+\.js$/.test(f))).toHaveLength(1);
  });
});
