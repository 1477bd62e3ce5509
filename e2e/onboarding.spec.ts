import { checkA11y, expect, linkMailedTo, test, unique } from './fixtures.ts';

const shots = process.env.E2E_SCREENSHOTS;

test.describe('onboarding by invitation', () => {
  test('a brand-new person opens the mailed invite link, joins without an account, and lands in the organization, signed in', async ({ browser, roster }) => {
    // Mail delivery, a fresh browser and four page loads: well over a minute on a loaded machine.
    test.slow();
    const owner = await roster.createUser({ name: 'Olivia Owner' });
    const orgName = unique('Acme');
    const org = await roster.createOrg({ ownerEmail: owner.email, name: orgName });
    const newcomer = `${unique('newcomer')}@example.com`;
    await roster.api(org.api_key).post(`/v0/organizations/${org.organization_id}/invites`, { email: newcomer, role_name: 'Admin' });
    const link = await linkMailedTo(newcomer, /https?:\/\/\S+\/invite\?token=[\w-]+/);

    // A fresh browser: no session, no key. The link's page says who invites which address, as what.
    const context = await browser.newContext();
    const page = await context.newPage();
    const notFound: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 404) notFound.push(res.url());
    });
    const url = new URL(link);
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page.getByRole('heading', { level: 1, name: `Join ${orgName} on Roster` })).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(/\/invite\/join\?token=[\w-]+$/);
    await expect(page.getByText(`Olivia Owner invited ${newcomer} to join ${orgName} as`)).toBeVisible();
    await expect(page.getByText('Admin', { exact: true })).toBeVisible();
    if (shots) await page.screenshot({ path: `${shots}/invite-join-signed-out.png`, fullPage: true });
    await checkA11y(page);

    await page.getByLabel('Your name').fill('Nina Newcomer');
    await page.getByRole('button', { name: `Join ${orgName}` }).click();

    // In the organization's workspace, signed in by session cookie, told so, focus on the page's heading.
    await expect(page).toHaveURL(new RegExp(`/o/${org.organization_id}/?$`));
    const heading = page.getByRole('heading', { level: 1, name: 'Welcome, Nina' });
    await expect(heading).toBeVisible({ timeout: 20_000 });
    await expect(heading).toBeFocused();
    await expect(page.getByText(`You joined ${orgName}`)).toBeVisible();
    await expect(page.getByText(`You are working in ${orgName}.`)).toBeVisible();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'roster_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await page.getByRole('button', { name: /switch workspace/ }).click();
    await expect(page.getByRole('menuitem', { name: `${orgName} · Admin` })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Personal workspace' })).toBeVisible();
    await page.keyboard.press('Escape');
    // Closed, its exit transition over (axe on a closing menu finds a role=menu without items), and the
    // focus back on the button that opened it.
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(page.getByRole('button', { name: /switch workspace/ })).toBeFocused();
    await checkA11y(page);
    if (shots) await page.screenshot({ path: `${shots}/invite-joined.png`, fullPage: true });

    // The used invite was not asked for again (no 404 in the console), and its link is dead now.
    expect(notFound).toEqual([]);
    const again = await context.newPage();
    await again.goto(`${url.pathname}${url.search}`);
    await expect(again.getByText('This invitation is no longer valid')).toBeVisible({ timeout: 20_000 });
    await context.close();
  });

  test('an invited address that has an account is sent to sign in; another signed-in account is told the invite is not theirs', async ({ browser, roster }) => {
    const owner = await roster.createUser({ name: 'Olivia Owner' });
    const org = await roster.createOrg({ ownerEmail: owner.email, name: unique('Acme') });
    const existing = await roster.createUser({ name: 'Ella Existing' });
    const invite = await roster.api(org.api_key).post<{ token: string }>(`/v0/organizations/${org.organization_id}/invites`, { email: existing.email });

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`/invite?token=${invite.token}`);
    await expect(page.getByText(`${existing.email} already has a Roster account`)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('button', { name: /^Join/ })).toHaveCount(0);
    if (shots) await page.screenshot({ path: `${shots}/invite-join-has-account.png`, fullPage: true });
    await expect(page.getByRole('link', { name: 'Sign in to accept' })).toHaveAttribute('href', `/sign-in?next=${encodeURIComponent(`/invite?token=${invite.token}`)}`);
    await checkA11y(page);

    // Signed in as someone else: the page names both addresses.
    const stranger = await roster.createUser({ name: 'Sam Stranger' });
    await page.goto(`/invite?token=${invite.token}#key=${stranger.api_key}`);
    await expect(page.getByText(`This invitation is for ${existing.email}`)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(`you are signed in as ${stranger.email}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Accept invitation' })).toHaveCount(0);
    if (shots) await page.screenshot({ path: `${shots}/invite-other-account.png`, fullPage: true });
    await checkA11y(page);
    await context.close();

    // In a browser of their own, signing in by e-mail from "Sign in to accept" comes back to the invitation.
    const own = await browser.newContext();
    const tab = await own.newPage();
    await tab.goto(`/invite?token=${invite.token}`);
    await tab.getByRole('link', { name: 'Sign in to accept' }).click();
    await tab.getByLabel('E-mail address').fill(existing.email);
    await tab.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await tab.goto(await linkMailedTo(existing.email));
    await expect(tab).toHaveURL(new RegExp(`/invite\\?token=${invite.token}$`), { timeout: 20_000 });
    await tab.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(tab).toHaveURL(new RegExp(`/o/${org.organization_id}(/|$)`), { timeout: 20_000 });
    await own.close();
  });
});
