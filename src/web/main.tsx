import './app/mantine-styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { config as zodConfig } from 'zod';
import { Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { getCurrentSession } from '../shared/operations/sessions.ts';
import { api } from './lib/api-client.ts';
import { consumeKeyFromHash, isSignedIn, sessionStore } from './lib/session.ts';

// A `#key=` sign-in link: take the key before anything renders, then clear the address bar. A link
// opened in a tab that already runs the app only changes the hash: take it then too.
consumeKeyFromHash();
window.addEventListener('hashchange', () => consumeKeyFromHash());

// zod compiles object parsers with `new Function` when it may, and probes for that by trying once: under
// our CSP (no 'unsafe-eval') the probe is a reported violation. The interpreter is fast enough here.
zodConfig({ jitless: true });

/**
 * A tab that holds no key asks once whether the browser is signed in by its session cookie (a new tab, a
 * link opened in one): then it is, like every other tab. The sign-in link page signs in by itself.
 */
async function findCookieSession(): Promise<void> {
  const state = sessionStore.get();
  if (isSignedIn(state) || state.apiBase !== '' || window.location.pathname === '/sign-in/link') return;
  // Our server marks whether the browser sent a session cookie at all (the dev server does not: then ask).
  if (document.documentElement.dataset.sessionCookie === 'no') return;
  try {
    await api(getCurrentSession, { cookie: true });
    sessionStore.signInWithCookie();
  } catch {
    // Not signed in (401), or the server is unreachable: the sign-in page says what to do.
  }
}

/**
 * The first render waits until the router has the first page's code (its lazy routes): until then the
 * first screen the server rendered into the HTML (src/web/frame.tsx), or the static loading screen, stays
 * on screen, and the providers, shell and page render once instead of three times. It runs as a
 * transition, so React yields to the browser every few milliseconds instead of blocking input for the
 * whole first screen. (The entry is started after the first paint, so the stylesheet has applied.)
 */
function whenInitialized(router: ReturnType<typeof createBrowserRouter>): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/**
 * Resolves in a new task of the browser's event loop (a message, not a timer: no 4 ms clamp). The start
 * yields twice: after the modules have run, before the router starts the first page's requests and code,
 * and again before the first render. Each step was one long task together with the one before it (the
 * entry's evaluation and the router's start: 90 ms on this machine, 360 ms at Lighthouse's 4x CPU
 * slowdown); a long task blocks input for its whole length, and the blocking time counts each task's
 * length beyond 50 ms.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

const root = createRoot(document.getElementById('root')!);
void nextTask()
  .then(findCookieSession)
  .then(() => {
    // Created once the sign-in state is known: its loaders start the first page's requests with it.
    const router = createBrowserRouter(routes);
    return whenInitialized(router)
      .then(nextTask)
      .then(() =>
        startTransition(() =>
          root.render(
            <StrictMode>
              <Providers>
                <RouterProvider router={router} />
              </Providers>
            </StrictMode>,
          ),
        ),
      );
  });
