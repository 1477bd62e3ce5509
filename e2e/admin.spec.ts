import type { APIRequestContext, Page } from '@playwright/test';
import { checkA11y, expect, signIn, signInByEmail, test, unique } from './fixtures.ts';

const shots = process.env.E2E_SCREENSHOTS;
/** A screenshot to look at (only when E2E_SCREENSHOTS names a folder). */
async function snap(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** What a program gets for the key over the API (a plain fetch, as a script would make it). */
async function callWith(request: APIRequestContext, key: string) {
  const res = await request.get('/v0/user/basic-info', { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status(), body: (await res.json()) as { detail?: string } };
}

test.describe('Admin area', () => {
  test('an administrator finds a person, grants credits with a reason, sees the grant, and disables the person, whose key and session are then refused', async ({
    page,
    browser,
    request,
    roster,
  }) => {
    // A whole journey in two browsers: more than the default time on a loaded machine.
    test.slow();
    const admin = await roster.createUser({ name: 'Ida Admin' });
    await roster.grantAdmin(admin.email);
    const target = await roster.createUser({ name: 'Tom Target', email: `${unique('target')}@example.com` });
    const org = await roster.createOrg({ ownerEmail: target.email, name: unique('Target Org') });
    expect((await callWith(request, target.api_key)).status).toBe(200);
    // The person is signed in by e-mail link (a session) in their own browser.
    const theirs = await (await browser.newContext()).newPage();
    await signInByEmail(theirs, target.email);

    await signIn(page, admin.api_key);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);

    // Find the person.
    await page.getByLabel('Search people').fill(target.email.slice(0, 20).toUpperCase());
    await expect(page).toHaveURL(/[?&]q=/);
    const row = page.getByRole('row').filter({ hasText: target.email });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Tom Target');
    await expect(row).toContainText('Active');
    await expect(page.getByText(/^1–1 of 1 people$/)).toBeVisible();
    await checkA11y(page);
    await snap(page, 'admin-people');

    // Grant credits: the reason is required.
    await row.getByRole('button', { name: `Grant credits to ${target.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Grant credits to ${target.email}` });
    await dialog.getByLabel('Credits to grant').fill('25');
    await dialog.getByRole('button', { name: 'Grant credits' }).click();
    await expect(dialog.getByText('Give a reason: it is kept with the grant.')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Speaker at the spring conference');
    await checkA11y(page);
    await snap(page, 'admin-grant-dialog');
    await dialog.getByRole('button', { name: 'Grant credits' }).click();
    await expect(page.getByText(`Granted 25 credits to ${target.email}. Their balance is now 75.`)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row.getByRole('cell', { name: '75', exact: true })).toBeVisible();

    // The grant is listed, newest first, with who granted it and the balance it left.
    await page.getByRole('tab', { name: 'Credit grants' }).click();
    await expect(page).toHaveURL(/[?&]tab=grants/);
    const grant = page.getByRole('row').filter({ hasText: 'Speaker at the spring conference' });
    await expect(grant).toContainText(target.email);
    await expect(grant).toContainText('+25');
    await expect(grant).toContainText(admin.email);
    await checkA11y(page);
    await snap(page, 'admin-grants');

    // Organizations: found by name, with owner, members and credits.
    await page.getByRole('tab', { name: 'Organizations' }).click();
    await page.getByLabel('Search organizations').fill(org.name);
    const orgRow = page.getByRole('row').filter({ hasText: org.name });
    await expect(orgRow).toContainText('Tom Target');
    await expect(orgRow).toContainText(target.email);
    await checkA11y(page);
    await snap(page, 'admin-organizations');

    // Disable: confirmed first, then the person's key is refused at once with a clear detail.
    await page.getByRole('tab', { name: 'People' }).click();
    await page.getByLabel('Search people').fill(target.email);
    await row.getByRole('button', { name: `Disable ${target.email}` }).click();
    const confirm = page.getByRole('dialog', { name: `Disable ${target.email}?` });
    await expect(confirm).toContainText('their API keys (personal and organization ones) and browser sessions are refused');
    await confirm.getByRole('button', { name: 'Disable account' }).click();
    await expect(row).toContainText('Disabled');
    const refused = await callWith(request, target.api_key);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/disabled by an instance administrator/);
    expect((await callWith(request, org.api_key)).status).toBe(401);
    // Their session ends at their next click, and the sign-in page says why.
    await theirs.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' }).click();
    await expect(theirs.getByText(/disabled by an instance administrator/)).toBeVisible();
    await expect(theirs).toHaveURL(/\/sign-in/);
    await theirs.context().close();
    // An administrator cannot disable themselves: their own row offers no working Disable.
    await page.getByLabel('Search people').fill(admin.email);
    const own = page.getByRole('row').filter({ hasText: admin.email });
    await expect(own.getByRole('button', { name: `Disable ${admin.email}` })).toHaveCount(0);

    // Enabled again, the key works again.
    await page.getByLabel('Search people').fill(target.email);
    await row.getByRole('button', { name: `Enable ${target.email}` }).click();
    await expect(row).toContainText('Active');
    expect((await callWith(request, target.api_key)).status).toBe(200);
  });

  test('the old “Create a user” address opens the form in the Admin area', async ({ page, roster }) => {
    const admin = await roster.createUser({ name: 'Cora Creator' });
    await roster.grantAdmin(admin.email);
    await signIn(page, admin.api_key, '/account/create-user');
    await expect(page).toHaveURL(/\/admin\/users\/new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Create a user' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Admin' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  });

  test('a person who is not an administrator sees no Admin link and is not allowed at /admin', async ({ page, request, roster }) => {
    const person = await roster.createUser({ name: 'Nina Nobody' });
    await signIn(page, person.api_key);
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'You are not allowed here' })).toContainText('administrators of this Roster instance');
    await expect(page.getByRole('tab', { name: 'People' })).toHaveCount(0);
    await checkA11y(page);
    await snap(page, 'admin-not-allowed');
    // The server refuses it too.
    const res = await request.get('/v0/admin/users', { headers: { Authorization: `Bearer ${person.api_key}` } });
    expect(res.status()).toBe(403);
  });
});
