import type { Page } from '@playwright/test';
import { checkA11y, expect, expectProblems, signIn, test, unique } from './fixtures.ts';

const shots = process.env.E2E_SCREENSHOTS;
/** Light and dark screenshots to look at (only when E2E_SCREENSHOTS names a folder). */
async function snap(page: Page, name: string) {
  if (!shots) return;
  await page.screenshot({ path: `${shots}/${name}-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'dark'));
  await page.screenshot({ path: `${shots}/${name}-dark.png`, fullPage: true });
  await page.evaluate(() => document.documentElement.setAttribute('data-mantine-color-scheme', 'light'));
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Fills the add/edit row dialog: existing column fields by label, new columns through "New column". */
async function fillRow(page: Page, values: Record<string, string>, newColumns: Record<string, string> = {}) {
  const dialog = page.getByRole('dialog');
  for (const [column, value] of Object.entries(values)) await dialog.getByRole('textbox', { name: column, exact: true }).fill(value);
  for (const [column, value] of Object.entries(newColumns)) {
    await dialog.getByLabel('New column').fill(column);
    await dialog.getByRole('button', { name: 'Add column' }).click();
    await dialog.getByRole('textbox', { name: column, exact: true }).fill(value);
  }
}

const historyItem = (page: Page, message: string) =>
  page.getByRole('list', { name: 'Commits, newest first' }).getByRole('button', { name: new RegExp(`^${message}, commit`) });

test.describe('projects, contexts and versions', () => {
  test('create a versioned project and context, add rows, commit twice, roll back and forward, see the graph branch', async ({ page, roster }) => {
    // A taken project name and a duplicate unique key are refused on purpose along the way.
    expectProblems(page, /^400 POST \/v0\/project$/, /^409 POST \/v0\/project\/[^/]+\/contexts\/[^/]+\/logs$/);
    test.slow(); // the whole versioning journey in one test: over two minutes on a busy machine
    const user = await roster.createUser({ name: 'Vera Versions' });
    await signIn(page, user.api_key, '/projects');
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    // The starter project every new user gets.
    await expect(page.getByRole('listitem', { name: 'Starter' })).toContainText('An example project');
    // The search keeps every key typed at full speed, filters, and lands in the URL.
    const search = page.getByLabel('Search projects');
    await search.pressSequentially('starte');
    await expect(search).toHaveValue('starte');
    await expect(page.getByText('1 of 1 projects match')).toBeVisible();
    await expect(page).toHaveURL(/[?&]q=starte/);
    await search.fill('');
    await checkA11y(page);

    // Create: the name is checked as it is typed; the duplicate 400 lands on the name.
    await page.getByRole('button', { name: 'Create project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a project' });
    await dialog.getByLabel('Name').fill('bad name!');
    await expect(dialog.getByText('Use letters, digits, "_", "-" and "/" only.')).toBeVisible();
    await dialog.getByLabel('Name').fill('Starter');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect(dialog.getByText('A logging project with this name already exists.')).toBeVisible();
    await checkA11y(page);
    const name = unique('exp').replace(/[^a-zA-Z0-9_-]/g, '-');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Description').fill('Runs of the nightly experiment');
    await expect(dialog.getByText('30 / 256 characters')).toBeVisible();
    await dialog.getByRole('radio', { name: 'Experiment' }).click();
    await expect(dialog.getByRole('switch', { name: 'Versioned' })).toBeChecked();
    await snap(page, 'create-project');
    await dialog.getByRole('button', { name: 'Create project' }).click();

    // The project page: empty, then a context with a typed unique key and a counter.
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No contexts yet' })).toBeVisible();
    await checkA11y(page);
    await page.getByRole('button', { name: 'Create context' }).first().click();
    const ctxDialog = page.getByRole('dialog', { name: 'Create a context' });
    await ctxDialog.getByLabel('Name').fill('runs/alpha');
    await expect(ctxDialog.getByRole('switch', { name: 'Versioned' })).toBeChecked();
    await ctxDialog.getByRole('button', { name: 'Add unique key' }).click();
    await ctxDialog.getByLabel('Unique key 1 column').fill('run');
    await ctxDialog.getByLabel('Unique key 1 type').selectOption('int');
    await ctxDialog.getByRole('button', { name: 'Add counter' }).click();
    await ctxDialog.getByLabel('Counter 1 column').fill('n');
    await checkA11y(page);
    await snap(page, 'create-context');
    await ctxDialog.getByRole('button', { name: 'Create context' }).click();

    // The context page: add rows; a unique-key clash is said on the key field.
    await expect(page.getByRole('heading', { level: 1, name: 'runs/alpha' })).toBeVisible();
    await expect(page.getByText('Unique: run')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No rows yet' })).toBeVisible();
    await checkA11y(page);
    await page.getByRole('button', { name: 'Add row' }).click();
    await fillRow(page, { run: '1' }, { status: 'ok' });
    await page.getByRole('dialog').getByRole('button', { name: 'Add row' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('button', { name: 'Add row' }).click();
    await fillRow(page, { run: '2', status: 'ok' });
    await page.getByRole('dialog').getByRole('button', { name: 'Add row' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('button', { name: 'Add row' }).click();
    await fillRow(page, { run: '1', status: 'again' });
    await page.getByRole('dialog').getByRole('button', { name: 'Add row' }).click();
    await expect(page.getByRole('dialog').getByRole('alert')).toContainText('A row with the same unique key (run) already exists.');
    await expect(page.getByRole('dialog').getByRole('textbox', { name: 'run' })).toHaveAttribute('aria-invalid', 'true');
    await checkA11y(page);
    await snap(page, 'row-clash');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    const table = page.getByRole('table', { name: 'Rows of runs/alpha' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(1)).toContainText('1');
    await expect(page.getByRole('status').filter({ hasText: '2 uncommitted changes' })).toBeVisible();

    // Commit twice, with a change between.
    await page.getByRole('button', { name: 'Commit', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Commit message').fill('first two runs');
    await page.getByRole('dialog').getByRole('button', { name: 'Commit' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'All changes committed' })).toBeVisible();
    await page
      .getByRole('button', { name: /^Edit row/ })
      .nth(1)
      .click();
    await fillRow(page, { status: 'failed' });
    await page.getByRole('dialog').getByRole('button', { name: 'Save row' }).click();
    await expect(table.getByRole('row').nth(2)).toContainText('failed');
    await expect(page.getByRole('status').filter({ hasText: '1 uncommitted change' })).toBeVisible();
    await page.getByRole('button', { name: 'Commit', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Commit message').fill('run 2 failed');
    await page.getByRole('dialog').getByRole('button', { name: 'Commit' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'All changes committed' })).toBeVisible();
    await snap(page, 'context-rows');

    // History: HEAD on the second commit; roll back to the first (the dialog says what changes).
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(historyItem(page, 'run 2 failed')).toHaveAccessibleName(/HEAD$/);
    await checkA11y(page);
    await historyItem(page, 'first two runs').click();
    await page.getByRole('button', { name: 'Roll back to this commit' }).click();
    const rollback = page.getByRole('dialog', { name: 'Roll back runs/alpha?' });
    await expect(rollback).toContainText('change 1 row');
    await expect(rollback).toContainText('Later commits are kept');
    await checkA11y(page);
    await snap(page, 'rollback-dialog');
    await rollback.getByRole('button', { name: 'Roll back' }).click();
    await expect(rollback).toBeHidden();
    await expect(page.getByText(/^Rolled back to [0-9a-f]{7}\.$/)).toBeVisible();
    await expect(historyItem(page, 'first two runs')).toHaveAccessibleName(/HEAD$/);
    await expect(historyItem(page, 'run 2 failed')).not.toHaveAccessibleName(/HEAD$/);
    await page.getByRole('tab', { name: 'Rows', exact: true }).click();
    await expect(table.getByRole('row').nth(2)).toContainText('ok');
    await expect(table).not.toContainText('failed');

    // Undo the rollback by rolling forward to the later commit, which was kept.
    await page.getByRole('tab', { name: 'History' }).click();
    await historyItem(page, 'run 2 failed').click();
    await page.getByRole('button', { name: 'Roll forward to this commit' }).click();
    await page.getByRole('dialog', { name: 'Roll forward runs/alpha?' }).getByRole('button', { name: 'Roll forward' }).click();
    await expect(historyItem(page, 'run 2 failed')).toHaveAccessibleName(/HEAD$/);
    await expect(page.getByText(/^Moved forward to [0-9a-f]{7}\.$/)).toBeVisible();
    await page.getByRole('tab', { name: 'Rows', exact: true }).click();
    await expect(table.getByRole('row').nth(2)).toContainText('failed');

    // Back to the first commit with uncommitted work (auto-saved), then a commit there starts a branch.
    await page.getByRole('button', { name: 'Add row' }).click();
    await fillRow(page, { run: '3', status: 'ok' });
    await page.getByRole('dialog').getByRole('button', { name: 'Add row' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('tab', { name: 'History' }).click();
    await historyItem(page, 'first two runs').click();
    await page.getByRole('button', { name: 'Roll back to this commit' }).click();
    const second = page.getByRole('dialog', { name: 'Roll back runs/alpha?' });
    await expect(second).toContainText('Your 1 uncommitted change will first be saved automatically as a commit');
    await expect(second).toContainText('remove 1 row');
    await second.getByRole('button', { name: 'Roll back' }).click();
    await expect(historyItem(page, 'Auto-saved before rollback to [0-9a-f]+')).toBeVisible();
    await page.getByRole('tab', { name: 'Rows', exact: true }).click();
    await page.getByRole('button', { name: 'Add row' }).click();
    await fillRow(page, { run: '4', status: 'branch' });
    await page.getByRole('dialog').getByRole('button', { name: 'Add row' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByRole('button', { name: 'Commit', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Commit message').fill('a branch');
    await page.getByRole('dialog').getByRole('button', { name: 'Commit' }).click();
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(historyItem(page, 'a branch')).toHaveAccessibleName(/HEAD$/);
    await historyItem(page, 'first two runs').click();
    await expect(page.getByRole('button', { name: /^first two runs/ }).locator('..')).toContainText('2 branches');
    await page.getByRole('tab', { name: 'Changes in this commit' }).click();
    await expect(page.getByText('First commit: 2 rows added.')).toBeVisible();
    await checkA11y(page);
    await snap(page, 'history');

    // The project page lists the context in its folder; the prefix filter is in the URL.
    await page.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('button', { name: 'runs/ 1 context' })).toHaveAttribute('aria-expanded', 'true');
    await page.getByText('Starts with').click();
    await page.getByLabel('Filter by name prefix').fill('runs/a');
    await expect(page).toHaveURL(/prefix=runs%2Fa/);
    await expect(page.getByRole('link', { name: 'runs/alpha' })).toBeVisible();
    await page.getByLabel('Filter by name prefix').fill('zzz');
    await expect(page.getByText('No context name starts with “zzz”.')).toBeVisible();
    await page.getByLabel('Filter by name prefix').fill('');
    await checkA11y(page);
    await snap(page, 'project');

    // Delete the project with its name typed.
    await page.getByRole('link', { name: 'Projects', exact: true }).first().click();
    await page.getByRole('button', { name: `Delete project ${name}` }).click();
    const del = page.getByRole('dialog', { name: `Delete project ${name}?` });
    await expect(del.getByRole('button', { name: 'Delete project' })).toBeDisabled();
    await del.getByLabel(`Type ${name} to confirm`).fill(name);
    await del.getByRole('button', { name: 'Delete project' }).click();
    await expect(page.getByRole('listitem', { name })).toHaveCount(0);
    await snap(page, 'projects');
  });

  test('rows show their columns in one order on the Rows tab and at a commit: declared fields, then first appearance', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Cole Columns' });
    const api = roster.api(user.api_key);
    await api.post('/v0/project', { name: 'cols', is_versioned: true });
    await api.post('/v0/project/cols/contexts', { name: 'runs', is_versioned: true, unique_keys: { run: 'str' }, auto_counting: { step: null } });
    await api.post('/v0/project/cols/contexts/runs/logs', {
      entries: [
        { note: 'first', run: 'a', score: 1 },
        { extra: true, run: 'b' },
      ],
    });
    await api.post('/v0/project/cols/contexts/runs/commit', { commit_message: 'two runs' });
    await signIn(page, user.api_key, '/projects/cols/contexts/runs');
    const headers = (table: ReturnType<Page['getByRole']>) => table.getByRole('columnheader').allInnerTexts();
    const rowsTable = page.getByRole('table', { name: 'Rows of runs' });
    await expect(rowsTable.getByRole('cell', { name: 'first' })).toBeVisible();
    const onRowsTab = await headers(rowsTable);
    expect(onRowsTab.filter((h) => ['run', 'step', 'note', 'score', 'extra'].includes(h))).toEqual(['run', 'step', 'note', 'score', 'extra']);
    await page.getByRole('tab', { name: 'History' }).click();
    await historyItem(page, 'two runs').click();
    const atCommit = page.getByRole('table', { name: /^Rows at commit/ });
    await expect(atCommit.getByRole('cell', { name: 'first' })).toBeVisible();
    expect(await headers(atCommit)).toEqual(onRowsTab.filter((h) => h !== 'Actions' && h !== ''));
  });

  test('the context tree renders only what is in view, folds folders, and filters by prefix', async ({ page, roster }) => {
    // An address of a project that does not exist: the page says so (the API's 404).
    expectProblems(page, /^404 GET \/v0\/project\/no-such-project(\/contexts)?$/);
    const user = await roster.createUser({ name: 'Mia Many' });
    const api = roster.api(user.api_key);
    await api.post('/v0/project', { name: 'many' });
    const names = Array.from({ length: 400 }, (_, i) => `batch-${String(i % 8)}/run-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 20) await Promise.all(names.slice(i, i + 20).map((name) => api.post('/v0/project/many/contexts', { name })));
    await signIn(page, user.api_key, '/projects/many');
    const list = page.getByRole('list', { name: 'Contexts of many' });
    await expect(page.getByText('400 contexts', { exact: true })).toBeVisible();
    // 408 lines (8 folders + 400 contexts), but only a window of them is in the page.
    expect(await list.getByRole('listitem').count()).toBeLessThan(60);
    await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', '408');
    await checkA11y(page);
    await page.getByRole('button', { name: 'batch-0/ 50 contexts' }).press('Enter');
    await expect(page.getByRole('button', { name: 'batch-0/ 50 contexts' })).toHaveAttribute('aria-expanded', 'false');
    // Nesting shows: a context sits indented under its folder's name.
    const folderName = await page.getByRole('button', { name: 'batch-1/ 50 contexts' }).getByText('batch-1/').boundingBox();
    const inFolder = await page.getByRole('link', { name: 'batch-1/run-001' }).boundingBox();
    expect(inFolder!.x).toBeGreaterThan(folderName!.x + 10);
    await list.evaluate((ul) => ul.parentElement!.scrollTo(0, ul.parentElement!.scrollHeight));
    await expect(page.getByRole('link', { name: 'batch-7/run-399' })).toBeVisible();

    // Names are searched anywhere, ignoring case, by default; the spec's literal prefix is the other mode.
    await page.getByLabel('Search context names').fill('RUN-39');
    await expect(page).toHaveURL(/search=RUN-39/);
    await expect(page.getByText('10 contexts containing “RUN-39”')).toBeVisible();
    // The match mode is a radio group: Tab reaches the chosen one, an arrow key chooses the other.
    const modes = page.getByRole('radiogroup', { name: 'Match names' });
    await expect(modes.getByRole('radio', { name: 'Contains' })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(modes.getByRole('radio', { name: 'Contains' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(modes.getByRole('radio', { name: 'Starts with' })).toBeChecked();
    await expect(page.getByText('0 contexts starting with “RUN-39”')).toBeVisible();
    await expect(page).toHaveURL(/prefix=RUN-39/);
    await page.getByLabel('Filter by name prefix').fill('batch-3/run-01');
    await expect(page).toHaveURL(/prefix=batch-3%2Frun-01/);
    await expect(page.getByText('2 contexts starting with “batch-3/run-01”')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Filter by name prefix')).toHaveValue('batch-3/run-01');
    await expect(page.getByRole('link', { name: 'batch-3/run-011' })).toBeVisible();
    await snap(page, 'many');

    // A project that is not in this workspace, and a context that is not in the project.
    await page.goto('/projects/no-such-project');
    await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible();
    await page.goto('/projects/many/contexts/nope');
    await expect(page.getByRole('heading', { name: 'Context not found' })).toBeVisible();
    await checkA11y(page);
  });

  test('an organization Viewer sees the organization’s projects read-only', async ({ page, roster }) => {
    const owner = await roster.createUser({ name: 'Otto Owner' });
    const org = await roster.createOrg({ ownerEmail: owner.email });
    const viewer = await roster.createUser({ name: 'Vic Viewer' });
    const ownerApi = roster.api(org.api_key);
    await ownerApi.post('/v0/project', { name: 'team-metrics', is_versioned: true, description: 'Shared numbers' });
    await ownerApi.post('/v0/project/team-metrics/contexts', { name: 'daily', is_versioned: true });
    await ownerApi.post('/v0/project/team-metrics/contexts/daily/logs', { entries: [{ day: '2026-01-01', visits: 10 }] });
    await ownerApi.post('/v0/project/team-metrics/contexts/daily/commit', { commit_message: 'day one' });
    const added = await ownerApi.post<{ api_key: string }>(`/v0/organizations/${org.organization_id}/members`, { user_id: viewer.user_id, role_id: 4 });

    await signIn(page, added.api_key, '/projects');
    await expect(page.getByRole('listitem', { name: 'team-metrics' })).toContainText('Shared numbers');
    await expect(page.getByRole('listitem', { name: 'Starter' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create project' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Delete project team-metrics' })).toBeDisabled();
    await page.getByRole('link', { name: 'team-metrics' }).click();
    await expect(page.getByRole('button', { name: 'Create context' })).toBeDisabled();
    await page.getByRole('link', { name: 'daily' }).click();
    await expect(page.getByText('Read-only')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add row' })).toBeDisabled();
    await expect(page.getByRole('button', { name: /^Edit row/ })).toBeDisabled();
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(historyItem(page, 'day one')).toHaveAccessibleName(/HEAD$/);
    await checkA11y(page);
  });
});
