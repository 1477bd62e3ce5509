import type { APIRequestContext } from '@playwright/test';
import { checkA11y, expect, signIn, signInByEmail, test } from './fixtures.ts';

/** What a program gets for the key over the API (a plain fetch, as a script would make it). */
async function statusWith(request: APIRequestContext, key: string): Promise<number> {
  const res = await request.get('/v0/user/basic-info', { headers: { Authorization: `Bearer ${key}` } });
  return res.status();
}

test.describe('API keys page', () => {
  test('a personal key is created with a name, shown once, works over the API, and stops at revocation', async ({ page, request, roster }) => {
    const user = await roster.createUser({ name: 'Ada Keys' });
    await signIn(page, user.api_key, '/account/keys');
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'API keys' })).toHaveAttribute('aria-current', 'page');
    await checkA11y(page);

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a personal API key' });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Must not be empty.')).toBeVisible();
    await dialog.getByLabel('Name').fill('Nightly export');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Key “Nightly export” created' });
    await expect(shown.getByText('it is shown only once')).toBeVisible();
    await expect(shown.getByRole('button', { name: 'Copy Your new API key' })).toBeVisible();
    const apiKey = (await shown.locator('pre[aria-label="Your new API key"]').textContent())!.trim();
    expect(apiKey).toMatch(/^rk_[\w-]{43}$/);
    await checkA11y(page);
    await shown.getByRole('button', { name: 'Done' }).click();

    // Listed by name and prefix, never again in full.
    const row = page.getByRole('row', { name: /Nightly export/ });
    await expect(row).toContainText(`${apiKey.slice(0, 9)}…`);
    await expect(row).toContainText('Active');
    await expect(page.locator('body')).not.toContainText(apiKey);

    expect(await statusWith(request, apiKey)).toBe(200);
    // Last used shows after a use (recorded to the minute).
    await page.reload();
    await expect(page.getByRole('row', { name: /Nightly export/ })).not.toContainText('Never');

    await page
      .getByRole('row', { name: /Nightly export/ })
      .getByRole('button', { name: 'Revoke Nightly export' })
      .click();
    await page.getByRole('dialog', { name: 'Revoke Nightly export?' }).getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByRole('row', { name: /Nightly export/ })).toContainText('Revoked');
    expect(await statusWith(request, apiKey)).toBe(401);
    // The key this browser signed in with still works.
    expect(await statusWith(request, user.api_key)).toBe(200);
  });

  test('an Owner creates an organization key with chosen permissions, and "revoke all my keys" asks for the typed words', async ({ page, request, roster }) => {
    const owner = await roster.createUser({ name: 'Grace Keys' });
    const org = await roster.createOrg({ ownerEmail: owner.email });
    // Signed in by e-mail, as people are: revoking every key leaves the browser session (and this tab) signed in.
    await signInByEmail(page, owner.email);
    await page.goto('/account/keys');

    const section = page.getByRole('region', { name: 'Organization keys' });
    await section.getByRole('button', { name: 'Create organization key' }).click();
    const dialog = page.getByRole('dialog', { name: `Create a key for ${org.name}` });
    await dialog.getByLabel('Name').fill('Read-only reports');
    // Viewer's permissions by default: every :read.
    await expect(dialog.getByRole('checkbox', { name: 'project:read' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'project:write' })).not.toBeChecked();
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Key “Read-only reports” created' });
    const orgKey = (await shown.locator('pre[aria-label="Your new API key"]').textContent())!.trim();
    expect(orgKey).toMatch(/^rko_/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(section.getByRole('row', { name: /Read-only reports/ })).toContainText('project:read');

    // Its permissions hold over the API: reading yes, writing no.
    expect((await request.get('/v0/projects', { headers: { Authorization: `Bearer ${orgKey}` } })).status()).toBe(200);
    expect((await request.post('/v0/project', { headers: { Authorization: `Bearer ${orgKey}` }, data: { name: 'refused' } })).status()).toBe(403);

    const danger = page.getByRole('region', { name: 'Danger zone' });
    await expect(danger).toContainText('Browser sessions stay signed in');
    await expect(danger).toContainText('leaves organization keys working');
    await danger.getByRole('button', { name: 'Revoke all my keys' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke all your keys?' });
    await expect(confirm.getByRole('button', { name: 'Revoke every key' })).toBeDisabled();
    await confirm.getByLabel('Confirmation').fill('revoke all my keys');
    await confirm.getByRole('button', { name: 'Revoke every key' }).click();
    const done = page.getByRole('dialog', { name: 'Every key revoked' });
    const fresh = (await done.locator('pre[aria-label="Your new personal API key"]').textContent())!.trim();
    for (const key of [orgKey, org.api_key, owner.api_key]) expect(await statusWith(request, key)).toBe(401);
    expect(await statusWith(request, fresh)).toBe(200);
    await done.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
  });
});
