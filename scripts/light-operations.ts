import path from 'node:path';
import type { Plugin } from 'vite';
import type { AnyOperation } from '../src/shared/operation.ts';
import { OPERATION_MODULES } from '../src/shared/operations/index.ts';

const SCHEMA_FIELDS = ['params', 'query', 'body', 'response'] as const;

/** What the browser needs of an operation to call it; its schemas would bring zod into every screen. */
function lightOperation(op: AnyOperation): string {
  const fields = JSON.stringify({ method: op.method, path: op.path, operationId: op.operationId });
  const guards = SCHEMA_FIELDS.map(
    (field) => `get ${field}() { throw new Error('${op.operationId}.${field}: operation schemas stay on the server; import the schema from src/shared instead.'); }`,
  );
  return `Object.freeze({ ...${fields}, ${guards.join(', ')} })`;
}

/**
 * The dashboard's build serves each module of src/shared/operations as plain `{ method, path, operationId }`
 * objects: `api(op)` needs no more, and the schemas (zod and every contract) stay out of the first screen.
 * Types still come from the real module. Server-side builds (the first-screen renderer) get the real one.
 */
export function lightOperations(): Plugin {
  const dir = path.resolve(import.meta.dirname, '../src/shared/operations');
  const modules: Record<string, Record<string, AnyOperation>> = OPERATION_MODULES;
  return {
    name: 'roster:light-operations',
    enforce: 'pre',
    load(id) {
      if (this.environment.config.consumer !== 'client') return null;
      const file = id.split('?')[0];
      if (path.dirname(file) !== dir) return null;
      const name = path.basename(file, '.ts');
      const module = modules[name];
      if (!module) return null;
      return Object.entries(module)
        .map(([exported, op]) => `export const ${exported} = ${lightOperation(op)};`)
        .join('\n');
    },
  };
}
