// `npm run roster -- <command>`: the server and its CLI (src/server/bin.ts), run from the bundle
// (scripts/server-bundle.mjs), with stack traces pointing at the TypeScript sources.
import { pathToFileURL } from 'node:url';
import { ensureServerBundle } from './server-bundle.mjs';

process.setSourceMapsEnabled(true);
await import(pathToFileURL(ensureServerBundle()).href);
