import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { OPERATION_MODULES, OPERATIONS } from '../shared/operations/index.ts';
import { makeTestApp } from './testing/harness.ts';

// Routes that are not API operations: the OpenAPI document itself, and stored files (modules/files),
// whose key is a wildcard path no `{param}` can hold and whose answer is bytes, not JSON.
const NOT_OPERATIONS = new Set(['GET /v0/openapi.json', 'HEAD /v0/openapi.json', 'GET /v0/files/*', 'HEAD /v0/files/*']);

describe('one definition per operation', () => {
  it('registers every /v0 route through an operation definition, and a handler for every definition', async () => {
    const { app } = await makeTestApp();
    const registered = new Set(app.routeRegistry.map((op) => `${op.method} ${op.path}`));
    const defined = new Set(OPERATIONS.map((op) => `${op.method} ${op.path}`));
    expect([...defined].filter((r) => !registered.has(r))).toEqual([]);
    expect(app.routeRegistry.every((op) => OPERATIONS.includes(op))).toBe(true);
    // Every route Fastify knows under /v0 is one of them (a plain app.get() would not be).
    const fastifyRoutes = app.fastifyRoutes.filter((r) => / \/v0/.test(r));
    // Fastify answers HEAD for every GET by itself.
    const withHead = [...defined].flatMap((r) => (r.startsWith('GET ') ? [r, `HEAD ${r.slice(4)}`] : [r]));
    const asFastify = new Set(withHead.map((r) => r.replace(/\{([a-zA-Z0-9_]+)\}/g, ':$1')));
    const strays = fastifyRoutes.filter((r) => !asFastify.has(r) && !NOT_OPERATIONS.has(r));
    expect(strays).toEqual([]);
  });

  it('names each operation once', () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(ids.length).toBe(new Set(ids).size);
    const routes = OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(routes.length).toBe(new Set(routes).size);
  });

  it('lists every operation module by its file name (the dashboard build serves them without their schemas)', () => {
    const dir = path.resolve(import.meta.dirname, '../shared/operations');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.slice(0, -3));
    expect(Object.keys(OPERATION_MODULES).sort()).toEqual(files.sort());
  });

  it('keeps API paths out of the dashboard: src/web reaches /v0 only through the definitions', () => {
    const root = path.resolve(import.meta.dirname, '../web');
    const offenders: string[] = [];
    for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue;
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (line.includes('/v0/')) offenders.push(`src/web/${file}:${i + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
