import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
let counter = 0;

/** Unique per run and worker, so specs never collide on names or e-mails. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** The Roster CLI against the e2e server's database (as an operator would use it). */
async function cli<T>(...args: string[]): Promise<T> {
  const dataDir = process.env.E2E_DATA_DIR!;
  const { stdout } = await run(process.execPath, [path.join(root, 'scripts/roster.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, ROSTER_DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dataDir, 'roster.db')}`, ROSTER_LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}

let bootstrap: Promise<CreatedUser> | null = null;
/** One user per worker, made with the CLI, whose key creates the other test users through the API. */
function bootstrapUser(): Promise<CreatedUser> {
  // An instance administrator: only they create accounts for others.
  bootstrap ??= cli<CreatedUser>('user', 'create', '--email', `${unique('bootstrap')}@example.com`, '--name', 'Fixture Bootstrap').then(async (user) => {
    await cli('admin', 'grant', '--email', user.email);
    return user;
  });
  return bootstrap;
}

export interface CreatedUser {
  user_id: string;
  email: string;
  api_key: string;
}

export interface CreatedOrg {
  organization_id: number;
  name: string;
  api_key: string;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A small JSON client for setting data up through the real API; throws with the `detail` on non-2xx. */
function apiFor(request: APIRequestContext, key: string) {
  const call = async <T = unknown>(method: Method, url: string, body?: unknown): Promise<T> => {
    const res = await request.fetch(url, {
      method: method.toUpperCase(),
      headers: { Authorization: `Bearer ${key}` },
      ...(body !== undefined ? { data: body } : {}),
    });
    const text = await res.text();
    if (!res.ok()) throw new Error(`${method.toUpperCase()} ${url} → ${res.status()}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  return {
    get: <T = unknown>(url: string) => call<T>('get', url),
    post: <T = unknown>(url: string, body?: unknown) => call<T>('post', url, body ?? {}),
    put: <T = unknown>(url: string, body?: unknown) => call<T>('put', url, body ?? {}),
    patch: <T = unknown>(url: string, body?: unknown) => call<T>('patch', url, body ?? {}),
    delete: <T = unknown>(url: string, body?: unknown) => call<T>('delete', url, body),
  };
}

/**
 * What went wrong in the page during a test: console errors, uncaught exceptions, and requests that failed
 * or were answered with an error status. A test fails on any of these unless it says it expects them
 * (`expectProblems`): a quiet 404 in the console is how a query for a deleted thing shows itself.
 */
interface Problems {
  seen: string[];
  /** Each pattern excuses what is seen from the moment it was declared on (`from`, an index into `seen`). */
  expected: { pattern: RegExp; from: number }[];
}
const problemsOf = new WeakMap<Page, Problems>();

/** Lets the rest of this test meet problems matching `patterns` (e.g. `/^422 POST \/v0\/assistant$/`). */
export function expectProblems(page: Page, ...patterns: RegExp[]): void {
  const record = problemsOf.get(page);
  record?.expected.push(...patterns.map((pattern) => ({ pattern, from: record.seen.length })));
}

function watchProblems(page: Page): Problems {
  // A tab without a key whose browser sent a session cookie asks once whether it is still valid: ended, 401.
  const record: Problems = { seen: [], expected: [{ pattern: /^401 GET \/v0\/sessions\/current$/, from: 0 }] };
  problemsOf.set(page, record);
  const origin = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };
  page.on('console', (message) => {
    // The browser's own line for an error status carries no address; the response below names it.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) record.seen.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => record.seen.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) record.seen.push(`${response.status()} ${response.request().method()} ${origin(response.url())}`);
  });
  page.on('requestfailed', (request) => {
    // A navigation or an unmounted query cancels requests in flight: that is the app working, not failing.
    const failure = request.failure()?.errorText ?? '';
    if (!failure.includes('ERR_ABORTED')) record.seen.push(`failed: ${request.method()} ${origin(request.url())} (${failure})`);
  });
  return record;
}

export const test = base.extend<{
  roster: {
    createUser(opts?: { name?: string; credits?: number; email?: string }): Promise<CreatedUser>;
    createOrg(opts: { ownerEmail: string; name?: string }): Promise<CreatedOrg>;
    addCredits(email: string, amount: number): Promise<void>;
    /** Revokes the user's personal key; returns the new one. */
    rotateKey(email: string): Promise<string>;
    /** Revokes every key of the user (personal and organization); returns the new personal one. */
    revokeAllKeys(email: string): Promise<string>;
    /** Makes the user an instance administrator (who may create accounts for others). */
    grantAdmin(email: string): Promise<void>;
    api(key: string): ReturnType<typeof apiFor>;
  };
}>({
  page: async ({ page }, use) => {
    const record = watchProblems(page);
    await use(page);
    const unexpected = record.seen.filter((problem, i) => !record.expected.some(({ pattern, from }) => from <= i && pattern.test(problem)));
    expect(unexpected, 'console errors and failed requests this test did not expect').toEqual([]);
  },
  roster: async ({ request }, use) => {
    await use({
      createUser: async ({ name = 'Test User', credits, email } = {}) => {
        const address = email ?? `${unique('user')}@example.com`;
        // With a particular balance the operator's CLI sets it; otherwise the API creates the user (faster).
        if (credits !== undefined) return cli<CreatedUser>('user', 'create', '--email', address, '--name', name, '--credits', String(credits));
        const [first, ...rest] = name.split(' ');
        const created = await apiFor(request, (await bootstrapUser()).api_key).post<{ user_id: string; api_key: string }>('/v0/user/create-with-business-info', {
          account_type: 'individual',
          email: address,
          name: first,
          last_name: rest.join(' ') || null,
          // What a CLI-created user starts with (ROSTER_SIGNUP_CREDITS' default).
          credits: 50,
        });
        return { user_id: created.user_id, email: address, api_key: created.api_key };
      },
      createOrg: ({ ownerEmail, name }) => cli<CreatedOrg>('org', 'create', '--owner-email', ownerEmail, '--name', name ?? unique('Org')),
      addCredits: async (email, amount) => {
        await cli('credits', 'add', '--email', email, '--amount', String(amount));
      },
      rotateKey: async (email) => (await cli<CreatedUser>('key', 'rotate', '--email', email)).api_key,
      revokeAllKeys: async (email) => (await cli<CreatedUser>('key', 'revoke-all', '--email', email)).api_key,
      grantAdmin: async (email) => {
        await cli('admin', 'grant', '--email', email);
      },
      api: (key) => apiFor(request, key),
    });
  },
});

export { expect };

/** Signs in by e-mail link as a person would: asks for the link, opens the mailed one, waits for the shell. */
export async function signInByEmail(page: Page, email: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.goto(await linkMailedTo(email));
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible({ timeout: 20_000 });
}

/** Signs in the way the printed link does (`/#key=…`) and waits for the shell. */
export async function signIn(page: Page, key: string, path = '/'): Promise<void> {
  await page.goto(`${path}#key=${key}`);
  // The first screen is inert until the app has loaded and asked who the key is: on a loaded machine that takes a while.
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible({ timeout: 20_000 });
}

/** Zero axe violations (WCAG 2.1 A/AA) on what the page shows now. */
export async function checkA11y(page: Page, options: { exclude?: string[] } = {}): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const readable = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`);
  expect(readable, 'axe violations').toEqual([]);
}

const SIGN_IN_LINK = /https?:\/\/\S+\/sign-in\/link(?:\?next=[^\s#]+)?#token=[\w-]+/;

/**
 * The link (by default the sign-in link; `pattern` for another, such as an invitation's) of the newest
 * mail to `to` the server wrote to its outbox directory (no SMTP in e2e).
 */
export async function linkMailedTo(to: string, pattern: RegExp = SIGN_IN_LINK): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR!, 'mail');
  let link: string | null = null;
  await expect
    .poll(
      () => {
        const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
        for (const file of files.sort().reverse()) {
          // Quoted-printable: soft line breaks and the encoded "=".
          const mail = fs
            .readFileSync(path.join(dir, file), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '=');
          if (!mail.includes(`To: ${to}`)) continue;
          link = pattern.exec(mail)?.[0] ?? null;
          if (link) return true;
        }
        return false;
      },
      { timeout: 20_000, message: `a mail to ${to} with a link like ${pattern} in ${dir}` },
    )
    .toBe(true);
  return link!;
}
