import path from 'node:path';
import type { Plugin } from 'vite';

/** Mantine's `useId` module, which @mantine/hooks' index imports as `./use-id/use-id.mjs`. */
export const MANTINE_USE_ID = /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/;
const replacement = path.resolve(import.meta.dirname, '../src/web/lib/mantine-use-id.ts');

/**
 * Serves src/web/lib/mantine-use-id.ts in place of Mantine's `useId`, for @mantine/core's components too (they
 * import it from @mantine/hooks). A Vite plugin for the build and a Rolldown one for the dev server's
 * pre-bundled dependencies: both read `name` and `load`.
 */
export function mantineUseId(): Plugin {
  return {
    name: 'roster:mantine-use-id',
    load(id) {
      return MANTINE_USE_ID.test(id.split('?')[0]) ? `export { useId } from ${JSON.stringify(replacement)};` : null;
    },
  };
}
