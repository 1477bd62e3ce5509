import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modulesFor, PAGES, SHELL, SIGN_IN_LINK_PAGE, SIGN_IN_PAGE } from './pages.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('page modules', () => {
  it('name files that exist and export the named component', () => {
    for (const page of [SIGN_IN_PAGE, SIGN_IN_LINK_PAGE, SHELL, ...Object.values(PAGES)]) {
      const source = fs.readFileSync(path.join(root, page.file), 'utf8');
      expect(source, page.file).toMatch(new RegExp(`export function ${page.component}\\b`));
    }
  });

  it('match addresses as the router does', () => {
    const page = (url: string) => modulesFor(url).map((m) => m.file);
    expect(page('/')).toEqual([SHELL.file, PAGES[''].file]);
    expect(page('/sign-in')).toEqual([SIGN_IN_PAGE.file]);
    expect(page('/sign-in/link')).toEqual([SIGN_IN_LINK_PAGE.file]);
    expect(page('/projects/demo/')).toEqual([SHELL.file, PAGES['projects/:project'].file]);
    expect(page('/projects/demo/contexts/runs%2F1')).toEqual([SHELL.file, PAGES['projects/:project/contexts/:context'].file]);
    expect(page('/assistants/voices')).toEqual([SHELL.file, PAGES['assistants/voices'].file]);
    expect(page('/assistants/12')).toEqual([SHELL.file, PAGES['assistants/:id'].file]);
    expect(page('/projects/demo/history')).toEqual([SHELL.file]);
  });
});
