import { PAGES, type PagePath } from '../src/shared/pages.ts';
import { checkA11y, expect, signIn, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

// Every page of the dashboard (the list the router is built from, so a new page is covered the day it is
// added), in the light and the dark scheme: no axe violation on a desktop screen and at 390 px, and no
// sideways scrolling of the page at 390 px or at 320 px. Issue 20, items 23 and 24.

const PROJECT = 'every-page';
const CONTEXT = 'runs/2025/eval';

/** The address of each page, its parameters filled with things the test made. */
type Roster = Parameters<Parameters<typeof test>[2]>[0]['roster'];

function addressOf(path: PagePath, ids: { assistant: string }): string {
  const filled = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const value = { ':project': PROJECT, ':context': CONTEXT, ':id': ids.assistant }[segment];
      if (value === undefined) throw new Error(`every-page.spec.ts does not know what to put in ${segment} of ${path}: add it`);
      return encodeURIComponent(value);
    })
    .join('/');
  return `/${filled}`;
}

/** Sideways overflow of the page, with the elements that stick out, for a readable failure. */
async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return [];
    const width = root.clientWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 1)
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').slice(0, 2).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(el.getBoundingClientRect().right)}`,
      );
    return [`page is ${root.scrollWidth}px wide in a ${width}px window`, ...culprits];
  });
}

/** Header controls cut off by the window's edge (the header does not scroll, so the page check misses them). */
async function headerCutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>('header a, header button, header [role="status"]')]
      .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().right > width + 1)
      .map((el) => `${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)} right=${Math.round(el.getBoundingClientRect().right)} of ${width}`);
  });
}

async function settle(page: Page): Promise<void> {
  await expect(page.locator('#main h1')).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  // Skeletons gone: the page shows what it will show.
  await expect(page.locator('#main .mantine-Skeleton-root')).toHaveCount(0, { timeout: 15_000 });
}

/** Everything the page needs, made through the API; the address to open, in the personal or the organization workspace. */
async function prepare(roster: Roster, path: PagePath, inOrganization: boolean): Promise<{ key: string; address: string }> {
  const user = await roster.createUser({ name: 'Page Walker' });
  const api = roster.api(user.api_key);
  const ids = { assistant: '' };
  if (path.includes(':project')) {
    await api.post('/v0/project', { name: PROJECT, is_versioned: true, description: 'Every page, every scheme' });
    await api.post(`/v0/project/${PROJECT}/contexts`, { name: CONTEXT, is_versioned: true });
    await api.post(`/v0/project/${PROJECT}/contexts/${encodeURIComponent(CONTEXT)}/logs`, { entries: [{ run: 'a', score: 0.5 }] });
  }
  if (path.includes(':id')) {
    const hired = await api.post<{ info: { agent_id: string } }>('/v0/assistant', { first_name: 'Pagewalker', surname: 'Longsurname-Doublebarrel', create_infra: false });
    ids.assistant = String(hired.info.agent_id);
  }
  const address = addressOf(path, ids);
  if (!inOrganization && path !== 'organization') return { key: user.api_key, address };
  // A long name: the header's switcher and the organization pages must wrap it, not push the page sideways.
  const org = await roster.createOrg({ ownerEmail: user.email, name: 'A Rather Long Organization Name Ltd' });
  return { key: user.api_key, address: inOrganization ? `/o/${org.organization_id}${address === '/' ? '' : address}` : address };
}

// In the organization workspace: the pages whose content differs there.
const ORGANIZATION_PAGES: PagePath[] = ['', 'organization', 'assistants', 'projects'];

const cases = [...(Object.keys(PAGES) as PagePath[]).map((path) => ({ path, org: false })), ...ORGANIZATION_PAGES.map((path) => ({ path, org: true }))];
for (const { path, org } of cases) {
  test(`${org ? 'organization ' : ''}/${path}: light and dark pass axe at desktop and 390 px, no sideways scroll down to 320 px`, async ({ page, roster }) => {
    const { key, address } = await prepare(roster, path, org);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, key, address);
    for (const scheme of ['light', 'dark'] as const) {
      await test.step(scheme, async () => {
        if (scheme === 'dark') {
          // A dark system: the page takes the dark scheme from its first paint.
          await page.emulateMedia({ colorScheme: 'dark' });
          await page.setViewportSize({ width: 1280, height: 800 });
          await page.reload();
        }
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await settle(page);
        await checkA11y(page);
        await page.setViewportSize({ width: 390, height: 844 });
        await settle(page);
        await checkA11y(page);
        expect(await sidewaysOverflow(page), `${address} at 390 px (${scheme})`).toEqual([]);
        expect(await headerCutOff(page), `${address} header at 390 px (${scheme})`).toEqual([]);
        await page.setViewportSize({ width: 320, height: 640 });
        expect(await sidewaysOverflow(page), `${address} at 320 px (${scheme})`).toEqual([]);
        expect(await headerCutOff(page), `${address} header at 320 px (${scheme})`).toEqual([]);
      });
    }
  });
}
