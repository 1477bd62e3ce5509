import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../testing/harness.ts';
import { hashApiKey, hashOnConnection } from './keys.ts';

describe('a credential hashed once per connection', () => {
  it('gives each credential its own hash, whatever the connection sent before', () => {
    const [a, b] = [{}, {}];
    for (let round = 0; round < 2; round++) {
      expect(hashOnConnection(a, 'rk_first-key-0000')).toBe(hashApiKey('rk_first-key-0000'));
      // Same length, one character apart: not the hash remembered for the first.
      expect(hashOnConnection(a, 'rk_first-key-0001')).toBe(hashApiKey('rk_first-key-0001'));
      expect(hashOnConnection(b, 'rk_first-key-0000')).toBe(hashApiKey('rk_first-key-0000'));
      expect(hashOnConnection(a, 'rk_other')).toBe(hashApiKey('rk_other'));
    }
  });

  it('answers each request on one keep-alive connection as the key it sends', async () => {
    const t = await makeTestApp();
    try {
      const [ada, bob] = [await t.user({ email: 'ada@example.com' }), await t.user({ email: 'bob@example.com' })];
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const sockets = new Set<unknown>();
      const basicInfo = (key: string) =>
        new Promise<{ status: number; email?: string }>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port, path: '/v0/user/basic-info', headers: { authorization: `Bearer ${key}` }, agent }, (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, email: (JSON.parse(text) as { email?: string }).email }));
          });
          req.on('socket', (socket) => sockets.add(socket)).on('error', reject);
        });
      const unknownKey = ada.apiKey.slice(0, -1) + (ada.apiKey.endsWith('A') ? 'B' : 'A');
      expect(await basicInfo(ada.apiKey)).toEqual({ status: 200, email: 'ada@example.com' });
      expect(await basicInfo(ada.apiKey)).toEqual({ status: 200, email: 'ada@example.com' });
      expect(await basicInfo(bob.apiKey)).toEqual({ status: 200, email: 'bob@example.com' });
      expect((await basicInfo(unknownKey)).status).toBe(401);
      expect(await basicInfo(ada.apiKey)).toEqual({ status: 200, email: 'ada@example.com' });
      agent.destroy();
      expect(sockets.size).toBe(1);
    } finally {
      await t.close();
    }
  });
});
