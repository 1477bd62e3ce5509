/**
 * A cheap request stays fast while the largest allowed request runs (security review, medium 2): the
 * largest read of a context is a page of 1000 rows (the limit's bound) of MAX_ROW_COLUMNS columns each,
 * filled up to the 64 KB a row may hold: about 60 MB of JSON.
 *
 * No clock is read. On a loaded 2-core machine any time bound either flakes or is too loose to mean
 * anything, and speed is measured by the benchmarks. What is checked instead is an order of events that
 * does not depend on speed: the cheap request is written to its (already open) connection at the moment
 * the large read arrives, before the large read's handler runs. Node reads a socket only between two
 * turns of its event loop, so the cheap request can be answered first only if the large read gives the
 * loop back while it is being assembled. Before, the page was read, parsed and serialized in one
 * synchronous stretch (seconds here) and the cheap request always came second; now it is read in
 * batches of a bounded size with a turn of the loop between them.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { MAX_ROW_COLUMNS } from '../../../shared/projects.ts';
import { makeTestApp } from '../../testing/harness.ts';

const PAGE_ROWS = 1000;
const ROW_JSON_BYTES = 64 * 1024;

/** A row of MAX_ROW_COLUMNS columns whose JSON is just under the 64 KB a row may be. */
function largestRow(): Record<string, string> {
  const perColumn = Math.floor(ROW_JSON_BYTES / MAX_ROW_COLUMNS) - '"column_000":"",'.length - 1;
  return Object.fromEntries(Array.from({ length: MAX_ROW_COLUMNS }, (_, i) => [`column_${String(i).padStart(3, '0')}`, 'v'.repeat(perColumn)]));
}

it('a cheap request is answered while the largest allowed context read is being assembled', { timeout: 120_000 }, async () => {
  // Responses are checked against their schema in tests only, by parsing the whole page at once; off here as in production.
  const t = await makeTestApp({ validateResponses: false });
  const user = await t.user();
  const largeUrl = `/v0/project/big/contexts/wide/logs?limit=${PAGE_ROWS}`;
  const cheapRequest = `GET /v0/user/basic-info HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${user.apiKey}\r\nConnection: close\r\n\r\n`;
  // The cheap request's connection, opened once the app listens (hooks must be added before).
  const cheap: { socket?: net.Socket } = {};
  const answered: string[] = [];
  t.app.addHook('onRequest', async (req) => {
    if (req.url === largeUrl) cheap.socket?.write(cheapRequest);
  });
  t.app.addHook('onSend', async (req) => {
    if (req.method === 'GET') answered.push(req.url === largeUrl ? 'largest read' : 'cheap request');
  });
  const row = largestRow();
  expect(JSON.stringify(row).length).toBeLessThanOrEqual(ROW_JSON_BYTES);
  await t.request('POST', '/v0/project', { key: user.apiKey, json: { name: 'big' } });
  await t.request('POST', '/v0/project/big/contexts', { key: user.apiKey, json: { name: 'wide' } });
  for (let added = 0; added < PAGE_ROWS; added += 25) {
    const res = await t.request('POST', '/v0/project/big/contexts/wide/logs', { key: user.apiKey, json: { entries: Array.from({ length: 25 }, () => row) } });
    expect(res.statusCode, res.body).toBe(200);
  }

  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;

  const socket = await new Promise<net.Socket>((resolve, reject) => {
    const connected = net.connect(port, '127.0.0.1', () => resolve(connected));
    connected.once('error', reject);
  });
  cheap.socket = socket;
  const cheapAnswer = new Promise<string>((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const largeAnswer = new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: largeUrl, headers: { authorization: `Bearer ${user.apiKey}` }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });

  const [cheapText, large] = await Promise.all([cheapAnswer, largeAnswer]);
  expect(cheapText.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  expect(large.status).toBe(200);
  expect(answered).toEqual(['cheap request', 'largest read']);

  // And the page is the whole page, rows as they were stored.
  const page = JSON.parse(large.body.toString('utf8')) as { logs: { id: number; entries: unknown }[]; count: number };
  expect(page.count).toBe(PAGE_ROWS);
  expect(page.logs).toHaveLength(PAGE_ROWS);
  expect(page.logs[PAGE_ROWS - 1]!.entries).toEqual(row);
  expect(new Set(page.logs.map((l) => l.id)).size).toBe(PAGE_ROWS);
});
