import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../testing/harness.ts';
import { tableStatisticsOf } from './connection.ts';

// PostgreSQL only: after an import the server gathers context_rows' statistics itself (db/table-statistics.ts)
// instead of planning reads of it without any until autovacuum's next round.
describe.runIf(process.env.TEST_DATABASE_URL)('table statistics after large writes (PostgreSQL)', () => {
  it('a batch of 1 500 logs is followed by ANALYZE of context_rows once writes pause; a few single logs are not', async () => {
    const t = await makeTestApp();
    const db = t.app.deps.db;
    const stats = tableStatisticsOf(db)!;
    const { apiKey: key } = await t.user();
    expect((await t.request('POST', '/v0/project', { key, json: { name: 'p' } })).statusCode).toBe(200);
    const reltuples = async () => Number((await sql<{ n: number }>`select reltuples as n from pg_class where relname = 'context_rows'`.execute(db)).rows[0]!.n);

    for (let i = 0; i < 5; i++) {
      expect((await t.request('POST', '/v0/logs', { key, json: { project_name: 'p', context: 'runs', entries: { i } } })).statusCode).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(stats.analyzed).toBe(0);

    const entries = Array.from({ length: 1500 }, (_, i) => ({ score: i / 1500, i }));
    expect((await t.request('POST', '/v0/logs', { key, json: { project_name: 'p', context: 'runs', entries } })).statusCode).toBe(200);
    const deadline = Date.now() + 10_000;
    while (stats.analyzed === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stats.analyzed).toBe(1);
    // The planner now knows the table's size (never analyzed: -1).
    expect(await reltuples()).toBeGreaterThanOrEqual(1500);
  });

  it('writes that never pause for a second still get the statistics gathered, a few seconds after a large batch', async () => {
    const t = await makeTestApp();
    const stats = tableStatisticsOf(t.app.deps.db)!;
    const { apiKey: key } = await t.user();
    expect((await t.request('POST', '/v0/project', { key, json: { name: 'p' } })).statusCode).toBe(200);
    const entries = Array.from({ length: 1500 }, (_, i) => ({ i }));
    expect((await t.request('POST', '/v0/logs', { key, json: { project_name: 'p', context: 'runs', entries } })).statusCode).toBe(200);
    // A client logging one entry every 200 ms for 6 s: before, each commit moved the ANALYZE a second on.
    const until = Date.now() + 6000;
    while (Date.now() < until && stats.analyzed === 0) {
      expect((await t.request('POST', '/v0/logs', { key, json: { project_name: 'p', context: 'runs', entries: { i: -1 } } })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(stats.analyzed).toBe(1);
  });
});
