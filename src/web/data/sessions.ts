import { requestSignInLink, signIn, signOut, signOutEverywhere } from '../../shared/operations/sessions.ts';
import { api } from '../lib/api-client.ts';
import { mutation } from '../lib/mutation.ts';

// Signing in by e-mail link and out of the browser session. Each call sends the session cookie (never a
// key): the server sets and clears the HttpOnly cookie, the dashboard only learns that it is signed in.

export const sessionMutations = {
  /** Mails a sign-in link; the answer is the same whether or not the address has an account. */
  requestLink: mutation({
    mutationFn: ({ email, next }: { email: string; next?: string }) => api(requestSignInLink, { body: { email, next } }),
    invalidates: () => [],
  }),
  /** Exchanges the link's token for the session cookie. */
  signIn: mutation({
    mutationFn: (token: string) => api(signIn, { body: { token }, cookie: true }),
    invalidates: () => [],
  }),
  signOut: mutation({
    mutationFn: () => api(signOut, { cookie: true }),
    invalidates: () => [],
  }),
  /** Ends every session of the person, in every browser (API keys keep working). */
  signOutEverywhere: mutation({
    mutationFn: () => api(signOutEverywhere, { cookie: true }),
    invalidates: () => [],
  }),
};
