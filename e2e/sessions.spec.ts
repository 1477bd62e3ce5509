import { checkA11y, expect, expectProblems, linkMailedTo, test } from './fixtures.ts';

test.describe('signing in by e-mail link', () => {
  test('the mailed link signs the browser in, every new tab is signed in, and no secret is in JavaScript', async ({ page, context, roster }) => {
    const user = await roster.createUser({ name: 'Barbara Liskov' });
    await page.goto('/sign-in');
    await expect(page.getByRole('heading', { name: 'Sign in to Roster' })).toBeVisible();
    await checkA11y(page);
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect(page.getByText(`If ${user.email} can sign in here, a link is on its way`)).toBeVisible();

    const link = await linkMailedTo(user.email);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Barbara' })).toBeVisible({ timeout: 20_000 });
    // The token left the address bar, and the browser holds no key or token where scripts can read it.
    await expect(page).toHaveURL((url) => url.pathname === '/' && url.hash === '');
    const token = new URL(link).hash.slice('#token='.length);
    const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }));
    expect(stored).not.toContain(token);
    expect(stored).not.toMatch(/rk_|roster_session/);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'roster_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    // A second tab (an address typed, a link opened in a new tab) is signed in by the same session.
    const second = await context.newPage();
    await second.goto('/projects');
    await expect(second.getByRole('button', { name: 'Account menu for Barbara Liskov' })).toBeVisible({ timeout: 20_000 });
    await expect(second).toHaveURL(/\/projects$/);
    await expect(second.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();

    // The link works once.
    const third = await context.newPage();
    await third.goto(link);
    await expect(third.getByText(/already used/)).toBeVisible();
    await third.close();

    // Sign out everywhere: this tab goes to sign-in, and the other tab's next request finds the session gone.
    await page.getByRole('button', { name: 'Account menu for Barbara Liskov' }).click();
    // Signed out, what was on screen is asked for once more and refused before the sign-in page replaces it.
    expectProblems(page, /^401 GET \/v0\//);
    await page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByText(/Signed out of 1 session/)).toBeVisible();
    await second.reload();
    await expect(second).toHaveURL(/\/sign-in\?next=%2Fprojects$/);
  });

  test('sign out ends the session for every tab of the browser', async ({ page, context, roster }) => {
    const user = await roster.createUser({ name: 'Frances Allen' });
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.goto(await linkMailedTo(user.email));
    await expect(page.getByRole('button', { name: 'Account menu for Frances Allen' })).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Account menu for Frances Allen' }).click();
    expectProblems(page, /^401 GET \/v0\//);
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    const other = await context.newPage();
    await other.goto('/');
    await expect(other).toHaveURL(/\/sign-in$/);
  });
});
