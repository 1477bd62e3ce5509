import type { ResponseOf } from '../src/shared/operation.ts';
import type { createAssistant, getAssistant, updateAssistantConfig } from '../src/shared/operations/assistants.ts';
import { checkA11y, expect, expectProblems, signIn, test, unique } from './fixtures.ts';

test.describe('account', () => {
  test('classify the account as a business, with the business form appearing only when needed', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Bea Business' });
    await signIn(page, user.api_key, '/account');
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    const section = page.getByRole('region', { name: 'Business classification' });
    await expect(section.getByLabel('Business name')).toHaveCount(0);
    await section.getByText('Business', { exact: true }).click();
    await section.getByRole('button', { name: 'Save classification' }).click();
    await expect(section.getByLabel('Business name')).toHaveAttribute('aria-invalid', 'true');
    await checkA11y(page);

    await section.getByLabel('Business name').fill('Acme Robotics');
    await section.getByLabel('Business type').fill('LLC');
    await section.getByLabel('Address line 1').fill('1 Main St');
    await section.getByLabel('City').fill('Springfield');
    await section.getByLabel('Country').fill('Germ');
    await page.getByRole('option', { name: 'Germany (DE)' }).click();
    await section.getByRole('button', { name: 'Save classification' }).click();
    await expect(page.getByText('Account type updated to business')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Profile' }).getByText('business', { exact: true })).toBeVisible();

    // Saved details are read back after a reload, not shown as empty fields.
    await page.reload();
    const reloaded = page.getByRole('region', { name: 'Business classification' });
    await expect(reloaded.getByLabel('Business name')).toHaveValue('Acme Robotics');
    await expect(reloaded.getByLabel('Business type')).toHaveValue('LLC');
    await expect(reloaded.getByLabel('City')).toHaveValue('Springfield');
    await expect(reloaded.getByLabel('Country')).toHaveValue('Germany (DE)');
  });

  test('a spending limit caps the one assistant above it and says so, with a link to the assistants', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Sam Spender', credits: 100 });
    const api = roster.api(user.api_key);
    // A cap is configuration (operation 2), set after hiring.
    const hire = async (first_name: string, surname: string, cap: number) => {
      const { agent_id } = (await api.post<ResponseOf<typeof createAssistant>>('/v0/assistant', { first_name, surname })).info;
      return (await api.patch<ResponseOf<typeof updateAssistantConfig>>(`/v0/assistant/${agent_id}/config`, { monthly_spending_cap: cap })).info;
    };
    const high = await hire('Hugo', 'High', 120);
    const low = await hire('Lena', 'Low', 20);
    expect([high.monthly_spending_cap, low.monthly_spending_cap]).toEqual([120, 20]);
    await signIn(page, user.api_key, '/account');
    const section = page.getByRole('region', { name: 'Spending limit' });
    await section.locator('label', { hasText: /^No limit$/ }).click(); // on by default: a new account has no limit
    await section.getByLabel('Monthly spending limit (USD)').fill('50');
    await section.getByRole('button', { name: 'Save limit' }).click();
    const saved = section.getByRole('status');
    await expect(saved).toContainText('1 assistant was capped to the new limit.');
    await expect(section.getByText('$50.00 per month')).toBeVisible();
    await checkA11y(page);
    expect((await api.get<ResponseOf<typeof getAssistant>>(`/v0/assistant/${high.agent_id}`)).info.monthly_spending_cap).toBe(50);
    expect((await api.get<ResponseOf<typeof getAssistant>>(`/v0/assistant/${low.agent_id}`)).info.monthly_spending_cap).toBe(20);
    await saved.getByRole('link', { name: 'See your assistants' }).click();
    await expect(page).toHaveURL(/\/assistants$/);
    // Each assistant's cap is in the list, and the capped one is marked.
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await expect(row('Hugo High')).toContainText('$50.00 / month');
    await expect(row('Hugo High')).toContainText('At your limit');
    await expect(row('Lena Low')).toContainText('$20.00 / month');
    await expect(row('Lena Low')).not.toContainText('At your limit');
    await checkA11y(page);
  });

  test('deletion is blocked by an owned organization, with the actions that resolve it; without blockers it deletes', async ({ page, roster }) => {
    const owner = await roster.createUser({ name: 'Olga Owner' });
    const org = await roster.createOrg({ ownerEmail: owner.email, name: unique('Owned Org') });
    await signIn(page, owner.api_key, '/account');
    const danger = page.getByRole('region', { name: 'Danger zone' });
    await expect(danger.getByText('Your account cannot be deleted yet')).toBeVisible();
    await expect(danger.getByText(org.name, { exact: false }).first()).toBeVisible();
    await expect(danger.getByRole('button', { name: `Transfer ownership of ${org.name}` })).toBeVisible();
    await expect(danger.getByRole('button', { name: `Delete ${org.name}` })).toBeVisible();
    await expect(danger.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
    await checkA11y(page);

    const leaver = await roster.createUser({ name: 'Leo Leaver' });
    await signIn(page, leaver.api_key, '/account');
    await page.getByRole('region', { name: 'Danger zone' }).getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    const confirm = dialog.getByRole('button', { name: 'Delete my account permanently' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Your e-mail address').fill(leaver.email);
    // The account is gone: what was on screen is asked for once more and refused before the sign-in page shows.
    expectProblems(page, /^401 GET \/v0\//);
    await confirm.click();
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByText('Your account was deleted.').first()).toBeVisible();
    const res = await page.request.get('/v0/user/basic-info', { headers: { authorization: `Bearer ${leaver.api_key}` } });
    expect(res.status()).toBe(401);
  });

  test('add and delete a custom endpoint; deleting one already gone refreshes with a notice', async ({ page, roster }) => {
    // Deleting the endpoint removed meanwhile is answered 404: the page says so and refreshes.
    expectProblems(page, /^404 DELETE \/v0\/custom_endpoint\?name=gone%40custom$/);
    const user = await roster.createUser({ name: 'Cora Custom' });
    await signIn(page, user.api_key, '/custom-endpoints');
    await expect(page.getByRole('heading', { name: 'No custom endpoints yet' })).toBeVisible();
    await checkA11y(page);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a custom endpoint' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('my-model@custom');
    await dialog.getByLabel('URL').fill('ftp://nope');
    await dialog.getByLabel('Model argument').fill('gpt-x');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByText('Must be an http or https URL.')).toBeVisible();
    await checkA11y(page);
    await dialog.getByLabel('URL').fill('https://llm.example.com/v1');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog).toBeHidden();
    const row = page.getByRole('row', { name: /my-model@custom/ });
    await expect(row).toContainText('https://llm.example.com/v1');

    await roster.api(user.api_key).post('/v0/custom_endpoint', { name: 'gone@custom', url: 'https://x.example.com', model_arg: 'm' });
    await page.reload();
    await expect(page.getByRole('row', { name: /gone@custom/ })).toBeVisible();
    await roster.api(user.api_key).delete('/v0/custom_endpoint?name=gone%40custom');
    await page.getByRole('button', { name: 'Delete gone@custom' }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(page.getByText('Custom endpoint gone@custom was already deleted; the list is refreshed.')).toBeVisible();
    await expect(page.getByRole('row', { name: /gone@custom/ })).toHaveCount(0);

    await page.getByRole('button', { name: 'Delete my-model@custom' }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(page.getByRole('heading', { name: 'No custom endpoints yet' })).toBeVisible();
  });

  test('create a user for a colleague and see their key once (administrators only)', async ({ page, roster }) => {
    const member = await roster.createUser({ name: 'Nat Nonadmin' });
    await signIn(page, member.api_key, '/account');
    await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create a user' })).toHaveCount(0);
    // The old address leads to the form in the Admin area, which tells a non-administrator why not.
    await page.goto('/account/create-user');
    await expect(page).toHaveURL(/\/admin\/users\/new$/);
    await expect(page.getByRole('alert').filter({ hasText: 'You are not allowed here' })).toContainText(
      'Only the administrators of this Roster instance create accounts for other people',
    );

    const admin = await roster.createUser({ name: 'Ada Admin' });
    await roster.grantAdmin(admin.email);
    await signIn(page, admin.api_key, '/account/create-user');
    const email = `${unique('colleague')}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('First name').fill('Colin');
    await page.getByRole('button', { name: 'Create user' }).click();
    const key = page.getByRole('alert', { name: `API key for ${email}` }).getByText(/^rk_/);
    await expect(key).toBeVisible();
    const value = (await key.textContent())!.trim();
    expect(value).toMatch(/^rk_/);
    await checkA11y(page);
    const res = await page.request.get('/v0/user/basic-info', { headers: { authorization: `Bearer ${value}` } });
    expect((await res.json()).email).toBe(email);
  });
});
