import { it } from 'vitest';
import { makeTestApp } from './testing/harness.ts';
it('debug', async () => {
  const t = await makeTestApp({ logLevel: 'error' });
  const u = await t.user();
  await t.request('POST', '/v0/project', { key: u.apiKey, json: { name: 'p' } });
  await t.request('POST', '/v0/project/p/contexts', { key: u.apiKey, json: { name: 'c' } });
  const payload = `{"entries": [{"run": 5, "deep": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}]}`;
  const res = await t.app.inject({ method: 'POST', url: '/v0/project/p/contexts/c/logs', headers: { authorization: `Bearer ${u.apiKey}`, 'content-type': 'application/json' }, payload });
  console.log(res.statusCode, res.body.slice(0, 200));
  for (const [ct, body] of [['text/plain', '{"name":"x"}'], [undefined, '{"name":"y"}']] as const) {
    const r = await t.app.inject({ method: 'POST', url: '/v0/project', headers: { authorization: `Bearer ${u.apiKey}`, ...(ct ? { 'content-type': ct } : {}) }, payload: body });
    console.log(ct, r.statusCode, r.body);
  }
});
