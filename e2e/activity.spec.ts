import type { Page } from '@playwright/test';
import { checkA11y, expect, signIn, test, unique } from './fixtures.ts';

const shots = process.env.E2E_SCREENSHOTS;
/** A screenshot to look at (only when E2E_SCREENSHOTS names a folder). */
async function snap(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/** Picks an option of a Mantine Select by its label (the options are in a listbox outside the field). */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('activity', () => {
  test('an owner’s invite and role change show on the Activity page, filterable by action and person; members do not see it', async ({ page, browser, roster }) => {
    test.slow(); // one journey over two browsers: about two minutes on a busy machine
    const owner = await roster.createUser({ name: 'Olivia Owner' });
    const member = await roster.createUser({ name: 'Mia Member' });
    const invitee = `${unique('invitee')}@example.com`;
    const org = await roster.createOrg({ ownerEmail: owner.email, name: unique('Acme') });
    const api = roster.api(owner.api_key);
    await api.post(`/v0/organizations/${org.organization_id}/members`, { user_id: member.user_id, role_id: 3 });

    // The owner invites someone from the organization page, then changes the member's role.
    await signIn(page, owner.api_key, `/o/${org.organization_id}/organization`);
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await page.getByRole('button', { name: 'Invite by e-mail' }).click();
    const inviteDialog = page.getByRole('dialog', { name: 'Invite by e-mail' });
    await inviteDialog.getByLabel('E-mail address').fill(invitee);
    await inviteDialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(inviteDialog.locator('pre[aria-label="Invitation link"]')).toBeVisible();
    await inviteDialog.getByRole('button', { name: 'Done' }).click();
    await api.patch(`/v0/organizations/${org.organization_id}/members/${member.user_id}`, { role_id: 4 });

    // The Activity page, from the navigation: newest first, in words.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Activity' }).click();
    await expect(page).toHaveURL(new RegExp(`/o/${org.organization_id}/activity$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Activity, newest first' });
    const rows = table.getByRole('row');
    // Header + role change, invite, member added, organization created.
    await expect(rows).toHaveCount(5);
    await expect(rows.nth(1)).toContainText('changed a role');
    await expect(rows.nth(1)).toContainText('Mia Member');
    await expect(rows.nth(1)).toContainText('Member → Viewer');
    await expect(rows.nth(2)).toContainText('sent an invite');
    await expect(rows.nth(2)).toContainText(invitee);
    await expect(rows.nth(2)).toContainText('Olivia Owner');
    await expect(rows.nth(3)).toContainText('added a member');
    await expect(rows.nth(4)).toContainText('created the organization');
    // The exact time on hover.
    await rows.nth(1).locator('time').hover();
    await expect(page.getByRole('tooltip')).toContainText(String(new Date().getFullYear()));
    await checkA11y(page);
    await snap(page, 'activity-organization');

    // Filter by action: only the invite; the filter is in the address.
    await choose(page, 'Action', 'sent an invite');
    await expect(page).toHaveURL(/action=invite\.sent/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(invitee);
    // And by person: the member made no invite.
    await choose(page, 'Person', 'Mia Member');
    await expect(page.getByText('Nothing matches these filters')).toBeVisible();
    await checkA11y(page);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(rows).toHaveCount(5);
    // A reload keeps a filter given in the address.
    await page.goto(`/o/${org.organization_id}/activity?action=member.role_changed`);
    await expect(page.getByRole('table', { name: 'Activity, newest first' }).getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('combobox', { name: 'Action' })).toHaveValue('changed a role');

    // The member (now a Viewer) has no Activity in the navigation, and the page says why.
    const context = await browser.newContext();
    const other = await context.newPage();
    await signIn(other, member.api_key, `/o/${org.organization_id}`);
    // Neither the navigation nor the home page's "Go to" links to it.
    await expect(other.getByRole('heading', { name: 'Go to' })).toBeVisible();
    await expect(other.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Projects' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Activity' })).toHaveCount(0);
    await other.goto(`/o/${org.organization_id}/activity`);
    await expect(other.getByText('Owners and Admins only')).toBeVisible();
    await context.close();

    // The personal workspace has its own log: a key and projects created there show, the organization's events do not.
    await api.post('/v0/keys', { name: 'Activity script' });
    for (let i = 1; i <= 25; i++) await api.post('/v0/project', { name: unique(`p${i}`) });
    await page.goto('/activity');
    const personal = page.getByRole('table', { name: 'Activity, newest first' });
    // A page holds 25 events: the oldest (the key) is on the next one.
    await expect(personal.getByRole('row')).toHaveCount(26);
    await expect(personal.getByText('created an API key')).toHaveCount(0);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(personal.getByRole('row')).toHaveCount(27);
    await expect(personal.getByRole('row').nth(26)).toContainText('created an API key');
    await expect(personal.getByRole('row').nth(26)).toContainText('Activity script');
    await expect(page.getByText('That is all: 26 events.')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Person' })).toHaveCount(0);
    await checkA11y(page);
    await snap(page, 'activity-personal');
  });
});
