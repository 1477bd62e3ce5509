/**
 * Uploads cut off mid-file (security review, medium 1), over real sockets to a listening app: app.inject
 * cannot drop a connection half-way. 50 connections send their headers and part of a file, then are cut
 * (half closed, half reset). Every upload handler must settle and leave no temporary file behind, the
 * server no connection; before, a cut inside a part the handler drained (any file field but `file`)
 * waited for an 'end' that never came, holding the request, its parser and its socket's memory.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';
import { multipart, PNG, WAV } from './test-helpers.ts';

const BOUNDARY = 'cut-upload-boundary';
const FILE_BYTES = 1024 * 1024;
/** What is sent of the file before the cut: enough for the handler to be streaming it to disk. */
const SENT_BYTES = 64 * 1024;

interface Cut {
  url: string;
  fields: Record<string, string>;
  /** The form field of the file part: `file` is stored to a temp file, any other is drained. */
  field: string;
  first: Buffer;
  reset: boolean;
}

/** The head of a multipart request whose file part declares FILE_BYTES, and the file's first bytes. */
function cutRequest(cut: Cut, port: number, key: string): Buffer {
  const fields = Object.entries(cut.fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const partHead = `${fields.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="${cut.field}"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const partTail = `\r\n--${BOUNDARY}--\r\n`;
  const length = Buffer.byteLength(partHead) + FILE_BYTES + Buffer.byteLength(partTail);
  const head =
    `POST ${cut.url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n${partHead}`;
  const file = Buffer.alloc(SENT_BYTES);
  cut.first.copy(file);
  return Buffer.concat([Buffer.from(head), file]);
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

it('50 uploads cut off mid-file leave no handler waiting, no temp file and no open connection', async () => {
  const t = await makeTestApp();
  const user = await t.user();
  // What each upload answered, though nobody is left to read it: a cut is the client's doing, never a 5xx.
  const answered: number[] = [];
  t.app.addHook('onSend', async (req, reply) => {
    if (req.method === 'POST') answered.push(reply.statusCode);
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const tempFiles = () => (fs.existsSync(t.app.deps.storage.tempDir) ? fs.readdirSync(t.app.deps.storage.tempDir) : []);
  const connections = () => new Promise<number>((resolve, reject) => t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

  const cuts = Array.from({ length: 50 }, (_, i): Cut => {
    const reset = i % 2 === 0; // half end with RST (a dropped network), half with FIN (a closed tab)
    if (i % 3 === 0) return { url: '/v0/assistant/photo/upload', fields: {}, field: 'file', first: PNG, reset };
    if (i % 3 === 1) return { url: '/v0/assistant/voice/clone', fields: { name: `Cut ${i}` }, field: 'file', first: WAV, reset };
    return { url: '/v0/assistant/photo/upload', fields: {}, field: 'attachment', first: PNG, reset };
  });
  const sockets = await Promise.all(
    cuts.map(async (cut) => {
      const socket = await connect(port);
      socket.on('error', () => {}); // the server may answer or close first; the cut is what is tested
      socket.write(cutRequest(cut, port, user.apiKey));
      return socket;
    }),
  );

  // Every upload is in its handler, every `file` part being written to a temp file.
  const stored = cuts.filter((c) => c.field === 'file').length;
  await expect.poll(() => t.app.openUploads(), { timeout: 20_000 }).toBe(cuts.length);
  await expect.poll(() => tempFiles().length, { timeout: 20_000 }).toBe(stored);

  sockets.forEach((socket, i) => (cuts[i]!.reset ? socket.resetAndDestroy() : socket.destroy()));

  // A settled handler settles at once; the deadline only bounds how long a failure takes to report.
  await expect.poll(() => t.app.openUploads(), { timeout: 10_000 }).toBe(0);
  await expect.poll(() => tempFiles(), { timeout: 10_000 }).toEqual([]);
  await expect.poll(connections, { timeout: 10_000 }).toBe(0);
  expect(answered).toEqual(cuts.map(() => 400));

  // Nothing half-made: no voice cloned from a cut sample. And the server still takes an upload.
  const voices = await t.request('GET', '/v0/assistant/voice', { key: user.apiKey });
  expect(voices.json().info.filter((v: { is_preset: boolean }) => !v.is_preset)).toEqual([]);
  const photo = multipart({}, { filename: 'me.png', contentType: 'image/png', content: PNG });
  expect((await t.request('POST', '/v0/assistant/photo/upload', { key: user.apiKey, ...photo })).statusCode).toBe(201);
});
