import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeTestApp } from './testing/harness.ts';

function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roster-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html lang="en"><title>Roster</title><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log("x")');
  return dir;
}

describe('dashboard hosting', () => {
  it('serves index.html at / and for deep links, never cached; hashed assets cached immutably', async () => {
    const t = await makeTestApp({ webDir: fakeBuild() });
    for (const url of ['/', '/projects/demo?tab=history']) {
      const res = await t.request('GET', url, { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    }
    const asset = await t.request('GET', '/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('starts the JavaScript after the first paint, with the chunks of the page an address shows, and nothing twice', async () => {
    const dir = fakeBuild();
    fs.writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><head><title>Roster</title>\n<script type="module" crossorigin src="/assets/index-1.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/main-1.js">\n</head><body><div id="root"></div>\n</body>',
    );
    fs.mkdirSync(path.join(dir, '.vite'));
    const manifest = {
      'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_main-1.js'] },
      '_main-1.js': { file: 'assets/main-1.js' },
      '_shared-1.js': { file: 'assets/shared-1.js', imports: ['_main-1.js'] },
      'src/web/app/layout/signed-in-layout.tsx': { file: 'assets/layout-1.js', imports: ['_main-1.js', '_shared-1.js'] },
      'src/web/app/sign-in-page.tsx': { file: 'assets/sign-in-1.js', imports: ['_main-1.js'] },
      'src/web/features/assistants/pages/assistant-page.tsx': { file: 'assets/assistant-1.js', imports: ['_shared-1.js'] },
      'src/web/features/assistants/pages/hire-assistant-page.tsx': { file: 'assets/hire-1.js', imports: ['_shared-1.js'] },
    };
    fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    const t = await makeTestApp({ webDir: dir });
    const preloads = async (url: string) => {
      const res = await t.request('GET', url, { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      // Nothing is requested by the HTML itself: the loader script starts it all after the first paint.
      expect(res.body).not.toMatch(/<script type="module"|rel="modulepreload"/);
      expect(res.body).toMatch(/<script>requestAnimationFrame\(/);
      const list = JSON.parse(/<script type="application\/json" id="app-modules">([^<]+)<\/script>/.exec(res.body)![1]);
      expect(list.entry).toBe('/assets/index-1.js');
      expect(list.preload[0]).toBe('/assets/main-1.js');
      return list.preload.slice(1).sort();
    };
    expect(await preloads('/assistants/7?tab=config')).toEqual(['/assets/assistant-1.js', '/assets/layout-1.js', '/assets/shared-1.js']);
    // A static segment wins over a parameter, as in the router.
    expect(await preloads('/assistants/new')).toEqual(['/assets/hire-1.js', '/assets/layout-1.js', '/assets/shared-1.js']);
    expect(await preloads('/sign-in')).toEqual(['/assets/sign-in-1.js']);
    // No page matches: the shell (its not-found page is in the entry).
    expect(await preloads('/no/such/page')).toEqual(['/assets/layout-1.js', '/assets/shared-1.js']);
  });

  it('puts the first screen the build renders for an address in its HTML, and keeps the loading screen when it cannot', async () => {
    const dir = fakeBuild();
    const loading = '<!--first-screen--><p>Loading Roster…</p><!--/first-screen-->';
    fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><head><title>Roster</title></head><div id="root">${loading}</div>`);
    fs.mkdirSync(path.join(dir, '.frame'));
    // A stand-in for src/web/frame.tsx's build: answers with the address, fails or redirects on request.
    fs.writeFileSync(
      path.join(dir, '.frame', 'frame.js'),
      `export async function renderFrame(url) {
        if (url.startsWith('/fails')) throw new Error('render failed');
        if (url.startsWith('/redirects')) return null;
        return '<main data-url="' + encodeURIComponent(url) + '">$&</main>';
      }`,
    );
    const t = await makeTestApp({ webDir: dir });
    const page = async (url: string) => {
      const res = await t.request('GET', url, { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      return res;
    };
    // Replacement strings are taken literally ($& is not the matched loading screen).
    expect((await page('/assistants?q=x')).body).toContain(`<div id="root"><main data-url="%2Fassistants%3Fq%3Dx">$&</main></div>`);
    expect((await page('/')).body).toContain('<main data-url="%2F">');
    // Served from the cache the second time: the same page.
    expect((await page('/assistants?q=x')).body).toBe((await page('/assistants?q=x')).body);
    for (const url of ['/fails/here', '/redirects']) expect((await page(url)).body).toContain(`<div id="root">${loading}</div>`);

    // The color scheme is set before the first paint by the one inline script, allowed by its hash.
    const res = await page('/projects');
    const script = /<head>\s*<script>([^<]+)<\/script>/.exec(res.body)?.[1];
    expect(script).toContain('data-mantine-color-scheme');
    const hash = createHash('sha256').update(script!).digest('base64');
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}' 'sha256-`);

    // The build's own files are not served.
    for (const url of ['/.frame/frame.js', '/.vite/manifest.json']) expect((await t.request('GET', url)).statusCode).toBe(404);

    // Invented addresses cannot keep the server rendering: past 50 new renders a second (here within two
    // seconds at most, so at most 100 renders), pages start from the loading screen.
    let unrendered = 0;
    for (let i = 0; i < 150; i++) if ((await page(`/projects/p${i}`)).body.includes(loading)) unrendered += 1;
    expect(unrendered).toBeGreaterThanOrEqual(50);
  });

  it("sends the build's precompressed copies as they are, and compresses API answers on the fly", async () => {
    const dir = fakeBuild();
    const big = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    fs.writeFileSync(path.join(dir, 'assets', 'big-1a2b3c.js'), big);
    // The copy is marked so the test tells it apart from a compression made per request.
    fs.writeFileSync(path.join(dir, 'assets', 'big-1a2b3c.js.br'), brotliCompressSync(`${big}// copy`));
    const t = await makeTestApp({ webDir: dir });
    const br = await t.request('GET', '/assets/big-1a2b3c.js', { headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${big}// copy`);
    // No .gz copy: sent uncompressed rather than failing.
    const gz = await t.request('GET', '/assets/big-1a2b3c.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding'] === 'gzip' ? gunzipSync(gz.rawPayload).toString() : gz.body).toBe(big);

    const u = await t.user();
    const plain = await t.request('GET', '/v0/openapi.json', { key: u.apiKey });
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await t.request('GET', '/v0/openapi.json', { key: u.apiKey, headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      const text = (encoding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload)).toString();
      expect(JSON.parse(text)).toEqual(plain.json());
    }
  });

  it('compresses an answer of 1 KB or more as the client asks, with Vary; smaller ones, images and streams go as they are', async () => {
    const dir = fakeBuild();
    fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html lang="en"><title>Roster</title><div id="root">${'<p>x</p>'.repeat(200)}</div>`);
    const t = await makeTestApp({ webDir: dir });
    const u = await t.user();
    const openapi = (acceptEncoding?: string) =>
      t.request('GET', '/v0/openapi.json', { key: u.apiKey, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

    const plain = await openapi();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    for (const [acceptEncoding, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['GZIP;q=0.5, br;q=0.4', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['deflate', undefined],
      ['br;q=0, gzip;q=0', undefined],
      ['', undefined],
    ] as const) {
      const res = await openapi(acceptEncoding);
      expect(res.headers['content-encoding'], acceptEncoding).toBe(expected);
      expect(res.headers.vary).toBe('Accept-Encoding');
      const text = expected === 'br' ? brotliDecompressSync(res.rawPayload) : expected === 'gzip' ? gunzipSync(res.rawPayload) : res.rawPayload;
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(text.equals(plain.rawPayload)).toBe(true);
    }

    // A small answer: as it is, and nothing varies.
    const small = await t.request('GET', '/v0/user/basic-info', { key: u.apiKey, headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();

    // A page keeps its own Vary.
    const page = await t.request('GET', '/projects', { headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(gunzipSync(page.rawPayload).toString()).toContain('<p>x</p>');

    // A stored file (a stream) goes as it is, whatever its bytes.
    const storage = t.app.deps.storage;
    const temp = path.join(storage.tempDir, 'compressible');
    fs.writeFileSync(temp, 'a'.repeat(5000));
    await storage.putFile('voices/compressible1.wav', temp, 'audio/wav');
    const file = await t.request('GET', '/v0/files/voices/compressible1.wav', { headers: { 'accept-encoding': 'gzip' } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-encoding']).toBeUndefined();
    expect(file.rawPayload.toString()).toBe('a'.repeat(5000));
  });

  it('reads a JSON body sent compressed (Content-Encoding: gzip or br); an operation without a body ignores the header', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    for (const [encoding, compress] of [
      ['gzip', gzipSync],
      ['br', brotliCompressSync],
    ] as const) {
      const res = await t.request('POST', '/v0/project', {
        key: u.apiKey,
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        payload: compress(JSON.stringify({ name: `sent-${encoding}` })),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const list = await t.request('GET', '/v0/projects', { key: u.apiKey, headers: { 'content-encoding': 'gzip' } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual(['Starter', 'sent-gzip', 'sent-br']);
  });

  it('marks whether the browser sent a session cookie (not whether it is valid), so a signed-out tab need not ask', async () => {
    const t = await makeTestApp({ webDir: fakeBuild() });
    const page = (headers: Record<string, string>) => t.request('GET', '/projects', { headers: { accept: 'text/html', ...headers } });
    const none = await page({});
    expect(none.body).toMatch(/<html data-session-cookie="no"/);
    expect(none.headers.vary).toMatch(/cookie/i);
    expect((await page({ cookie: 'other=1' })).body).toMatch(/<html data-session-cookie="no"/);
    expect((await page({ cookie: 'other=1; roster_session=abcdefghijklmnop' })).body).toMatch(/<html data-session-cookie="yes"/);
    // The same address served from the page cache is marked per request.
    expect((await page({})).body).toMatch(/<html data-session-cookie="no"/);
  });

  it('does not answer API misses or non-HTML requests with the SPA', async () => {
    const t = await makeTestApp({ webDir: fakeBuild() });
    const api = await t.request('GET', '/v0/nothing-here', { headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not Found' });
    const json = await t.request('GET', '/some/page', { headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
  });

  it('keeps the API error shapes when the dashboard is hosted too (plugins must not lose the error handler)', async () => {
    const t = await makeTestApp({ webDir: fakeBuild() });
    const res = await t.request('GET', '/v0/user/basic-info', { key: 'rk_notARealKeyAtAll' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Invalid API key.' });
  });
});

describe('CORS', () => {
  it('is off unless origins are configured', async () => {
    const t = await makeTestApp();
    const res = await t.request('GET', '/v0/health', { headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows only the configured origins, preflight included', async () => {
    const t = await makeTestApp({ corsOrigins: ['https://console.example'] });
    const u = await t.user();
    const ok = await t.request('GET', '/v0/user/basic-info', { key: u.apiKey, headers: { origin: 'https://console.example' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://console.example');
    const other = await t.request('GET', '/v0/user/basic-info', { key: u.apiKey, headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await t.request('OPTIONS', '/v0/assistant', {
      headers: { origin: 'https://console.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
    const refused = await t.request('OPTIONS', '/v0/assistant', { headers: { origin: 'https://evil.example' } });
    expect(refused.statusCode).toBe(403);
  });
});
