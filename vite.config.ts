import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { lightOperations } from './scripts/light-operations.ts';
import { mantineUseId } from './scripts/mantine-use-id.ts';

const api = `http://127.0.0.1:${process.env.PORT || 8080}`;

/**
 * The first screens rendered on the server (`vite build --ssr src/web/frame.tsx`, by scripts/build.mjs):
 * one module for Node with everything bundled in, so that it runs from wherever the dashboard is deployed.
 */
const frameBuild = defineConfig({
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true },
  build: { target: 'node20', copyPublicDir: false, sourcemap: false },
});

/**
 * Rolldown names a chunk whose modules span the whole tree (the 'app' group below: src/ and node_modules/)
 * after their common folder, ignoring the group's name once common chunks are inlined: the entry's code
 * landed in a file named after the folder the repository was cloned into, a name shown to browsers that
 * changed with the checkout. Such a chunk is named 'app' here (scripts/build-file-names.test.ts).
 */
let checkoutFolder = path.basename(process.cwd());
const checkoutFolderName: Plugin = {
  name: 'roster:checkout-folder-name',
  configResolved(config) {
    checkoutFolder = path.basename(config.root);
  },
};
const chunkFileNames = ({ name }: { name: string }) => `assets/${name === checkoutFolder ? 'app' : '[name]'}-[hash].js`;

/**
 * V8's explicit compile hint (Chrome 136+): a script that starts with this comment is compiled whole while
 * it downloads, on a background thread, instead of function by function on the main thread the first time
 * each one runs. A signed-in page's first load spent about a third of its main-thread time compiling (Lighthouse
 * counts every such task of the first seconds as blocking time); the chunks are the code a page runs as it
 * loads. Other browsers read a comment.
 */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const compileHints: Plugin = {
  name: 'roster:compile-hints',
  enforce: 'post',
  generateBundle: {
    // After Vite's own last edits (the preload map it puts at the top of the entry).
    order: 'post',
    handler(_options, bundle) {
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk' && !chunk.code.startsWith(COMPILE_HINT)) chunk.code = COMPILE_HINT + chunk.code;
    },
  },
};

const appBuild = defineConfig({
  plugins: [lightOperations(), mantineUseId(), react(), checkoutFolderName, compileHints],
  // The dev server pre-bundles @mantine/hooks: the same useId there.
  optimizeDeps: { rolldownOptions: { plugins: [mantineUseId()] } },
  server: {
    port: 5173,
    proxy: { '/v0': api, '/docs': api },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // scripts/build.mjs reads it to check the initial JavaScript budget.
    manifest: true,
    chunkSizeWarningLimit: 600,
    // One stylesheet (Mantine's, plus a few kB of the features'): a lazy page's CSS was one more request
    // in the wave that decides when a signed-in page paints.
    cssCodeSplit: false,
    rolldownOptions: {
      // Required by experimentalInlineCommonChunks (below); the entry is only loaded by index.html.
      preserveEntrySignatures: false,
      output: {
        chunkFileNames,
        codeSplitting: {
          // Lazy pages shared their code through dozens of common chunks of a few hundred bytes each (a
          // signed-in page loaded 40-60 files). On HTTP/1.1 a browser fetches six at a time, so each wave
          // cost a round trip: Lighthouse's slow 4G put the assistants page's LCP at 3.9 s against 3.0 s
          // with the small common chunks copied into the chunks that use them. Copies are registered at
          // run time, so a module still runs once. Experimental in Rolldown; it turns on
          // strictExecutionOrder, which keeps modules' execution order exact.
          experimentalInlineCommonChunks: { maxSize: 32_000 },
          // Without entry signatures to keep, Rolldown moved the entry's React Query and Mantine core
          // out into chunks of their own: more files before anything runs. Everything the entry
          // imports statically stays in one chunk.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
});

/**
 * React Router's package exports only its development build (remix-run/react-router#12532), whose dev warnings
 * build their messages on every render of the routes. Its production build is the same code without them.
 */
const productionReactRouter = { alias: { 'react-router': path.join(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs') } };

export default defineConfig(({ command, isSsrBuild }) => (isSsrBuild ? frameBuild : command === 'build' ? { ...appBuild, resolve: productionReactRouter } : appBuild));
