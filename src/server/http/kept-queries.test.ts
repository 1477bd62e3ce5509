import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { HttpError } from './errors.ts';
import { keptQueryParser, validQueries } from './kept-queries.ts';

describe('the kept query parser', () => {
  it('parses as Fastify does, once per text, into a frozen object', () => {
    const parse = keptQueryParser();
    const first = parse('a=1&a=2&b=x+y%20z&c');
    expect({ ...first }).toEqual({ a: ['1', '2'], b: 'x y z', c: '' });
    expect(parse('a=1&a=2&b=x+y%20z&c')).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.a)).toBe(true);
    expect(() => ((first.a as string[])[0] = 'changed')).toThrow(TypeError);
    expect(parse('a=1&a=2&b=x+y%20z&c=')).not.toBe(first);
    expect(parse('')).toBe(parse(''));
    expect({ ...parse('') }).toEqual({});
  });

  it('keeps neither a long text nor more than 512 texts', () => {
    const parse = keptQueryParser();
    const long = `q=${'x'.repeat(2047)}`;
    expect(parse(long)).not.toBe(parse(long));
    expect({ ...parse(long) }).toEqual({ q: 'x'.repeat(2047) });
    const oldest = parse('n=0');
    for (let n = 1; n < 512; n++) parse(`n=${n}`);
    expect(parse('n=0')).toBe(oldest);
    const newest = parse('n=511');
    parse('n=512');
    expect(parse('n=0')).not.toBe(oldest);
    expect(parse('n=511')).toBe(newest);
  });
});

describe("an operation's valid queries", () => {
  const counted = () => {
    let calls = 0;
    const schema = z.object({ limit: z.coerce.number().int().max(100), tags: z.array(z.string()).optional() }).transform((q) => {
      calls++;
      return q;
    });
    return { schema, calls: () => calls };
  };

  it('validates a shared query once, and its answer cannot be changed', () => {
    const { schema, calls } = counted();
    const valid = validQueries(schema);
    const query = Object.freeze({ limit: '5', tags: Object.freeze(['a']) });
    const first = valid(query);
    expect(first).toEqual({ limit: 5, tags: ['a'] });
    expect(valid(query)).toBe(first);
    expect(calls()).toBe(1);
    expect(Object.isFrozen(first) && Object.isFrozen(first.tags)).toBe(true);
    // An object that is not the parser's (not frozen) may change between calls: validated each time.
    const own = { limit: '7' };
    expect(valid(own)).toEqual({ limit: 7 });
    own.limit = '8';
    expect(valid(own)).toEqual({ limit: 8 });
    expect(calls()).toBe(3);
  });

  it('answers a bad query with its 422 every time, and each operation by its own schema', () => {
    const { schema, calls } = counted();
    const valid = validQueries(schema);
    const tooMany = Object.freeze({ limit: '500' });
    for (let i = 0; i < 2; i++) {
      const error = (() => {
        try {
          valid(tooMany);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(422);
    }
    expect(calls()).toBe(0);
    const lenient = validQueries(z.object({ limit: z.string() }));
    expect(lenient(tooMany)).toEqual({ limit: '500' });
  });
});

describe('the app', () => {
  it('hands every request with the same query string the same frozen query', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-query-'));
    const app = await buildApp(testConfig({ dataDir, databaseUrl: 'sqlite::memory:' }));
    const seen: unknown[] = [];
    app.get('/probe', async (req) => {
      seen.push(req.query);
      return { frozen: Object.isFrozen(req.query) };
    });
    try {
      for (const url of ['/probe?x=1&y=2', '/probe?x=1&y=2', '/probe?x=1']) expect((await app.inject({ method: 'GET', url })).json()).toEqual({ frozen: true });
      expect(seen[1]).toBe(seen[0]);
      expect(seen[2]).not.toBe(seen[0]);
      expect({ ...(seen[2] as object) }).toEqual({ x: '1' });
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
