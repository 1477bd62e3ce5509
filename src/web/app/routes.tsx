import type { QueryKey } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { JOIN_PAGE, organizationIdOf, PAGES, SHELL, SIGN_IN_LINK_PAGE, SIGN_IN_PAGE, type PageModule, type PagePath } from '../../shared/pages.ts';
import { assistantQueries } from '../data/assistants.ts';
import { contextFilterOf, contextQueries } from '../data/contexts.ts';
import { creditQueries } from '../data/credits.ts';
import { voiceQueries } from '../data/voices.ts';
import { memberQueries } from '../data/members.ts';
import { organizationQueries } from '../data/organizations.ts';
import { projectQueries } from '../data/projects.ts';
import { queryClient } from '../lib/query-client.ts';
import { isSignedIn, sessionStore } from '../lib/session.ts';
import { workspaceStore } from '../lib/workspace.ts';
import { meQuery } from '../data/account.ts';
import { RouteError } from './route-error.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** A query's options (from a feature's `queries.ts`); a prefetch has no use for the data's type. */
type Query = { queryKey: QueryKey };

/**
 * A route loader that asks for a page's first data as soon as the route matches, while the page's code is
 * still downloading, instead of after the page has arrived and rendered. It returns at once: navigation
 * never waits for data; the page reads the same cache entries (same query options) and shows its own
 * loading and error states. It runs again only for another page: a filter typed into the URL (same page,
 * new search) is the page's own business; re-running the loaders would only send each such update
 * through the router's loading state, and refetch a stale list while the user types.
 */
function prefetching(start: (args: LoaderFunctionArgs) => void): Pick<RouteObject, 'loader' | 'shouldRevalidate'> {
  return {
    loader: (args) => {
      // The workspace of the address being loaded: its requests name it (lib/workspace.ts).
      if (args.params.org !== undefined && organizationIdOf(args.params.org) === null) throw data('No such workspace', { status: 404 });
      workspaceStore.enter(organizationIdOf(args.params.org));
      // Signed out, the layout sends the visitor to sign-in: there is nothing to ask for.
      if (isSignedIn(sessionStore.get())) start(args);
      return null;
    },
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
  };
}

const prefetch = (queries: (args: LoaderFunctionArgs) => Query[]) =>
  prefetching((args) => {
    for (const query of queries(args)) void queryClient.prefetchQuery(query);
  });

/** The organization page lists the members of the workspace's organization, and the user's organizations in the personal one. */
const prefetchOrganization = prefetch(({ params }) => {
  const orgId = organizationIdOf(params.org);
  return [orgId === null ? organizationQueries.mine() : memberQueries.list(orgId)];
});

const assistantId = (id: string | undefined) => (/^[1-9]\d*$/.test(id ?? '') ? [assistantQueries.detail(Number(id))] : []);

/** What each page asks for as soon as its route matches. */
const prefetches: Partial<Record<PagePath, Pick<RouteObject, 'loader' | 'shouldRevalidate'>>> = {
  projects: prefetch(() => [projectQueries.names()]),
  'projects/:project': prefetch(({ params, request }) => [
    projectQueries.project(params.project ?? ''),
    contextQueries.list(params.project ?? '', contextFilterOf(new URL(request.url).searchParams)),
  ]),
  'projects/:project/contexts/:context': prefetch(({ params }) => [contextQueries.one(params.project ?? '', params.context ?? '')]),
  assistants: prefetch(() => [assistantQueries.list(), voiceQueries.list()]),
  'assistants/new': prefetch(() => [assistantQueries.pricing(), creditQueries.balance(), voiceQueries.list()]),
  'assistants/:id': prefetch(({ params }) => [...assistantId(params.id), voiceQueries.list()]),
  'assistants/voices': prefetch(() => [voiceQueries.list()]),
  organization: prefetchOrganization,
};

// Every page module, each its own chunk loaded on demand; src/shared/pages.ts says which route shows which.
const pageModules = import.meta.glob<Record<string, ComponentType>>([
  '/src/web/app/*-page.tsx',
  '!/src/web/app/not-found-page.tsx',
  '/src/web/app/layout/signed-in-layout.tsx',
  '/src/web/features/*/pages/*-page.tsx',
]);

function lazyPage({ file, component }: PageModule): NonNullable<RouteObject['lazy']> {
  const load = pageModules[`/${file}`];
  if (!load) throw new Error(`${file} is not a page module`);
  return async () => ({ Component: (await load())[component] });
}

/** Pages of the signed-in app (src/shared/pages.ts), loaded lazily. */
const appRoutes = (): RouteObject[] => [
  ...Object.entries(PAGES).map(([path, page]): RouteObject => ({
    ...(path === '' ? { index: true } : { path }),
    ...prefetches[path as PagePath],
    lazy: lazyPage(page),
  })),
  { path: '*', Component: NotFoundPage },
];

/** The signed-in shell and every page, at `path`: the personal workspace's `/`, or an organization's `/o/:org`. */
const workspace = (path: string): RouteObject => ({
  path,
  // Every signed-in screen shows who is signed in (header, permissions).
  ...prefetch(() => [meQuery]),
  lazy: lazyPage(SHELL),
  errorElement: <RouteError />,
  // Never shown: main.tsx renders once the first page's code is here (until then the server-rendered
  // first screen, or index.html's "Loading Roster…", stays).
  hydrateFallbackElement: null,
  children: [{ errorElement: <RouteError />, children: appRoutes() }],
});

export const routes: RouteObject[] = [
  // The sign-in screen and the shell are separate chunks: each first screen downloads only its own code.
  {
    path: '/sign-in',
    lazy: lazyPage(SIGN_IN_PAGE),
    errorElement: <RouteError />,
    hydrateFallbackElement: null,
  },
  {
    path: '/sign-in/link',
    lazy: lazyPage(SIGN_IN_LINK_PAGE),
    errorElement: <RouteError />,
    hydrateFallbackElement: null,
  },
  {
    path: '/invite/join',
    lazy: lazyPage(JOIN_PAGE),
    errorElement: <RouteError />,
    hydrateFallbackElement: null,
  },
  workspace('/o/:org'),
  workspace('/'),
];
