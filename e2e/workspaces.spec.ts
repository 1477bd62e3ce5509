import { checkA11y, expect, expectProblems, signInByEmail, test, unique } from './fixtures.ts';

// Workspaces by membership (issue 19): the address says which workspace a page is in (`/o/<id>/…`), a
// session acts in an organization by the person's role there (no organization key in the browser), and
// a member removed from it lands in their personal workspace, still signed in.

/** The `roster` fixture (fixtures.ts). */
type Roster = Parameters<Parameters<typeof test>[2]>[0]['roster'];

/** An organization owned by someone else, the person a Member of it, and a project of the organization's. */
async function memberOfAnOrganization(roster: Roster) {
  const owner = await roster.createUser({ name: 'Grace Owner' });
  const member = await roster.createUser({ name: 'Ada Member' });
  const orgName = unique('Analytical');
  const org = await roster.createOrg({ ownerEmail: owner.email, name: orgName });
  const asOrg = roster.api(org.api_key);
  await asOrg.post(`/v0/organizations/${org.organization_id}/members`, { user_id: member.user_id, role_id: 3 });
  await asOrg.post('/v0/project', { name: 'engine-plans' });
  return { member, orgName, org, asOrg, orgHome: `/o/${org.organization_id}` };
}

test.describe('workspaces', () => {
  test('a member signed in by e-mail opens the organization by its address, in new tabs and by Ctrl+click, and switches', async ({ page, context, roster }) => {
    // Switching workspace on a project page asks for that project in the other workspace, where it does not exist.
    expectProblems(page, /^404 GET \/v0\/project\/engine-plans$/);
    const { member, orgName, orgHome } = await memberOfAnOrganization(roster);
    await signInByEmail(page, member.email);
    const banner = page.getByRole('banner');
    await expect(banner.getByText('Personal workspace')).toBeVisible();
    // The switcher lists the personal workspace and the organization with the role, as links.
    await page.getByRole('button', { name: /switch workspace/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Personal workspace' })).toHaveAttribute('href', '/');
    const orgItem = page.getByRole('menuitem', { name: `${orgName} · Member` });
    await expect(orgItem).toHaveAttribute('href', orgHome);
    await orgItem.click();
    await expect(page).toHaveURL((url) => url.pathname === orgHome);
    await expect(banner.getByText(`${orgName} · Member`)).toBeVisible();
    await expect(page.getByRole('menu')).toBeHidden();
    await checkA11y(page);

    // Every link of the organization's workspace stays in it; its data is the organization's.
    const projectsLink = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' });
    await expect(projectsLink).toHaveAttribute('href', `${orgHome}/projects`);
    await projectsLink.click();
    await expect(page).toHaveURL((url) => url.pathname === `${orgHome}/projects`);
    await expect(page.getByRole('link', { name: 'engine-plans' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'engine-plans' })).toHaveAttribute('href', `${orgHome}/projects/engine-plans`);

    // The organization's address opened directly in a new tab: the same session, the same workspace.
    const typed = await context.newPage();
    await typed.goto(`${orgHome}/projects/engine-plans`);
    await expect(typed.getByRole('banner').getByText(`${orgName} · Member`)).toBeVisible({ timeout: 20_000 });
    await expect(typed.getByRole('heading', { level: 1, name: 'engine-plans' })).toBeVisible();
    await typed.close();

    // Ctrl+click on a link opens it in a new tab, in the organization's workspace.
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Assistants' })
        .click({ modifiers: ['Control'] }),
    ]);
    await opened.waitForLoadState();
    await expect(opened).toHaveURL((url) => url.pathname === `${orgHome}/assistants`);
    await expect(opened.getByRole('banner').getByText(`${orgName} · Member`)).toBeVisible({ timeout: 20_000 });
    await expect(opened.getByRole('heading', { level: 1, name: 'Assistants' })).toBeVisible();
    await opened.close();
    await expect(page).toHaveURL((url) => url.pathname === `${orgHome}/projects`);

    // Switching goes to the same page of the other workspace, whose data is the person's own.
    await page.getByRole('button', { name: /switch workspace/ }).click();
    await page.getByRole('menuitem', { name: 'Personal workspace' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/projects');
    await expect(banner.getByText('Personal workspace')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'engine-plans' })).toHaveCount(0);
  });

  test('a member removed from the organization lands in their personal workspace with a message, still signed in', async ({ page, roster }) => {
    // The removed member's next request in the organization is refused: that is how the page learns it.
    expectProblems(page, /^404 GET \/v0\//);
    const { member, orgName, org, asOrg, orgHome } = await memberOfAnOrganization(roster);
    await signInByEmail(page, member.email);
    const banner = page.getByRole('banner');
    // Removed from the organization: the next request from its workspace lands in the personal one, signed in.
    await page.goto(`${orgHome}/projects`);
    await expect(page.getByRole('link', { name: 'engine-plans' })).toBeVisible({ timeout: 20_000 });
    await expect(banner.getByText(`${orgName} · Member`)).toBeVisible();
    await asOrg.delete(`/v0/organizations/${org.organization_id}/members/${member.user_id}`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Assistants' }).click();
    // The page the refusal reached (the one left, or the one opening), in the personal workspace.
    await expect(page).toHaveURL((url) => url.pathname === '/assistants' || url.pathname === '/projects');
    await expect(page.getByRole('alert').filter({ hasText: 'You are no longer a member of that organization' })).toBeVisible();
    await expect(banner.getByText('Personal workspace')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu for Ada Member' })).toBeVisible();
    await checkA11y(page);
    // The organization is no longer offered.
    await page.getByRole('button', { name: /switch workspace/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Personal workspace' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: new RegExp(orgName) })).toHaveCount(0);
  });
});
