import './app/mantine-styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { config as zodConfig } from 'zod';
import { Providers } from './app/providers.tsx';
import { routes } from './app/routes.tsx';
import { consumeKeyFromHash } from './lib/session.ts';

// A `#key=` sign-in link: take the key before anything renders, then clear the address bar. A link
// opened in a tab that already runs the app only changes the hash: take it then too.
consumeKeyFromHash();
window.addEventListener('hashchange', () => consumeKeyFromHash());

// zod compiles object parsers with `new Function` when it may, and probes for that by trying once: under
// our CSP (no 'unsafe-eval') the probe is a reported violation. The interpreter is fast enough here.
zodConfig({ jitless: true });

const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
