import { createContext, useContext, useSyncExternalStore } from 'react';

/**
 * Who the dashboard acts as: either the browser's session cookie (signed in by e-mail link: HttpOnly, so
 * no secret is in JavaScript at all, and every tab shares it), or an API key. A key lives in memory and
 * sessionStorage only (never localStorage, never a URL the app sends): closing the tab forgets it. Which
 * workspace either acts in is the address's (lib/workspace.ts), not another key: the server checks the
 * person's membership on every request.
 */
export interface SessionState {
  /** API origin, '' = same origin as the dashboard. */
  apiBase: string;
  key: string | null;
  /** Signed in by the session cookie (same origin only); `key` is then null. */
  cookie: boolean;
  /** Why the last session ended (shown on the sign-in screen). */
  endedBecause: string | null;
}

const STORAGE_KEY = 'roster.session';
const empty: SessionState = { apiBase: '', key: null, cookie: false, endedBecause: null };

/** Whether the dashboard is signed in at all (by a key or by the session cookie). */
export const isSignedIn = (s: SessionState) => s.key !== null || s.cookie;

function load(): SessionState {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return empty;
    const parsed = JSON.parse(raw) as Partial<SessionState>;
    return {
      apiBase: typeof parsed.apiBase === 'string' ? parsed.apiBase : '',
      // Signed in by cookie, no key is kept (an organization key an older version held is dropped).
      key: typeof parsed.key === 'string' && parsed.cookie !== true ? parsed.key : null,
      cookie: parsed.cookie === true,
      endedBecause: null,
    };
  } catch {
    return empty;
  }
}

let state: SessionState = load();
const listeners = new Set<() => void>();
const switchListeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  const { apiBase, key, cookie } = next;
  // In cookie mode only the fact is kept (the cookie itself is out of JavaScript's reach).
  if (isSignedIn(next)) sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ apiBase, key, cookie }));
  else sessionStorage.removeItem(STORAGE_KEY);
  listeners.forEach((l) => l());
}

function activate(next: SessionState) {
  const changed = next.key !== state.key || next.apiBase !== state.apiBase || next.cookie !== state.cookie;
  set(next);
  // Cached data belongs to the previous key's workspace.
  if (changed) switchListeners.forEach((l) => l());
}

export const sessionStore = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Called when the sign-in changes (the query cache is reset). */
  onSwitch(listener: () => void) {
    switchListeners.add(listener);
    return () => switchListeners.delete(listener);
  },
  signIn(key: string, apiBase: string) {
    activate({ apiBase: normalizeBase(apiBase), key, cookie: false, endedBecause: null });
  },
  /** Signed in by the session cookie this origin's server set (sign-in link, or found at start-up). */
  signInWithCookie() {
    activate({ ...empty, cookie: true });
  },
  signOut(reason: string | null = null) {
    activate({ ...empty, apiBase: state.apiBase, endedBecause: reason });
  },
};

export function normalizeBase(base: string): string {
  return base.trim().replace(/\/+$/, '');
}

/**
 * The session a page rendered on the server sees (its first screen: src/web/frame.tsx), which has no
 * session storage: signed out (the default) for the sign-in page, and for the signed-in pages a placeholder
 * key, so that the shell and the page render in their loading state. Nothing is fetched there, and the
 * route loaders read the store itself, which stays empty on the server. The browser never uses it (the
 * app is rendered afresh over the first screen, not hydrated).
 */
export const SIGNED_IN_FRAME: SessionState = { apiBase: '', key: 'server-rendered-frame', cookie: false, endedBecause: null };
export const ServerSession = createContext<SessionState>(empty);

export function useSession() {
  const server = useContext(ServerSession);
  const current = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, () => server);
  return {
    ...current,
    signedIn: isSignedIn(current),
    signIn: sessionStore.signIn,
    signInWithCookie: sessionStore.signInWithCookie,
    signOut: sessionStore.signOut,
  };
}

/**
 * Consumes a `#key=` sign-in link: the key moves to session storage and leaves the address bar
 * (a fragment never reaches a server, and it must not stay in history either).
 */
export function consumeKeyFromHash(): boolean {
  const match = /^#key=([\w-]+)$/.exec(window.location.hash);
  if (!match) return false;
  sessionStore.signIn(match[1]!, '');
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return true;
}
