// The dashboard's build puts src/web/lib/mantine-use-id.ts in the place of Mantine's useId (scripts/mantine-use-id.ts):
// the module it replaces must still exist where the plugin looks, the build must really use ours, and ours must
// give ids that are distinct, stable and usable in `for`/`aria-*` attributes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement, Fragment } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { useId } from '../src/web/lib/mantine-use-id.ts';
import { MANTINE_USE_ID } from './mantine-use-id.ts';

const root = path.resolve(import.meta.dirname, '..');
const hooksDir = path.join(root, 'node_modules/@mantine/hooks');

describe("Mantine's useId, replaced", () => {
  it('is where the plugin looks for it, and is what @mantine/hooks exports', () => {
    const file = path.join(hooksDir, 'esm/use-id/use-id.mjs');
    expect(fs.existsSync(file)).toBe(true);
    expect(MANTINE_USE_ID.test(file)).toBe(true);
    expect(fs.readFileSync(path.join(hooksDir, 'esm/index.mjs'), 'utf8')).toMatch(/import \{ useId \} from "\.\/use-id\/use-id\.mjs"/);
  });

  it('is ours in the built dashboard', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-use-id-'));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><script type="module" src="/src/main.ts"></script></body></html>');
    fs.writeFileSync(path.join(dir, 'src/main.ts'), "import { useId } from '@mantine/hooks';\n(globalThis as Record<string, unknown>).useId = useId;\n");
    const outDir = path.join(dir, 'dist');
    try {
      await build({ root: dir, configFile: path.join(root, 'vite.config.ts'), logLevel: 'silent', build: { outDir, minify: false } });
      const code = fs
        .readdirSync(path.join(outDir, 'assets'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => fs.readFileSync(path.join(outDir, 'assets', f), 'utf8'))
        .join('\n');
      expect(code).toContain('/[^\\w-]/g');
      // Mantine's swaps the id for a random one in a layout effect.
      expect(code).not.toContain('setUuid');
    } finally {
      // The symbolic link goes, not the repository's node_modules it points to.
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('gives each caller its own id, the same on every render, and keeps an id given', () => {
    const seen: string[][] = [];
    function Ids() {
      const ids = [useId(), useId(), useId('given-id')];
      seen.push(ids);
      return createElement(
        Fragment,
        null,
        ids.map((id) => createElement('label', { key: id, htmlFor: id }, id)),
      );
    }
    const html = renderToString(createElement(Fragment, null, createElement(Ids), createElement(Ids)));
    const [first, second] = seen;
    expect(new Set([...first.slice(0, 2), ...second.slice(0, 2)]).size).toBe(4);
    for (const id of [...first.slice(0, 2), ...second.slice(0, 2)]) expect(id).toMatch(/^mantine-[\w-]+$/);
    expect(first[2]).toBe('given-id');
    expect(html).toContain(`for="${first[0]}"`);
    // Rendering the same tree again gives the same ids (React's are derived from the tree's shape).
    seen.length = 0;
    renderToString(createElement(Fragment, null, createElement(Ids), createElement(Ids)));
    expect(seen).toEqual([first, second]);
  });
});
