import { checkA11y, expect, signIn, test, unique } from './fixtures.ts';

test.describe('organizations', () => {
  test('create an organization, invite a user who accepts from the link, change their role, remove them', async ({ page, browser, roster }) => {
    // Two browsers and a dozen page loads: past two minutes on a loaded machine.
    test.slow();
    const owner = await roster.createUser({ name: 'Olivia Owner' });
    const invitee = await roster.createUser({ name: 'Ivan Invitee' });
    const orgName = unique('Acme');

    // Create the organization from the header's workspace menu.
    await signIn(page, owner.api_key);
    await page.getByRole('button', { name: /^Personal workspace ?: switch workspace$/ }).click();
    await page.getByRole('menuitem', { name: 'Create organization' }).click();
    const createDialog = page.getByRole('dialog', { name: 'Create organization' });
    await createDialog.getByRole('button', { name: 'Create' }).click();
    await expect(createDialog.getByText('Enter a name.')).toBeVisible();
    await createDialog.getByLabel('Organization name').fill(orgName);
    await createDialog.getByRole('button', { name: 'Create' }).click();
    await expect(createDialog.locator('pre[aria-label="Organization API key"]')).toContainText('rko_');
    await checkA11y(page);
    await createDialog.getByRole('link', { name: `Open ${orgName}` }).click();
    await expect(page).toHaveURL(/\/o\/\d+\/organization$/);
    await expect(page.getByRole('heading', { level: 1, name: orgName })).toBeVisible();
    await expect(page.getByRole('banner').getByText(`${orgName} · Owner`)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Members' }).getByText(owner.email)).toBeVisible();
    await checkA11y(page);

    // Invite the second user; the link is shown once.
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await expect(page.getByText('No pending invitations')).toBeVisible();
    await page.getByRole('button', { name: 'Invite by e-mail' }).click();
    const inviteDialog = page.getByRole('dialog', { name: 'Invite by e-mail' });
    await inviteDialog.getByLabel('E-mail address').fill('not-an-address');
    await inviteDialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(inviteDialog.getByText('Enter a valid e-mail address.')).toBeVisible();
    await inviteDialog.getByLabel('E-mail address').fill(invitee.email);
    await inviteDialog.getByRole('button', { name: 'Send invitation' }).click();
    const link = (await inviteDialog.locator('pre[aria-label="Invitation link"]').textContent())!.trim();
    expect(link).toMatch(/\/invite\?token=[\w-]{43}$/);
    await checkA11y(page);
    await inviteDialog.getByRole('button', { name: 'Done' }).click();
    const invites = page.getByRole('table', { name: 'Pending invitations' });
    await expect(invites.getByText(invitee.email)).toBeVisible();
    await expect(invites.getByText('Olivia Owner')).toBeVisible();
    await expect(invites.getByText('in 7 days')).toBeVisible();

    // The invitee opens the link in their own browser session and accepts.
    const context = await browser.newContext();
    const other = await context.newPage();
    const url = new URL(link);
    await signIn(other, invitee.api_key, `${url.pathname}${url.search}`);
    await expect(other.getByRole('heading', { name: `Join ${orgName}` })).toBeVisible();
    await checkA11y(other);
    const notFound: string[] = [];
    other.on('response', (res) => {
      if (res.status() === 404) notFound.push(res.url());
    });
    await other.getByRole('button', { name: 'Accept invitation' }).click();
    await expect(other).toHaveURL(/\/o\/\d+\/organization$/);
    await expect(other.getByRole('banner').getByText(`${orgName} · Member`)).toBeVisible();
    await expect(other.getByRole('table', { name: 'Members' }).getByText(invitee.email)).toBeVisible();
    // The used invite is not asked for again once accepted (it would answer 404 in the console).
    expect(notFound).toEqual([]);
    // A member may not invite: the button is disabled and says why.
    await other.getByRole('tab', { name: 'Invitations' }).click();
    await expect(other.getByRole('button', { name: 'Invite by e-mail' })).toBeDisabled();
    await other.getByLabel('Your role lacks the org:write permission.').first().hover();
    await expect(other.getByRole('tooltip')).toHaveText('Your role lacks the org:write permission.');
    // The used link is dead.
    await other.goto(`${url.pathname}${url.search}`);
    await expect(other.getByText('This invitation is no longer valid')).toBeVisible();
    await context.close();

    // Back as the owner: the invitation is gone, the member is listed; change their role, then remove them.
    await page.reload();
    await page.getByRole('tab', { name: 'Members' }).click();
    const members = page.getByRole('table', { name: 'Members' });
    await expect(members.getByText(invitee.email)).toBeVisible();
    await page.getByRole('combobox', { name: 'Role of Ivan Invitee' }).click();
    await page.getByRole('option', { name: 'Viewer' }).click();
    await expect(page.getByText('Ivan Invitee is now Viewer.')).toBeVisible();
    await page.getByRole('button', { name: 'Remove Ivan Invitee' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove member' });
    await expect(confirm).toContainText('Their organization API key stops working');
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await expect(members.getByText(invitee.email)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove Olivia Owner' })).toBeDisabled();

    await page.getByRole('tab', { name: 'Roles' }).click();
    const matrix = page.getByRole('table', { name: 'Permissions by role' });
    await expect(matrix.getByRole('columnheader', { name: 'Viewer' })).toBeVisible();
    await expect(matrix.getByRole('rowheader', { name: 'org:delete' })).toBeVisible();
    await checkA11y(page);
  });
});
