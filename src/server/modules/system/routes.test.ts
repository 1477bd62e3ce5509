import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../../testing/harness.ts';

describe('system and cross-cutting behaviour', () => {
  it('answers health without a key', async () => {
    const t = await makeTestApp();
    const res = await t.request('GET', '/v0/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves an OpenAPI 3.1 document listing routes with spec paths and marked extensions', async () => {
    const t = await makeTestApp();
    const res = await t.request('GET', '/v0/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v0/user/basic-info'].get.operationId).toBe('getBasicInfo');
    expect(doc.paths['/v0/user/basic-info'].get['x-extension']).toBeUndefined();
    expect(doc.paths['/v0/credits'].get['x-extension']).toBe(true);
    expect(doc.paths['/v0/user/basic-info'].get.responses['401']).toBeDefined();
  });

  it('serves the interactive reference page without inline script', async () => {
    const t = await makeTestApp();
    const page = await t.request('GET', '/docs');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/docs/init.js');
    expect(page.body).not.toMatch(/<script>[^<]/);
    const bundle = await t.request('GET', '/docs/assets/swagger-ui-bundle.js');
    expect(bundle.statusCode).toBe(200);
    const init = await t.request('GET', '/docs/init.js');
    expect(init.body).toContain('/v0/openapi.json');
  });

  it('answers unknown routes with 404 Not Found and wrong methods with 405', async () => {
    const t = await makeTestApp();
    const missing = await t.request('GET', '/v0/nothing-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Not Found' });
    const wrong = await t.request('DELETE', '/v0/user/basic-info');
    expect(wrong.statusCode).toBe(405);
    expect(wrong.json()).toEqual({ detail: 'Method Not Allowed' });
    expect(wrong.headers.allow).toBe('GET');
  });

  it('sets strict security headers and no-store on API responses', async () => {
    const t = await makeTestApp();
    const res = await t.request('GET', '/v0/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    // API answers load nothing: the strictest policy; the dashboard's own is checked with its hosting.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    // Headers that only govern a page are left to pages.
    expect(res.headers['referrer-policy']).toBeUndefined();
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-request-id']).toBeTruthy();
    const failed = await t.request('GET', '/v0/user/basic-info');
    expect(failed.statusCode).toBe(401);
    expect(failed.headers['cache-control']).toBe('no-store');
    expect(failed.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const docs = await t.request('GET', '/docs');
    expect(String(docs.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(docs.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(docs.headers['referrer-policy']).toBe('no-referrer');
    expect(docs.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('tolerates a trailing slash', async () => {
    const t = await makeTestApp();
    const u = await t.user();
    const res = await t.request('GET', '/v0/user/basic-info/', { key: u.apiKey });
    expect(res.statusCode).toBe(200);
  });
});
