/**
 * Where each dashboard page's code lives, by route (paths relative to the signed-in shell, `:name` for a
 * parameter). The router loads each page from here (src/web/app/routes.tsx), and the server names the
 * page's chunks in the HTML it sends for that address (src/server/http/spa.ts), so a browser fetches them
 * alongside the entry instead of only once the entry has run: one round trip less before a page shows.
 */
export interface PageModule {
  /** Source file, from the repository root (the key of Vite's build manifest). */
  file: string;
  /** The exported component. */
  component: string;
}

/** The sign-in screen, outside the shell. */
export const SIGN_IN_PAGE: PageModule = { file: 'src/web/app/sign-in-page.tsx', component: 'SignInPage' };

/** Where a mailed sign-in link lands (`/sign-in/link#token=…`), outside the shell. */
export const SIGN_IN_LINK_PAGE: PageModule = { file: 'src/web/app/sign-in-link-page.tsx', component: 'SignInLinkPage' };

/**
 * Where an invite link (`/invite?token=…`) sends a signed-out visitor (`/invite/join?token=…`), outside the
 * shell: join without an account, or sign in first.
 */
export const JOIN_PAGE: PageModule = { file: 'src/web/features/organizations/pages/join-page.tsx', component: 'JoinPage' };

/** The signed-in shell (header, navigation) around every page below. */
export const SHELL: PageModule = { file: 'src/web/app/layout/signed-in-layout.tsx', component: 'SignedInLayout' };

const feature = (name: string, page: string, component: string): PageModule => ({
  file: `src/web/features/${name}/pages/${page}.tsx`,
  component,
});

/** Pages of the signed-in app; `''` is the home page. */
export const PAGES = {
  '': { file: 'src/web/app/home-page.tsx', component: 'HomePage' },
  projects: feature('projects', 'projects-page', 'ProjectsPage'),
  'projects/:project': feature('projects', 'project-page', 'ProjectPage'),
  'projects/:project/contexts/:context': feature('projects', 'context-page', 'ContextPage'),
  dashboards: feature('dashboards', 'dashboards-page', 'DashboardsPage'),
  assistants: feature('assistants', 'assistants-page', 'AssistantsPage'),
  'assistants/new': feature('assistants', 'hire-assistant-page', 'HireAssistantPage'),
  'assistants/:id': feature('assistants', 'assistant-page', 'AssistantPage'),
  'assistants/voices': feature('assistants', 'voices-page', 'VoicesPage'),
  organization: feature('organizations', 'organization-page', 'OrganizationPage'),
  invite: feature('organizations', 'invite-page', 'InvitePage'),
  account: feature('account', 'account-page', 'AccountPage'),
  // Moved into the Admin area; the old address redirects there.
  'account/create-user': feature('admin', 'create-user-redirect-page', 'CreateUserRedirectPage'),
  'account/keys': feature('account', 'api-keys-page', 'ApiKeysPage'),
  'custom-endpoints': feature('account', 'custom-endpoints-page', 'CustomEndpointsPage'),
  activity: feature('activity', 'activity-page', 'ActivityPage'),
  admin: feature('admin', 'admin-page', 'AdminPage'),
  // The account feature's form (its business form), in the Admin area.
  'admin/users/new': feature('account', 'create-user-page', 'CreateUserPage'),
} satisfies Record<string, PageModule>;

export type PagePath = keyof typeof PAGES;

/** `/o/<organization id>` in front of a page: the page in that organization's workspace. */
const WORKSPACE_PREFIX = /^\/o\/([1-9]\d{0,14})(?=\/|$)/;

/** The organization id of the route's `:org` segment, or null when it is not one. */
export function organizationIdOf(segment: string | undefined): number | null {
  return segment !== undefined && /^[1-9]\d{0,14}$/.test(segment) ? Number(segment) : null;
}

/**
 * Which workspace an address is in, and the page's address within it: `/o/7/projects` is `/projects` of
 * organization 7; an address without the prefix is in the personal workspace.
 */
export function splitWorkspace(pathname: string): { organizationId: number | null; page: string } {
  const match = WORKSPACE_PREFIX.exec(pathname);
  if (!match) return { organizationId: null, page: pathname };
  return { organizationId: Number(match[1]), page: pathname.slice(match[0].length) || '/' };
}

/** The address of `page` (`/projects`, `/` for the home page) in a workspace: the reverse of splitWorkspace. */
export function workspacePath(organizationId: number | null, page: string): string {
  if (organizationId === null) return page;
  return `/o/${organizationId}${page === '/' ? '' : page}`;
}

/**
 * The modules an address needs beyond the entry, as the router would pick them: the sign-in page, or the
 * shell and the page whose pattern matches (static segments win over parameters, as in the router).
 * An address no page matches gets the shell (its not-found page is in the entry).
 */
export function modulesFor(pathname: string): PageModule[] {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 1 && segments[0] === 'sign-in') return [SIGN_IN_PAGE];
  if (segments.length === 2 && segments[0] === 'sign-in' && segments[1] === 'link') return [SIGN_IN_LINK_PAGE];
  if (segments.length === 2 && segments[0] === 'invite' && segments[1] === 'join') return [JOIN_PAGE];
  return [SHELL, ...pageFor(splitWorkspace(pathname).page)];
}

/** The page module of an address within a workspace, if any matches. */
function pageFor(address: string): PageModule[] {
  const segments = address.split('/').filter(Boolean);
  let best: { page: PageModule; score: number } | null = null;
  for (const [pattern, page] of Object.entries(PAGES)) {
    const parts = pattern.split('/').filter(Boolean);
    if (parts.length !== segments.length) continue;
    if (!parts.every((part, i) => part.startsWith(':') || part === segments[i])) continue;
    const score = parts.filter((part) => !part.startsWith(':')).length;
    if (!best || score > best.score) best = { page, score };
  }
  return best ? [best.page] : [];
}

/**
 * The same page in another workspace, for the switcher: a page of one thing (a project, an assistant) is
 * not in the other workspace, so its list is opened instead (`/o/7/projects/p/contexts/c` → `/projects`).
 */
export function samePageIn(pathname: string, organizationId: number | null): string {
  const { page } = splitWorkspace(pathname);
  const segments = page.split('/').filter(Boolean);
  const staticPage = segments.join('/') in PAGES;
  return workspacePath(organizationId, staticPage ? `/${segments.join('/')}` : `/${segments[0] ?? ''}`);
}
