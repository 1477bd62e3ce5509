import { checkA11y, expect, expectProblems, signIn, test, unique } from './fixtures.ts';

// Ownership (issue 19): an owner hands their organization over and can then delete their account; an
// owner funds and deletes an organization from its settings.

test.describe('ownership', () => {
  test('transfer ownership from the account’s danger zone, then delete the account', async ({ page, roster }) => {
    const owner = await roster.createUser({ name: 'Olga Owner' });
    const heir = await roster.createUser({ name: 'Hana Heir' });
    const org = await roster.createOrg({ ownerEmail: owner.email, name: unique('Handed Org') });
    await roster.api(org.api_key).post(`/v0/organizations/${org.organization_id}/members`, { user_id: heir.user_id, role_id: 3 });

    await signIn(page, owner.api_key, '/account');
    const danger = page.getByRole('region', { name: 'Danger zone' });
    await expect(danger.getByText('Your account cannot be deleted yet')).toBeVisible();
    await danger.getByRole('button', { name: `Transfer ownership of ${org.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Transfer ownership of ${org.name}` });
    const submit = dialog.getByRole('button', { name: 'Transfer ownership' });
    await expect(submit).toBeDisabled();
    await dialog.getByRole('combobox', { name: 'New owner' }).click();
    await page.getByRole('option', { name: /Hana Heir/ }).click();
    // The wrong name keeps the button off; the right one (typed, not pasted from the page) enables it.
    await dialog.getByRole('textbox', { name: 'Organization name' }).fill('not the name');
    await expect(submit).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Organization name' }).fill(org.name);
    await checkA11y(page);
    await submit.click();
    await expect(page.getByText('Ownership transferred. You are now an Admin of the organization.')).toBeVisible();
    await expect(dialog).toBeHidden();

    // The pre-flight no longer blocks: delete the account.
    await expect(danger.getByText('Your account cannot be deleted yet')).toBeHidden();
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete your account?' });
    await confirm.getByLabel('Your e-mail address').fill(owner.email);
    // The account is gone: what was on screen is asked for once more and refused before the sign-in page shows.
    expectProblems(page, /^401 GET \/v0\//);
    await confirm.getByRole('button', { name: 'Delete my account permanently' }).click();
    await expect(page).toHaveURL(/\/sign-in/);

    // The organization lives on with its new owner.
    const members = await roster.api(heir.api_key).get<{ user_id: string; role_name: string }[]>(`/v0/organizations/${org.organization_id}/members`);
    expect(members).toEqual([expect.objectContaining({ user_id: heir.user_id, role_name: 'Owner' })]);
  });

  test('fund an organization, then delete it after reading what goes', async ({ page, roster }) => {
    const owner = await roster.createUser({ name: 'Dora Deleter' });
    const member = await roster.createUser({ name: 'Max Member' });
    const org = await roster.createOrg({ ownerEmail: owner.email, name: unique('Doomed Org') });
    await roster.api(org.api_key).post(`/v0/organizations/${org.organization_id}/members`, { user_id: member.user_id, role_id: 3 });
    await roster.api(org.api_key).post('/v0/project', { name: 'doomed-project' });

    await signIn(page, owner.api_key, '/organization');
    await page.getByRole('button', { name: `Settings of ${org.name}` }).click();
    const settings = page.getByRole('dialog', { name: `${org.name} settings` });

    // Move credits: more than the balance is refused with the reason, then a fitting amount moves.
    expectProblems(page, /^402 POST \/v0\/organizations\/\d+\/credits$/);
    await settings.getByRole('textbox', { name: 'Credits to move' }).fill('5000');
    await settings.getByRole('button', { name: 'Move credits' }).click();
    await expect(settings.getByRole('alert')).toContainText('you cannot move 5000');
    await settings.getByRole('textbox', { name: 'Credits to move' }).fill('20');
    await settings.getByRole('button', { name: 'Move credits' }).click();
    await expect(page.getByText(/Moved 20 credits\. The organization has 20; your personal balance is 30\./)).toBeVisible();
    await checkA11y(page);

    await settings.getByRole('button', { name: 'Delete organization' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${org.name}?` });
    const list = dialog.getByRole('list');
    await expect(list).toContainText('2 memberships');
    await expect(list).toContainText('1 project with 0 contexts, 0 rows and 0 commits');
    await expect(list).toContainText('20 credits (they are not refunded)');
    const submit = dialog.getByRole('button', { name: 'Delete this organization permanently' });
    await expect(submit).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Organization name' }).fill(org.name);
    await submit.click();
    await expect(page.getByText(`Organization ${org.name} deleted.`)).toBeVisible();
    await expect(page.getByText('You are in your personal workspace')).toBeVisible();

    const gone = await page.request.get('/v0/user/basic-info', { headers: { authorization: `Bearer ${org.api_key}` } });
    expect(gone.status()).toBe(401);
    expect((await roster.api(member.api_key).get<{ organizations: unknown[] }>('/v0/organizations')).organizations).toEqual([]);
  });
});
