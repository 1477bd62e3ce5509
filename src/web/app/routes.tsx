import type { RouteObject } from 'react-router';
import { RouteError } from './route-error.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Pages of the signed-in app. Features add their routes here, loaded lazily (`lazy: () => import(…)`). */
const appRoutes: RouteObject[] = [
  { index: true, lazy: async () => ({ Component: (await import('./home-page.tsx')).HomePage }) },
  { path: 'dashboards', lazy: async () => ({ Component: (await import('../features/dashboards/pages/dashboards-page.tsx')).DashboardsPage }) },
  { path: 'assistants', lazy: async () => ({ Component: (await import('../features/assistants/pages/assistants-page.tsx')).AssistantsPage }) },
  { path: 'assistants/new', lazy: async () => ({ Component: (await import('../features/assistants/pages/hire-assistant-page.tsx')).HireAssistantPage }) },
  { path: 'assistants/:id', lazy: async () => ({ Component: (await import('../features/assistants/pages/assistant-page.tsx')).AssistantPage }) },
  { path: 'assistants/voices', lazy: async () => ({ Component: (await import('../features/assistants/pages/voices-page.tsx')).VoicesPage }) },
  { path: 'organization', lazy: async () => ({ Component: (await import('../features/organizations/pages/organization-page.tsx')).OrganizationPage }) },
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
    lazy: async () => ({ Component: (await import('./layout/signed-in-layout.tsx')).SignedInLayout }),
    errorElement: <RouteError />,
    // Shown while the first lazy page of a fresh load arrives.
    hydrateFallbackElement: null,
    children: [{ errorElement: <RouteError />, children: appRoutes }],
  },
];
