import { createHash } from 'node:crypto';

/**
 * The two inline scripts of the dashboard's HTML (src/server/http/spa.ts), allowed by their hashes in the
 * CSP (security-headers.ts): files would each cost a round trip before the first paint.
 */

/**
 * Sets the color scheme before the page paints, as the app will: Mantine keeps the user's choice in
 * localStorage under this key ('auto' or nothing follows the system), and its light and dark variables
 * hang on `data-mantine-color-scheme`.
 */
export const COLOR_SCHEME_SCRIPT =
  "try{var s=localStorage.getItem('mantine-color-scheme-value');if(s!=='light'&&s!=='dark')s=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';document.documentElement.setAttribute('data-mantine-color-scheme',s)}catch(e){}";

/**
 * Starts the app's JavaScript once the server-rendered first screen has painted: the modules listed in
 * `#app-modules` (the entry, and the chunks of the page to fetch alongside). Requested with the HTML, they
 * shared a slow connection with the stylesheet and held back the first paint, which only needs the HTML and
 * the stylesheet. A callback of the first animation frame runs just before that paint; its timeout, after.
 * It also starts public/intl-warmup.js, which takes the first Intl formatter's cost off the main thread.
 */
export const APP_LOADER_SCRIPT =
  "requestAnimationFrame(function(){setTimeout(function(){try{new Worker('/intl-warmup.js')}catch(e){}var m=JSON.parse(document.getElementById('app-modules').textContent);m.preload.forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=f;document.head.appendChild(l)});var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=m.entry;document.head.appendChild(s)})})";

const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

export const INLINE_SCRIPT_HASHES = [COLOR_SCHEME_SCRIPT, APP_LOADER_SCRIPT].map(hash).join(' ');
