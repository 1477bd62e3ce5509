// `npm run lint` (with `prettier --check`): correctness rules plus the layering the README describes,
// enforced rather than remembered. Formatting belongs to Prettier; nothing here is about style.
import fs from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const modules = fs.readdirSync(new URL('./src/server/modules', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory());

/** A server module talks to another module through its service or repository, never its HTTP layer. */
const moduleZones = modules.map(({ name }) => ({
  target: `./src/server/modules/${name}`,
  from: modules.filter((other) => other.name !== name).map((other) => `./src/server/modules/${other.name}/routes.ts`),
  message: "Import the other module's service or repository, not its routes.",
}));

export default tseslint.config(
  { ignores: ['dist/', 'dist-server/', '.cache/', 'test-results/', 'playwright-report/', 'bench/results/', 'public/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  // Everything outside src/web runs on Node (scripts, e2e, bench, configs, the server).
  { ignores: ['src/web/**'], languageOptions: { globals: { ...globals.node } } },
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })] },
    rules: {
      // `_name` marks a binding kept on purpose (a destructured field left out, a callback's unused argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/shared',
              from: ['./src/server', './src/web', './scripts', './e2e', './bench'],
              message: 'src/shared is imported by both the server and the dashboard: it depends on nothing but zod.',
            },
            { target: './src/web', from: './src/server', message: 'The dashboard reaches the server over HTTP (src/shared holds what both need).' },
            { target: './src/server', from: './src/web', message: 'The server does not import dashboard code (src/shared holds what both need).' },
            ...moduleZones,
          ],
        },
      ],
    },
  },
  {
    // Playwright drivers: the callbacks given to page.evaluate() run in the browser.
    files: ['e2e/**', 'bench/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // A migration types its database as Kysely<any>, as Kysely advises: it must not depend on today's schema.
    files: ['src/server/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Packages for src/shared: zod only (its tests may use vitest and Node).
    files: ['src/shared/**/*.ts'],
    ignores: ['src/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|\\.)', message: 'src/shared depends on nothing but zod.' }] }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    extends: [reactHooks.configs.flat['recommended-latest'], pluginQuery.configs['flat/recommended']],
  },
);
