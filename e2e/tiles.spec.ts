import fs from 'node:fs';
import type { ResponseOf } from '../src/shared/operation.ts';
import type { listInterfaces } from '../src/shared/operations/tiles.ts';
import { checkA11y, expect, signIn, test } from './fixtures.ts';

test.describe('dashboards and tile templates', () => {
  test('export a tile to a file, import it into a new tab under a new name, resolve a name clash', async ({ page, roster }, testInfo) => {
    const user = await roster.createUser({ name: 'Tile Tester' });
    const api = roster.api(user.api_key);
    // Every new user has the starter project: one interface, one tab, one table tile over Tasks.
    const [starter] = (await api.get<ResponseOf<typeof listInterfaces>>('/v0/project/Starter/interfaces')).info;
    const tab = starter.tabs[0];
    await api.post(`/v0/tab/${tab.id}/tiles`, {
      name: 'Priorities',
      type: 'Plot',
      context: 'Tasks',
      position: { x: 0, y: 4, width: 6, height: 4 },
      plot_tile: { plot_type: 'bar', x_axis: 'title', y_axis: 'priority' },
    });

    await signIn(page, user.api_key, '/dashboards');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboards' })).toBeVisible();
    const tasksTile = page.getByRole('region', { name: 'Tile Tasks' });
    await expect(tasksTile.getByRole('cell', { name: 'Write the first report' })).toBeVisible();
    await expect(tasksTile.getByRole('columnheader')).toHaveText(['title', 'status', 'priority']);
    // The plot is drawn from the same rows (its code loads on demand).
    await expect(page.getByRole('img', { name: /bar chart of priority by title over 3 rows of Tasks/ })).toBeVisible();
    await checkA11y(page);

    // Export from the tile's menu: preview, then download <name>.tile.json.
    await tasksTile.getByRole('button', { name: 'Actions for tile Tasks' }).click();
    await page.getByRole('menuitem', { name: 'Export template' }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export Tasks as a template' });
    await exportDialog.getByLabel('Description').fill('Everything still to do');
    await exportDialog.getByRole('button', { name: 'Preview export' }).click();
    await expect(exportDialog.getByText('"template_version": "1.0"')).toBeVisible();
    await checkA11y(page);
    const downloadPromise = page.waitForEvent('download');
    await exportDialog.getByRole('button', { name: 'Download Tasks.tile.json' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe('Tasks.tile.json');
    const file = testInfo.outputPath('Tasks.tile.json');
    await download.saveAs(file);
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(exported.template).toMatchObject({ name: 'Tasks', context: 'Tasks', description: 'Everything still to do' });
    await page.keyboard.press('Escape');

    // Import the file into a new tab, under a new name.
    await page.getByRole('button', { name: 'Import template' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import a tile template' });
    await importDialog.getByLabel('Template file', { exact: true }).setInputFiles(file);
    await expect(importDialog.getByText('Loaded Tasks.tile.json.')).toBeVisible();
    await expect(importDialog.getByText(/Table tile “Tasks” of context Tasks/)).toBeVisible();
    await importDialog.getByRole('combobox', { name: 'Tab', exact: true }).click();
    await page.getByRole('option', { name: 'New tab…' }).click();
    await importDialog.getByLabel('New tab name').fill('Copies');
    await importDialog.getByLabel('New tile name').fill('Tasks copy');
    await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
    const imported = importDialog.getByRole('status');
    await expect(imported).toContainText('The tile was created and the template was valid.');
    await expect(importDialog.getByRole('list', { name: 'Import warnings' })).toContainText('Tab Copies did not exist in interface Overview and was created.');
    await checkA11y(page);
    await importDialog.getByRole('button', { name: 'Show the imported tile' }).click();
    await expect(page.getByRole('tab', { name: 'Copies', selected: true })).toBeVisible();
    const copy = page.getByRole('region', { name: 'Tile Tasks copy' });
    await expect(copy.getByRole('cell', { name: 'Review the dashboard' })).toBeVisible();

    // The same import again clashes: rename in place.
    await page.getByRole('button', { name: 'Import template' }).click();
    await importDialog.getByLabel('Template JSON').fill(JSON.stringify(exported));
    await importDialog.getByRole('combobox', { name: 'Tab', exact: true }).click();
    await page.getByRole('option', { name: 'Copies' }).click();
    await importDialog.getByLabel('New tile name').fill('Tasks copy');
    await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
    const clash = importDialog.getByRole('alert').filter({ hasText: 'Name clash' });
    await expect(clash).toContainText('Tile with name Tasks copy already exists. Use overwrite_existing=true to replace it.');
    await checkA11y(page);
    await clash.getByRole('button', { name: 'Rename and import' }).click();
    await expect(importDialog.getByRole('status')).toContainText('The tile was created');
    await importDialog.getByRole('button', { name: 'Show the imported tile' }).click();
    await expect(page.getByRole('region', { name: 'Tile Tasks copy (2)' }).getByRole('cell', { name: 'Invite a teammate' })).toBeVisible();

    // And once more, resolved by overwriting.
    await page.getByRole('button', { name: 'Import template' }).click();
    await importDialog.getByLabel('Template JSON').fill(JSON.stringify(exported));
    await importDialog.getByRole('combobox', { name: 'Tab', exact: true }).click();
    await page.getByRole('option', { name: 'Copies' }).click();
    await importDialog.getByLabel('New tile name').fill('Tasks copy');
    await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
    await importDialog
      .getByRole('alert')
      .filter({ hasText: 'Name clash' })
      .getByRole('button', { name: /^Overwrite/ })
      .click();
    await expect(importDialog.getByRole('list', { name: 'Import warnings' })).toContainText('Replaced the existing tile Tasks copy');
    await page.keyboard.press('Escape');
    const copies = (await api.get<ResponseOf<typeof listInterfaces>>('/v0/project/Starter/interfaces')).info[0].tabs.find((t) => t.name === 'Copies');
    expect(copies?.tiles.map((t) => t.name).sort()).toEqual(['Tasks copy', 'Tasks copy (2)']);
  });

  test('the browser checks a pasted template before sending it, and the server reports what does not fit', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Template Checker' });
    await signIn(page, user.api_key, '/dashboards');
    await page.getByRole('button', { name: 'Import template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a tile template' });
    await dialog.getByLabel('Template JSON').fill('{"position": "top left"}');
    await expect(dialog.getByRole('alert').filter({ hasText: 'Checked in your browser' })).toContainText('name: Field required');
    await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

    const template = {
      name: 'Ghostly',
      type: 'Table',
      position: { x: 0, y: 0, width: 4, height: 3 },
      context: 'Tasks',
      table_tile: { table_type: 'default', column_order: ['title', 'ghost'] },
    };
    await dialog.getByLabel('Template JSON').fill(JSON.stringify(template));
    await dialog.getByRole('switch', { name: 'Auto sanitize' }).click();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const failure = dialog.getByRole('alert').filter({ hasText: 'The template does not fit this project' });
    await expect(failure.getByRole('table', { name: 'Validation issues' })).toContainText("Column 'ghost' does not exist in context 'Tasks'.");
    await checkA11y(page);

    await dialog.getByRole('switch', { name: 'Auto sanitize' }).click();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog.getByRole('list', { name: 'Import warnings' })).toContainText("Dropped unknown column 'ghost' from column_order.");
  });

  test('a row edited on its context page shows in the tile over it, without a reload', async ({ page, roster }) => {
    const user = await roster.createUser({ name: 'Row Refresher' });
    await signIn(page, user.api_key, '/dashboards');
    const tile = page.getByRole('region', { name: 'Tile Tasks' });
    const tileRow = tile.getByRole('row').filter({ hasText: 'Write the first report' });
    await expect(tileRow).toContainText('open');
    // A reload would fetch everything afresh; the point is that the tile's cached rows are refreshed.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    const nav = page.getByRole('navigation');
    await nav.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('link', { name: 'Starter', exact: true }).click();
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const contextRow = page.getByRole('row').filter({ hasText: 'Write the first report' });
    await contextRow.getByRole('button', { name: /^Edit row/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'status', exact: true }).fill('blocked');
    await dialog.getByRole('button', { name: 'Save row' }).click();
    await expect(contextRow).toContainText('blocked');

    await nav.getByRole('link', { name: 'Dashboards' }).click();
    await expect(tileRow).toContainText('blocked');
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });
});
