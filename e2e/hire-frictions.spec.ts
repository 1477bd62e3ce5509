import fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { ResponseOf } from '../src/shared/operation.ts';
import type { createAssistant, getAssistant } from '../src/shared/operations/assistants.ts';
import { checkA11y, expect, signIn, test, unique } from './fixtures.ts';
import { noisyPngImage, pngImage } from './media-files.ts';

/** Screenshots looked at by hand (kept outside test-results, which each run empties). */
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/tmp/roster-shots';

/** The pixel size of a served picture, as the browser decodes it. */
function imageSize(page: Page, url: string): Promise<number[]> {
  return page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    return [img.naturalWidth, img.naturalHeight];
  }, url);
}

const assistantIdIn = (url: string) => Number(/\/assistants\/(\d+)$/.exec(url)?.[1]);

test.describe('hiring frictions (issue 20)', () => {
  test('a photo chosen but not cropped is uploaded on hiring, cropped as set in the cropper', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Pia Picker', credits: 50 });
    const surname = unique('Photo');
    await signIn(page, user.api_key, '/assistants/new');
    await page.getByLabel('First name').fill('Pia');
    await page.getByLabel('Surname').fill(surname);
    await page.getByLabel('Photo file').setInputFiles({ name: 'pia.png', mimeType: 'image/png', buffer: pngImage(320, 200) });
    await expect(page.getByRole('group', { name: /^Crop area/ })).toBeVisible();
    // Zoomed in one step (1.05×): the 200 px high source gives a 190 px square, not the default 200.
    await page.getByRole('slider', { name: 'Zoom' }).press('ArrowRight');
    await page.getByRole('button', { name: 'Hire for 10 credits' }).click();
    await expect(page).toHaveURL(/\/assistants\/\d+$/, { timeout: 30_000 });
    const id = assistantIdIn(page.url());
    const { info } = await roster.api(user.api_key).get<ResponseOf<typeof getAssistant>>(`/v0/assistant/${id}`);
    expect(info.profile_photo).toMatch(/\/v0\/files\//);
    expect(await imageSize(page, info.profile_photo!)).toEqual([190, 190]);
    await expect(page.locator('h1 img')).toHaveAttribute('src', info.profile_photo!);
  });

  test('after hiring, the new page opens at the top with its heading focused and the success announced', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Tom Top', credits: 50 });
    const surname = unique('Top');
    await signIn(page, user.api_key, '/assistants/new');
    await page.getByLabel('First name').fill('Tess');
    await page.getByLabel('Surname').fill(surname);
    await page.getByRole('button', { name: 'Hire for 10 credits' }).click();
    await expect(page).toHaveURL(/\/assistants\/\d+$/, { timeout: 30_000 });
    const heading = page.getByRole('heading', { level: 1, name: `Tess ${surname}` });
    await expect(heading).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: `Tess ${surname} was hired.` })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByRole('heading', { name: 'Delete this assistant' })).not.toBeInViewport();
  });

  test('a phone photo over 5 MiB is reduced in the browser, says its size before and after, and is uploaded', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Phil Phone', credits: 50 });
    const big = noisyPngImage(2600, 1000);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    await signIn(page, user.api_key, '/assistants/new');
    await page.getByLabel('First name').fill('Phil');
    await page.getByLabel('Photo file').setInputFiles({ name: 'phone.png', mimeType: 'image/png', buffer: big });
    await expect(page.getByRole('group', { name: /^Crop area/ })).toBeVisible({ timeout: 20_000 });
    const note = page.getByRole('status').filter({ hasText: 'phone.png' });
    await expect(note).toHaveText(/^phone\.png was 7\.\d MB \(2600 × 1000\); reduced in your browser to [\d.]+ (MB|KB) \(2048 × 788\)\.$/);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByText('Not uploaded yet: hiring uploads it as cropped here.')).toBeVisible();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.getByRole('region', { name: 'Photo' }).screenshot({ path: `${SHOTS}/hire-large-photo.png` });
    await page.screenshot({ path: `${SHOTS}/hire-large-photo-page.png`, fullPage: true });
    await checkA11y(page);
    await page.getByRole('button', { name: 'Hire for 10 credits' }).click();
    await expect(page).toHaveURL(/\/assistants\/\d+$/, { timeout: 30_000 });
    const { info } = await roster.api(user.api_key).get<ResponseOf<typeof getAssistant>>(`/v0/assistant/${assistantIdIn(page.url())}`);
    expect(await imageSize(page, info.profile_photo!)).toEqual([788, 788]);
  });

  test('leaving the hire form with unsaved edits asks first (sidebar, Back, closing the tab); hiring itself does not', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Lea Leaver', credits: 50 });
    await signIn(page, user.api_key, '/assistants');
    await page.getByRole('link', { name: 'Hire an assistant' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hire an assistant' })).toBeVisible();
    // Untouched, the form lets the user go.
    await page.goBack();
    await expect(page).toHaveURL(/\/assistants$/);
    await page.getByRole('link', { name: 'Hire an assistant' }).click();
    await page.getByLabel('First name').fill('Unsaved');

    // The sidebar: asked, and Stay keeps everything.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Stay', exact: true })).toBeFocused();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/leave-confirmation.png` });
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Stay', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/assistants\/new$/);
    await expect(page.getByLabel('First name')).toHaveValue('Unsaved');

    // Back: asked too; Escape stays.
    await page.goBack();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/assistants\/new$/);
    await expect(page.getByLabel('First name')).toHaveValue('Unsaved');

    // Reloading or closing the tab: the page asks the browser to confirm (a beforeunload it cancels).
    const cancelled = await page.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(cancelled).toBe(true);

    // Hiring leaves without a question, and the new page has nothing unsaved.
    await page.getByLabel('Surname').fill(unique('Saved'));
    await page.getByRole('button', { name: 'Hire for 10 credits' }).click();
    await expect(page).toHaveURL(/\/assistants\/\d+$/, { timeout: 30_000 });
    await expect(dialog).toBeHidden();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL(/\/projects$/);
  });

  test("leaving an assistant's settings or the account settings with unsaved edits asks first; after saving it does not", async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Sam Settings', credits: 20 });
    const { info } = await roster
      .api(user.api_key)
      .post<ResponseOf<typeof createAssistant>>('/v0/assistant', { first_name: 'Set', surname: 'Tings', create_infra: false });
    // Signed in on the light Overview first: the fixture's 20 s for the first screen is tight for this long page on a loaded machine.
    await signIn(page, user.api_key, '/');
    await page.goto(`/assistants/${info.agent_id}`);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await page.getByLabel('About', { exact: true }).fill('Edited but not saved.');
    await page.getByRole('link', { name: 'All assistants' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay', exact: true }).click();
    await expect(page.getByLabel('About', { exact: true })).toHaveValue('Edited but not saved.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('No unsaved changes.')).toBeVisible();
    await nav.getByRole('link', { name: 'Account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(dialog).toBeHidden();

    // The account's spending limit: asked, and "Leave without saving" goes.
    await page.getByRole('switch', { name: 'No limit' }).uncheck();
    await page.getByLabel('Monthly spending limit (USD)').fill('12');
    await nav.getByRole('link', { name: 'Overview' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(page.getByText('Current limit: no limit')).toBeVisible();

    // The business classification likewise.
    await page
      .locator('label')
      .filter({ hasText: /^Business$/ })
      .click();
    await nav.getByRole('link', { name: 'Overview' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Stay', exact: true }).click();
    await expect(page.getByLabel('Business name')).toBeVisible();
  });
});
