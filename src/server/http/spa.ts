import fs from 'node:fs';
import path from 'node:path';
import { modulesFor } from '../../shared/pages.ts';

/** An entry of Vite's build manifest (`.vite/manifest.json`). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * The dashboard's index.html for an address, or null without a built dashboard in `webDir`.
 *
 * The page's own chunks are named in the head (`<link rel="modulepreload">`: the page the address shows,
 * and the shell around it, with what they import), so the browser fetches them with the entry. Without
 * them it learnt of them only once the entry had downloaded and run: a round trip later on a phone.
 * A build without a manifest is served as it is.
 */
export function loadSpaIndex(webDir: string | null): ((url: string) => string) | null {
  if (!webDir || !fs.existsSync(path.join(webDir, 'index.html'))) return null;
  const html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const manifestFile = path.join(webDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return () => html;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;

  /** A chunk's file and those of its static imports, transitively. */
  const closure = (key: string, into: Set<string>): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
    return into;
  };
  const loadedByHtml = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key, loadedByHtml);

  const pages = new Map<string, string>();
  return (url) => {
    const modules = modulesFor(url.split('?')[0]);
    const id = modules.map((m) => m.file).join(' ');
    let page = pages.get(id);
    if (page === undefined) {
      const files = new Set<string>();
      for (const m of modules) closure(m.file, files);
      const links = [...files].filter((f) => !loadedByHtml.has(f)).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
      page = links.length ? html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`) : html;
      pages.set(id, page);
    }
    return page;
  };
}
