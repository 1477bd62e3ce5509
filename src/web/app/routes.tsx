import type { RouteObject } from 'react-router';
import { AppLayout } from './layout/app-layout.tsx';
import { RequireSession } from './require-session.tsx';
import { RouteError } from './route-error.tsx';
import { SignInPage } from './sign-in-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Pages of the signed-in app. Features add their routes here, loaded lazily (`lazy: () => import(…)`). */
const appRoutes: RouteObject[] = [
  { index: true, lazy: async () => ({ Component: (await import('./home-page.tsx')).HomePage }) },
  { path: '*', Component: NotFoundPage },
];

export const routes: RouteObject[] = [
  { path: '/sign-in', Component: SignInPage, errorElement: <RouteError /> },
  {
    path: '/',
    element: (
      <RequireSession>
        <AppLayout />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    // Shown while the first lazy page of a fresh load arrives.
    hydrateFallbackElement: null,
    children: [{ errorElement: <RouteError />, children: appRoutes }],
  },
];
