import type { QueryKey } from '@tanstack/react-query';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { assistantQueries } from '../features/assistants/queries.ts';
import { orgQueries } from '../features/organizations/queries.ts';
import { projectQueries } from '../features/projects/queries.ts';
import { queryClient } from '../lib/query-client.ts';
import { sessionStore } from '../lib/session.ts';
import { meQuery } from '../lib/me-query.ts';
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
      // Without a key the layout sends the visitor to sign-in: there is nothing to ask for.
      if (sessionStore.get().key) start(args);
      return null;
    },
    shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
  };
}

const prefetch = (queries: (args: LoaderFunctionArgs) => Query[]) =>
  prefetching((args) => {
    for (const query of queries(args)) void queryClient.prefetchQuery(query);
  });

/** The organization page lists members with an organization's key, and the user's organizations otherwise. */
const prefetchOrganization = prefetching(() => {
  queryClient.ensureQueryData(meQuery).then(
    (me) => {
      const orgId = me.key.kind === 'organization' ? me.key.organization_id : null;
      return orgId === null ? queryClient.prefetchQuery(orgQueries.mine()) : queryClient.prefetchQuery(orgQueries.members(orgId));
    },
    // The page asks again and shows the error.
    () => undefined,
  );
});

const assistantId = (id: string | undefined) => (/^[1-9]\d*$/.test(id ?? '') ? [assistantQueries.detail(Number(id))] : []);

/** Pages of the signed-in app. Features add their routes here, loaded lazily (`lazy: () => import(…)`). */
const appRoutes: RouteObject[] = [
  { index: true, lazy: async () => ({ Component: (await import('./home-page.tsx')).HomePage }) },
  {
    path: 'projects',
    ...prefetch(() => [projectQueries.names()]),
    lazy: async () => ({ Component: (await import('../features/projects/pages/projects-page.tsx')).ProjectsPage }),
  },
  {
    path: 'projects/:project',
    ...prefetch(({ params, request }) => [
      projectQueries.project(params.project ?? ''),
      projectQueries.contexts(params.project ?? '', new URL(request.url).searchParams.get('prefix') ?? ''),
    ]),
    lazy: async () => ({ Component: (await import('../features/projects/pages/project-page.tsx')).ProjectPage }),
  },
  {
    path: 'projects/:project/contexts/:context',
    ...prefetch(({ params }) => [projectQueries.context(params.project ?? '', params.context ?? '')]),
    lazy: async () => ({ Component: (await import('../features/projects/pages/context-page.tsx')).ContextPage }),
  },
  { path: 'dashboards', lazy: async () => ({ Component: (await import('../features/dashboards/pages/dashboards-page.tsx')).DashboardsPage }) },
  {
    path: 'assistants',
    ...prefetch(() => [assistantQueries.list(), assistantQueries.voices()]),
    lazy: async () => ({ Component: (await import('../features/assistants/pages/assistants-page.tsx')).AssistantsPage }),
  },
  {
    path: 'assistants/new',
    ...prefetch(() => [assistantQueries.pricing(), assistantQueries.credits(), assistantQueries.voices()]),
    lazy: async () => ({ Component: (await import('../features/assistants/pages/hire-assistant-page.tsx')).HireAssistantPage }),
  },
  {
    path: 'assistants/:id',
    ...prefetch(({ params }) => [...assistantId(params.id), assistantQueries.voices()]),
    lazy: async () => ({ Component: (await import('../features/assistants/pages/assistant-page.tsx')).AssistantPage }),
  },
  {
    path: 'assistants/voices',
    ...prefetch(() => [assistantQueries.voices()]),
    lazy: async () => ({ Component: (await import('../features/assistants/pages/voices-page.tsx')).VoicesPage }),
  },
  {
    path: 'organization',
    ...prefetchOrganization,
    lazy: async () => ({ Component: (await import('../features/organizations/pages/organization-page.tsx')).OrganizationPage }),
  },
  { path: 'invite', lazy: async () => ({ Component: (await import('../features/organizations/pages/invite-page.tsx')).InvitePage }) },
  { path: 'account', lazy: async () => ({ Component: (await import('../features/account/pages/account-page.tsx')).AccountPage }) },
  { path: 'account/create-user', lazy: async () => ({ Component: (await import('../features/account/pages/create-user-page.tsx')).CreateUserPage }) },
  { path: 'custom-endpoints', lazy: async () => ({ Component: (await import('../features/account/pages/custom-endpoints-page.tsx')).CustomEndpointsPage }) },
  { path: '*', Component: NotFoundPage },
];

export const routes: RouteObject[] = [
  // The sign-in screen and the shell are separate chunks: each first screen downloads only its own code.
  {
    path: '/sign-in',
    lazy: async () => ({ Component: (await import('./sign-in-page.tsx')).SignInPage }),
    errorElement: <RouteError />,
    hydrateFallbackElement: null,
  },
  {
    path: '/',
    // Every signed-in screen shows who is signed in (header, permissions).
    ...prefetch(() => [meQuery]),
    lazy: async () => ({ Component: (await import('./layout/signed-in-layout.tsx')).SignedInLayout }),
    errorElement: <RouteError />,
    // Shown while the first lazy page of a fresh load arrives.
    hydrateFallbackElement: null,
    children: [{ errorElement: <RouteError />, children: appRoutes }],
  },
];
