import { checkA11y, expect, expectProblems, signIn, test } from './fixtures.ts';

test.describe('sign-in and shell', () => {
  test('a printed sign-in link lands signed in, shows the user and workspace, and leaves no key in the URL', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Grace Hopper', credits: 42 });
    await signIn(page, user.api_key);
    await expect(page).toHaveURL((url) => url.hash === '' && !url.href.includes(user.api_key));
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Grace' })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Personal workspace')).toBeVisible();
    await expect(page.locator('#main').getByText('42', { exact: true })).toBeVisible();
    await expect(page.getByRole('status', { name: 'credits in Personal workspace' })).toContainText('42');
    // Kept for the tab only.
    const stored = await page.evaluate(() => ({ local: JSON.stringify(localStorage), session: sessionStorage.getItem('roster.session') }));
    expect(stored.local).not.toContain(user.api_key);
    expect(stored.session).toContain(user.api_key);
    await checkA11y(page);

    await page.getByRole('button', { name: 'Account menu for Grace Hopper' }).click();
    await expect(page.getByRole('menu').getByText(user.email)).toBeVisible();
    expectProblems(page, /^401 GET \/v0\//);
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    expect(await page.evaluate(() => sessionStorage.getItem('roster.session'))).toBeNull();
  });

  test('an organization key opens the organization workspace', async ({ page, roster }) => {
    const owner = await roster.createUser({ name: 'Ada Lovelace' });
    const org = await roster.createOrg({ ownerEmail: owner.email, name: 'Analytical Engines' });
    await signIn(page, org.api_key);
    await expect(page.getByRole('banner').getByText('Analytical Engines · Owner')).toBeVisible();
  });

  test('the sign-in form explains a wrong key and accepts a right one, then returns to the page asked for', async ({ page, roster }) => {
    // The wrong key is tried against the API once: its 401 is what the form explains.
    expectProblems(page, /^401 GET \/v0\/user\/basic-info$/);
    const user = await roster.createUser({ name: 'Alan Turing' });
    await page.goto('/some/deep/page');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fsome%2Fdeep%2Fpage$/);
    await expect(page.getByRole('heading', { name: 'Sign in to Roster' })).toBeVisible();
    await checkA11y(page);

    const keyField = page.getByLabel('API key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter your API key.')).toBeVisible();
    await keyField.fill('rk_notARealKeyAtAll');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('That key was not accepted: Invalid API key.')).toBeVisible();
    await expect(keyField).toHaveAttribute('aria-invalid', 'true');
    await checkA11y(page);

    await keyField.fill(user.api_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveURL(/\/some\/deep\/page$/);
    await page.getByRole('link', { name: 'Go to the overview' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Alan' })).toBeVisible();
  });

  test('a revoked key sends the user back to sign-in with the reason', async ({ page, roster }) => {
    expectProblems(page, /^401 GET \/v0\/user\/basic-info$/);
    const user = await roster.createUser({ name: 'Edsger Dijkstra' });
    await signIn(page, user.api_key);
    // Rotating revokes the key this tab holds.
    await roster.rotateKey(user.email);
    await page.reload();
    await expect(page.getByText('Your API key is no longer valid. Sign in again.')).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in/);
  });

  test('dark mode toggles and the shell stays accessible in it', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Dark Mode' });
    await signIn(page, user.api_key);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await checkA11y(page);
  });
});

test('the API reference is served at /docs', async ({ page }) => {
  await page.goto('/docs');
  // The reference renders the whole OpenAPI document in the browser: seconds on a busy machine.
  await expect(page.getByText('/v0/user/basic-info').first()).toBeVisible({ timeout: 30_000 });
});

test('a sign-in link opened in a tab that already runs the app switches to its key', async ({ page, roster }) => {
  const first = await roster.createUser({ name: 'First Person' });
  const second = await roster.createUser({ name: 'Second Person' });
  await signIn(page, first.api_key);
  await expect(page.getByRole('heading', { name: 'Welcome, First' })).toBeVisible();
  await page.goto(`/#key=${second.api_key}`);
  await expect(page.getByRole('heading', { name: 'Welcome, Second' })).toBeVisible();
  await expect(page).toHaveURL((url) => url.hash === '');
});

test('each page arrives with its first screen in the HTML: styled, in the right color scheme, and inert until the app runs', async ({ page, browser }) => {
  // Without the app's JavaScript, what shows is what the server sent.
  expectProblems(page, /^failed: GET \/assets\/[\w.-]+\.js \(net::ERR_FAILED\)$/);
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/projects/first-screen?prefix=runs');
  const frame = page.locator('#root > [inert]');
  await expect(frame.locator('h1')).toHaveText('first-screen');
  await expect(frame.locator('input[placeholder="e.g. runs/2024"]')).toHaveValue('runs');
  await expect(frame.locator('nav a', { hasText: 'Assistants' })).toBeVisible();
  // Styled (Mantine's shell pins its header), in the light scheme here.
  expect(await frame.locator('header').evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
  expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe('light');
  // The static loading screen is gone; screen readers, which skip the inert picture, hear that it loads.
  await expect(page.locator('.boot')).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('Loading Roster…');

  // The sign-in form is there but cannot be used: a native submit would put the key in the address.
  await page.goto('/sign-in');
  await expect(frame.locator('form input[name="apiKey"]')).toBeVisible();
  await page.keyboard.type('rk_typed_before_the_app');
  await expect(frame.locator('form input[name="apiKey"]')).toHaveValue('');

  // A dark system gets the dark scheme before the first paint.
  const dark = await browser.newContext({ colorScheme: 'dark' });
  const darkPage = await dark.newPage();
  await darkPage.route('**/assets/*.js', (route) => route.abort());
  await darkPage.goto(new URL('/assistants', page.url()).href);
  await expect(darkPage.locator('#root > [inert] h1')).toHaveText('Assistants');
  expect(await darkPage.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe('dark');
  await dark.close();
});
