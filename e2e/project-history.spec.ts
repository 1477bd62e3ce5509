import type { Page } from '@playwright/test';
import { checkA11y, expect, signIn, test, unique } from './fixtures.ts';

const shots = process.env.E2E_SCREENSHOTS;
/** A screenshot to look at (only when E2E_SCREENSHOTS names a folder). */
async function snap(page: Page, name: string) {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

test.describe('project history', () => {
  test('commit a whole project from its page, then restore an earlier project commit: both contexts go back at once', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Paula Projects' });
    const api = roster.api(user.api_key);
    const name = unique('ph').replace(/[^a-zA-Z0-9_-]/g, '-');
    const base = `/v0/project/${name}`;
    await api.post('/v0/project', { name, is_versioned: true });
    for (const context of ['a', 'b']) await api.post(`${base}/contexts`, { name: context });
    await api.post(`${base}/contexts`, { name: 'notes', is_versioned: false });
    await api.post(`${base}/contexts/a/logs`, { entries: [{ v: 'a1' }] });
    await api.post(`${base}/contexts/b/logs`, { entries: [{ v: 'b1' }] });
    await api.post(`${base}/commit`, { commit_message: 'baseline' });
    await api.post(`${base}/contexts/a/logs`, { entries: [{ v: 'a2' }] });
    await api.post(`${base}/contexts/b/logs`, { entries: [{ v: 'b2' }] });

    await signIn(page, user.api_key, `/projects/${name}`);
    const history = page.getByRole('region', { name: 'Project history' });
    await expect(history.getByRole('row', { name: /baseline/ })).toBeVisible();
    await expect(history).toContainText('2 uncommitted changes across the contexts');
    await checkA11y(page);

    // Commit the project: one new version holding both contexts' changes.
    await history.getByRole('button', { name: 'Commit project' }).click();
    const commit = page.getByRole('dialog', { name: `Commit project ${name}` });
    await expect(commit).toContainText('2 contexts with changes get a new commit');
    await commit.getByLabel('Commit message').fill('second');
    await commit.getByRole('button', { name: 'Commit project' }).click();
    await expect(commit).toBeHidden();
    const second = history.getByRole('row', { name: /second/ });
    await expect(second.getByText('HEAD')).toBeVisible();
    await expect(history).not.toContainText('uncommitted change');

    // Restore the baseline: the dialog names the contexts that change; the unversioned one is not among them.
    await history
      .getByRole('row', { name: /baseline/ })
      .getByRole('button', { name: /^Restore/ })
      .click();
    const restore = page.getByRole('dialog', { name: `Restore project ${name}?` });
    await expect(restore).toContainText('2 contexts will change');
    await expect(restore.getByRole('listitem')).toHaveText(['a', 'b']);
    await expect(restore).not.toContainText('notes');
    await checkA11y(page);
    await snap(page, 'project-history-restore');
    await restore.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(restore).toBeHidden();
    await expect(page.getByText(/Restored .* \(a, b\)\./)).toBeVisible();
    await expect(history.getByRole('row', { name: /baseline/ }).getByText('HEAD')).toBeVisible();
    await snap(page, 'project-history');

    const rows = async (context: string) => (await api.get<{ logs: { entries: { v: string } }[] }>(`${base}/contexts/${context}/logs`)).logs.map((r) => r.entries.v);
    expect(await rows('a')).toEqual(['a1']);
    expect(await rows('b')).toEqual(['b1']);

    // A project without versioned contexts has nothing to commit: the button says why, the list says what it is for.
    const plain = `${name}-plain`;
    await api.post('/v0/project', { name: plain });
    await api.post(`/v0/project/${plain}/contexts`, { name: 'notes' });
    await page.goto(`/projects/${plain}`);
    const empty = page.getByRole('region', { name: 'Project history' });
    await expect(empty.getByRole('heading', { name: 'No project commits yet' })).toBeVisible();
    await expect(empty).toContainText('This project has none yet');
    await expect(empty.getByRole('button', { name: 'Commit project' })).toBeDisabled();
    await checkA11y(page);
    await snap(page, 'project-history-empty');
  });
});
