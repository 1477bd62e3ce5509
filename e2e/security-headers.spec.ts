import { expect, test } from './fixtures.ts';

// Every page and API answer carries the strict headers (SECURITY.md): a CSP whose scripts allow no
// inline code, no framing, and nothing that names the server's software.

const PAGES = [
  '/',
  '/sign-in',
  '/projects',
  '/projects/p/contexts/c',
  '/dashboards',
  '/assistants',
  '/assistants/new',
  '/assistants/voices',
  '/organization',
  '/invite?token=x',
  '/account',
  '/custom-endpoints',
  '/no-such-page',
  '/docs',
];

function checkHeaders(url: string, headers: Record<string, string>) {
  const csp = headers['content-security-policy'];
  expect(csp, `${url}: Content-Security-Policy`).toBeTruthy();
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values] as const),
  );
  const scripts = directives.get('script-src') ?? directives.get('default-src') ?? [];
  expect(scripts, `${url}: scripts`).not.toContain("'unsafe-inline'");
  expect(directives.get('frame-ancestors'), `${url}: frame-ancestors`).toEqual(["'none'"]);
  expect(headers['x-content-type-options'], `${url}: nosniff`).toBe('nosniff');
  expect(headers['server'], `${url}: Server`).toBeUndefined();
  expect(headers['x-powered-by'], `${url}: X-Powered-By`).toBeUndefined();
}

test('every page answers with strict security headers', async ({ request }) => {
  for (const url of PAGES) {
    const res = await request.get(url);
    expect(res.status(), url).toBeLessThan(500);
    checkHeaders(url, res.headers());
  }
});

test('every kind of API answer carries them too: success, refusal, error, document, file', async ({ request, roster }) => {
  const user = await roster.createUser({ name: 'Header Checker' });
  const auth = { Authorization: `Bearer ${user.api_key}` };
  const answers = [
    await request.get('/v0/health'),
    await request.get('/v0/projects', { headers: auth }),
    await request.get('/v0/projects'),
    await request.get('/v0/project/no-such-project', { headers: auth }),
    await request.post('/v0/project', { headers: auth, data: { name: 'has space' } }),
    await request.patch('/v0/projects', { headers: auth }),
    await request.get('/v0/openapi.json'),
    await request.get('/v0/files/photos/no-such-file.png'),
  ];
  for (const res of answers) checkHeaders(res.url(), res.headers());
});
