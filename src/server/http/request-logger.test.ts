import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { requestLogger } from './request-logger.ts';

function lines(level: string) {
  const written: Record<string, unknown>[] = [];
  // Fastify's own pino logger, as requests get it.
  const root = Fastify({ logger: { level, stream: { write: (line: string) => void written.push(JSON.parse(line)) } } }).log;
  return { root, written };
}

describe('the request logger', () => {
  it('writes what a pino child with the request id writes, at the levels enabled', () => {
    const { root, written } = lines('warn');
    const log = requestLogger(root, { reqId: 'r-1' }, {});
    log.info('not at warn');
    log.debug({ a: 1 }, 'nor this');
    log.warn({ detail: 'x' }, 'kept');
    log.error('and %s', 'formatted');
    expect(written.map(({ level, reqId, msg, detail }) => ({ level, reqId, msg, detail }))).toEqual([
      { level: 40, reqId: 'r-1', msg: 'kept', detail: 'x' },
      { level: 50, reqId: 'r-1', msg: 'and formatted', detail: undefined },
    ]);
    expect(log.level).toBe('warn');
    log.child({ part: 'upload' }).error('from a child');
    expect(written[2]).toMatchObject({ reqId: 'r-1', part: 'upload', msg: 'from a child' });
  });

  it('follows a level set on it, and a route level still gets a real child', () => {
    const { root, written } = lines('warn');
    const log = requestLogger(root, { reqId: 'r-2' }, {});
    log.level = 'debug';
    log.debug('now enabled');
    expect(root.level).toBe('warn');
    const routeLevel = requestLogger(root, { reqId: 'r-3' }, { level: 'error' });
    routeLevel.warn('below the route level');
    routeLevel.error('at it');
    expect(written.map(({ reqId, msg }) => `${reqId} ${msg}`)).toEqual(['r-2 now enabled', 'r-3 at it']);
  });

  it("logs a real app's requests with their id at info", async () => {
    const written: string[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-log-'));
    const app = await buildApp(testConfig({ dataDir, databaseUrl: 'sqlite::memory:', logLevel: 'info' }), {
      logStream: { write: (line) => void written.push(line) },
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/v0/user/basic-info', headers: { 'x-request-id': 'trace-me-42' } });
      expect(res.statusCode).toBe(401);
      const mine = written.map((line) => JSON.parse(line)).filter((line) => line.reqId === 'trace-me-42');
      expect(mine.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
      expect(mine[1].res.statusCode).toBe(401);
      // Without one of its own, each request gets its id, which its log lines carry.
      const ids = await Promise.all([1, 2, 3].map(async () => (await app.inject({ method: 'GET', url: '/v0/user/basic-info' })).headers['x-request-id']));
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) {
        expect(id).toMatch(/^[\w-]{1,64}$/);
        expect(written.map((line) => JSON.parse(line)).filter((line) => line.reqId === id)).toHaveLength(2);
      }
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
