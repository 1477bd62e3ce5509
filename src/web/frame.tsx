/**
 * A page's first screen, rendered on the server into the HTML (src/server/http/spa.ts): the shell and the
 * page in their loading state, by the same components and routes as the app, so that the page's frame
 * (navigation, title, the skeleton of what is loading) paints with the HTML and the stylesheet, before any
 * JavaScript has arrived. The browser then renders the app afresh over it (main.tsx); its first render is
 * the same loading state, so nothing moves.
 *
 * Built for Node by scripts/build.mjs (`vite build --ssr`) into the dashboard's `.frame/` directory.
 * Nothing is fetched here and no key exists: the server knows nobody's session (it lives in the browser's
 * session storage), so data and the user's name always arrive in the browser.
 */
import { StrictMode, type CSSProperties } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { JOIN_PAGE, modulesFor, SIGN_IN_LINK_PAGE, SIGN_IN_PAGE } from '../shared/pages.ts';
import { Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { queryClient } from './lib/query-client.ts';
import { ServerSession, SIGNED_IN_FRAME } from './lib/session.ts';

const handler = createStaticHandler(routes);

/** Read by screen readers, not shown (Mantine's VisuallyHidden needs its provider, which is inside the inert part). */
const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** The HTML of `url`'s first screen (path and query), or null when the router answers with a redirect. */
export async function renderFrame(url: string): Promise<string | null> {
  const request = new Request(new URL(url, 'http://roster.invalid'));
  const context = await handler.query(request);
  if (context instanceof Response) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  const app = (
    <Providers>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </Providers>
  );
  // The sign-in and join pages render signed out (the context's default); the others signed in.
  const first = modulesFor(new URL(request.url).pathname)[0];
  const signedIn = first !== SIGN_IN_PAGE && first !== SIGN_IN_LINK_PAGE && first !== JOIN_PAGE;
  try {
    return renderToString(
      <StrictMode>
        {/* Inert content is hidden from screen readers too: they hear what index.html's loading screen says. */}
        <p role="status" style={VISUALLY_HIDDEN}>
          Loading Roster…
        </p>
        {/* A picture of the page until the app replaces it: nothing to type into or submit (a form sent
            natively would put its fields in the address, and typed text would be lost). */}
        <div inert>{signedIn ? <ServerSession value={SIGNED_IN_FRAME}>{app}</ServerSession> : app}</div>
      </StrictMode>,
    );
  } finally {
    // The queries the pages declared (all pending): one cache entry per address otherwise.
    queryClient.clear();
  }
}
