import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOIN_PAGE, modulesFor, PAGES, samePageIn, SHELL, SIGN_IN_LINK_PAGE, SIGN_IN_PAGE, splitWorkspace, workspacePath } from './pages.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('page modules', () => {
  it('name files that exist and export the named component', () => {
    for (const page of [SIGN_IN_PAGE, SIGN_IN_LINK_PAGE, JOIN_PAGE, SHELL, ...Object.values(PAGES)]) {
      const source = fs.readFileSync(path.join(root, page.file), 'utf8');
      expect(source, page.file).toMatch(new RegExp(`export function ${page.component}\\b`));
    }
  });

  it('match addresses as the router does', () => {
    const page = (url: string) => modulesFor(url).map((m) => m.file);
    expect(page('/')).toEqual([SHELL.file, PAGES[''].file]);
    expect(page('/sign-in')).toEqual([SIGN_IN_PAGE.file]);
    expect(page('/sign-in/link')).toEqual([SIGN_IN_LINK_PAGE.file]);
    expect(page('/invite/join')).toEqual([JOIN_PAGE.file]);
    expect(page('/invite')).toEqual([SHELL.file, PAGES.invite.file]);
    expect(page('/projects/demo/')).toEqual([SHELL.file, PAGES['projects/:project'].file]);
    expect(page('/projects/demo/contexts/runs%2F1')).toEqual([SHELL.file, PAGES['projects/:project/contexts/:context'].file]);
    expect(page('/assistants/voices')).toEqual([SHELL.file, PAGES['assistants/voices'].file]);
    expect(page('/assistants/12')).toEqual([SHELL.file, PAGES['assistants/:id'].file]);
    expect(page('/projects/demo/history')).toEqual([SHELL.file]);
    expect(page('/o/7')).toEqual([SHELL.file, PAGES[''].file]);
    expect(page('/o/7/assistants/12')).toEqual([SHELL.file, PAGES['assistants/:id'].file]);
    expect(page('/o/7/organization')).toEqual([SHELL.file, PAGES.organization.file]);
    expect(page('/o/x/organization')).toEqual([SHELL.file]);
  });

  it('read and write the workspace of an address', () => {
    expect(splitWorkspace('/o/7/projects/p')).toEqual({ organizationId: 7, page: '/projects/p' });
    expect(splitWorkspace('/o/7')).toEqual({ organizationId: 7, page: '/' });
    expect(splitWorkspace('/o/07/projects')).toEqual({ organizationId: null, page: '/o/07/projects' });
    expect(splitWorkspace('/organization')).toEqual({ organizationId: null, page: '/organization' });
    expect(workspacePath(7, '/')).toBe('/o/7');
    expect(workspacePath(7, '/assistants')).toBe('/o/7/assistants');
    expect(workspacePath(null, '/assistants')).toBe('/assistants');
    // The switcher keeps the page, or opens the list when the page shows one thing of this workspace.
    expect(samePageIn('/o/7/assistants/voices', null)).toBe('/assistants/voices');
    expect(samePageIn('/assistants/12', 7)).toBe('/o/7/assistants');
    expect(samePageIn('/o/7/projects/p/contexts/c', 9)).toBe('/o/9/projects');
    expect(samePageIn('/o/7', null)).toBe('/');
    expect(samePageIn('/', 3)).toBe('/o/3');
  });
});
