import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../testing/harness.ts';

describe('rate limits', () => {
  it('limits each key per window with RateLimit headers, then 429 with Retry-After; other keys are unaffected', async () => {
    const t = await makeTestApp({ rateLimit: { perKey: 3, perIp: 100, windowSeconds: 60 } });
    const a = await t.user();
    const b = await t.user();
    for (let i = 0; i < 3; i++) {
      const res = await t.request('GET', '/v0/user/basic-info', { key: a.apiKey });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
      expect(res.headers['ratelimit']).toMatch(new RegExp(`^"per-key";r=${2 - i};t=\\d+$`));
    }
    const limited = await t.request('GET', '/v0/user/basic-info', { key: a.apiKey });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many requests: the limit is 3 per 60 s for this API key\. Retry in \d+ s\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.request('GET', '/v0/user/basic-info', { key: b.apiKey })).statusCode).toBe(200);

    t.clock.advance(60_000);
    expect((await t.request('GET', '/v0/user/basic-info', { key: a.apiKey })).statusCode).toBe(200);
  });

  it('decides concurrent requests of one key exactly, each at its own place in the count', async () => {
    // On PostgreSQL the hits that arrive while a bucket's upsert is on the way are counted by the next one
    // together (http/rate-limit.ts); each must still get its own count, and every hit must be counted once.
    const t = await makeTestApp({ rateLimit: { perKey: 25, perIp: 100, windowSeconds: 60 } });
    const u = await t.user();
    const answers = await Promise.all(Array.from({ length: 40 }, () => t.request('GET', '/v0/user/basic-info', { key: u.apiKey })));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(25);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(15);
    const remaining = answers.map((r) => Number(/;r=(\d+);/.exec(String(r.headers['ratelimit']))?.[1]));
    expect(remaining.filter((_, i) => answers[i]!.statusCode === 200).sort((a, b) => b - a)).toEqual(Array.from({ length: 25 }, (_, i) => 24 - i));
    if (t.app.deps.dialect === 'postgres') {
      const rows = await t.db.selectFrom('rate_limit_hits').select(['bucket', 'count']).where('bucket', 'like', 'key:%').execute();
      expect(rows.map((r) => Number(r.count))).toEqual([40]);
    }
  });

  it('counts requests without a valid key per address, so keys cannot be guessed quickly', async () => {
    const t = await makeTestApp({ rateLimit: { perKey: 100, perIp: 2, windowSeconds: 60 } });
    const u = await t.user();
    for (let i = 0; i < 2; i++) {
      expect((await t.request('GET', '/v0/user/basic-info', { key: `rk_guess${i}` })).statusCode).toBe(401);
    }
    const limited = await t.request('GET', '/v0/user/basic-info', { key: 'rk_guess3' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toContain('for requests without a valid API key from this address');
    // A valid key is counted against its own limit, not the address's.
    expect((await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).statusCode).toBe(200);
  });

  it('is off when the limit is 0', async () => {
    const t = await makeTestApp({ rateLimit: { perKey: 0, perIp: 0, windowSeconds: 60 } });
    const u = await t.user();
    for (let i = 0; i < 20; i++) expect((await t.request('GET', '/v0/user/basic-info', { key: u.apiKey })).statusCode).toBe(200);
    const res = await t.request('GET', '/v0/user/basic-info', { key: u.apiKey });
    expect(res.headers['ratelimit']).toBeUndefined();
  });
});
