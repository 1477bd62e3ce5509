import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { modulesFor } from '../../shared/pages.ts';
import { APP_LOADER_SCRIPT, COLOR_SCHEME_SCRIPT } from './inline-scripts.ts';

/** An entry of Vite's build manifest (`.vite/manifest.json`). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** The server-rendered first screens of a build (src/web/frame.tsx, in the build's `.frame/`). */
type RenderFrame = (url: string) => Promise<string | null>;

/** Where index.html's loading screen sits, which a server-rendered first screen replaces. */
const LOADING_SCREEN = /<!--first-screen-->[\s\S]*<!--\/first-screen-->/;

/** Rendered first screens kept, by address (a render takes a few milliseconds; most visits hit a few pages). */
const CACHED_PAGES = 500;

/**
 * New first screens rendered per second at most: each costs a few milliseconds of the event loop, and
 * addresses are the caller's to invent. Beyond it a page starts from the loading screen (not cached).
 */
const RENDERS_PER_SECOND = 50;

/**
 * The dashboard's index.html for an address, or null without a built dashboard in `webDir`.
 *
 * - The page's first screen is rendered into it (the shell and the page in their loading state), so that it
 *   paints with the HTML and the stylesheet instead of once the JavaScript has arrived and run. Without a
 *   server render (a build without `.frame/`, or a render that failed) the static loading screen stays.
 * - The JavaScript starts once that has painted (inline-scripts.ts): the entry, with the chunks of the page
 *   the address shows and of the shell around it (from src/shared/pages.ts and Vite's manifest), fetched
 *   together instead of each only once the entry has run.
 * - The color scheme is set before anything paints (inline-scripts.ts).
 */
export async function loadSpaIndex(webDir: string | null, log: FastifyBaseLogger): Promise<((url: string) => Promise<string>) | null> {
  if (!webDir || !fs.existsSync(path.join(webDir, 'index.html'))) return null;
  const html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8').replace(
    '<head>',
    // The first paint waits for the whole first screen to be parsed (the module list ends the body): a
    // paint of half of it grew the centred sign-in card under the reader's eyes.
    `<head>\n    <script>${COLOR_SCHEME_SCRIPT}</script>\n    <link rel="expect" href="#app-modules" blocking="render">`,
  );
  const withModules = modulesLoader(webDir, html);
  const renderFrame = await loadFrame(webDir, log);

  const pages = new Map<string, string>();
  let second = 0;
  let renders = 0;
  const mayRender = () => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) [second, renders] = [now, 0];
    return ++renders <= RENDERS_PER_SECOND;
  };
  return async (url) => {
    const cached = pages.get(url);
    if (cached !== undefined) {
      // Most recently used last: the first key is the one to drop.
      pages.delete(url);
      pages.set(url, cached);
      return cached;
    }
    const page = withModules(url);
    if (!renderFrame || !mayRender()) return page;
    const frame = await renderFrame(url).catch((err: unknown) => (log.error({ err, url }, 'first screen render failed'), null));
    const result = frame === null ? page : page.replace(LOADING_SCREEN, () => frame);
    if (pages.size >= CACHED_PAGES) pages.delete(pages.keys().next().value!);
    pages.set(url, result);
    return result;
  };
}

async function loadFrame(webDir: string, log: FastifyBaseLogger): Promise<RenderFrame | null> {
  const file = path.join(webDir, '.frame', 'frame.js');
  if (!fs.existsSync(file)) return null;
  try {
    const module = (await import(pathToFileURL(file).href)) as { renderFrame?: RenderFrame };
    return module.renderFrame ?? null;
  } catch (err) {
    log.error({ err }, 'the server-rendered first screens could not be loaded; pages start from the loading screen');
    return null;
  }
}

/** The entry's script tag and the modulepreload links Vite writes into index.html's head. */
const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * index.html with its JavaScript started by the loader (after the first paint), and the chunks of the page
 * an address shows added to what it fetches. A build without an entry script is served as it is.
 */
function modulesLoader(webDir: string, html: string): (url: string) => string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) return () => html;
  const entryModules = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]);
  const withoutScripts = html.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');
  const chunksOf = pageChunks(webDir);

  const pages = new Map<string, string>();
  return (url) => {
    const modules = modulesFor(url.split('?')[0]);
    const id = modules.map((m) => m.file).join(' ');
    let page = pages.get(id);
    if (page === undefined) {
      const preload = [...new Set([...entryModules, ...chunksOf(modules.map((m) => m.file))])];
      const list = JSON.stringify({ entry, preload });
      page = withoutScripts.replace(
        '</body>',
        `  <script type="application/json" id="app-modules">${list}</script>\n    <script>${APP_LOADER_SCRIPT}</script>\n  </body>`,
      );
      pages.set(id, page);
    }
    return page;
  };
}

/** The chunk files of source modules, with their static imports, minus what the entry loads anyway. */
function pageChunks(webDir: string): (sources: string[]) => string[] {
  const manifestFile = path.join(webDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return () => [];
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;

  /** A chunk's file and those of its static imports, transitively. */
  const closure = (key: string, into: Set<string>): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
    return into;
  };
  const loadedByEntry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, loadedByEntry);

  return (sources) => {
    const files = new Set<string>();
    for (const source of sources) closure(source, files);
    return [...files].filter((f) => !loadedByEntry.has(f)).map((f) => `/${f}`);
  };
}
