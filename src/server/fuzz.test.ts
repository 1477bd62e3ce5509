/**
 * Property-based fuzzing of every operation (security review, "further than the review"): arbitrary
 * path parameters, query strings and bodies, shaped like each operation's schema or not at all, sent to
 * the real app on a real database. Every answer must be well-formed (no 5xx, `{detail}` on a refusal,
 * no internals), and a refused request must change nothing. A fixed seed and a few runs per operation
 * in CI; `npm run fuzz` runs many more (FUZZ_RUNS, FUZZ_SEED).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyOperation } from '../shared/operation.ts';
import { OPERATIONS } from '../shared/operations/index.ts';
import { makeTestApp, type TestApp } from './testing/harness.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

/** Tables whose row counts a refused request must leave as they were. */
const WATCHED = [
  'users',
  'api_keys',
  'organizations',
  'memberships',
  'invites',
  'projects',
  'contexts',
  'context_rows',
  'commits',
  'custom_endpoints',
  'assistants',
  'voices',
] as const;

let t: TestApp;
let key: string;
let orgId: number;

beforeAll(async () => {
  t = await makeTestApp({}, { shared: true });
  await t.user(); // the instance's first user (an administrator); the fuzzer is an ordinary person
  const person = await t.user({ credits: 1000 });
  key = person.apiKey;
  orgId = (await t.org(person)).organizationId;
  await t.request('POST', '/v0/project', { key, json: { name: 'p' } });
  await t.request('POST', '/v0/project/p/contexts', { key, json: { name: 'c' } });
  await t.request('POST', '/v0/project/p/contexts/c/logs', { key, json: { entries: [{ a: 1 }] } });
});

afterAll(async () => {
  await t?.close();
});

async function counts(): Promise<string> {
  const rows = await Promise.all(
    WATCHED.map((table) =>
      t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ),
  );
  return rows.map((r) => String(r.n)).join(',');
}

/** The top-level field names of an object schema (through optional/pipe wrappers), else none. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  let s: unknown = schema;
  for (let i = 0; i < 5 && s; i += 1) {
    if (s instanceof z.ZodObject) return Object.keys(s.shape);
    const def = (s as { def?: { in?: unknown; innerType?: unknown; out?: unknown } }).def;
    s = def?.in ?? def?.innerType ?? def?.out;
  }
  return [];
}

/** Values a careless or hostile client sends. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 300 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', '../../etc/passwd', "' OR 1=1--", '<script>', '1e309', 'NaN', -1, 0, 2 ** 53 + 1, null, true, [], {}),
);

const bodyOf = (op: AnyOperation) => {
  const fields = fieldsOf(op.body);
  const shaped = fields.length > 0 ? fc.record(Object.fromEntries(fields.map((f) => [f, value])), { requiredKeys: [] }) : fc.constant({});
  return fc.oneof(shaped, fc.dictionary(fc.string({ maxLength: 20 }), value, { maxKeys: 6 }), fc.jsonValue({ maxDepth: 3 }));
};

const segment = fc.oneof(fc.constantFrom('p', 'c', '1', String(2 ** 31), '-1', 'abc'), fc.string({ minLength: 1, maxLength: 40 }));

function pathOf(op: AnyOperation): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{([a-zA-Z0-9_]+)\}/g)].map((m) => m[1]);
  return fc.tuple(...names.map((n) => (n === 'organization_id' ? fc.oneof(fc.constant(String(orgId)), segment) : segment))).map((values) => {
    let path = op.path;
    names.forEach((n, i) => (path = path.replace(`{${n}}`, encodeURIComponent(values[i]))));
    return path;
  });
}

function queryOf(op: AnyOperation): fc.Arbitrary<string> {
  const fields = fieldsOf(op.query);
  if (fields.length === 0) return fc.constant('');
  return fc
    .dictionary(fc.constantFrom(...fields), fc.oneof(fc.string({ maxLength: 40 }), fc.integer().map(String)), { maxKeys: fields.length })
    .map((q) => (Object.keys(q).length ? `?${new URLSearchParams(q)}` : ''));
}

describe('fuzzing every operation with arbitrary input', () => {
  for (const op of OPERATIONS.filter((o) => !o.multipart)) {
    it(`${op.operationId}: ${op.method} ${op.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(pathOf(op), queryOf(op), bodyOf(op), async (path, query, body) => {
          const before = await counts();
          const res = await t.request(op.method, path + query, { key, ...(op.method === 'GET' ? {} : { json: body }) });
          expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(res.json()).toHaveProperty('detail');
            expect(res.body).not.toMatch(/at .*\.ts:\d+|SQLITE|syntax error|node_modules/i);
            expect(await counts(), `${res.statusCode} ${res.body.slice(0, 200)}`).toBe(before);
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });
  }
});
