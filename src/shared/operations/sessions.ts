import { z } from 'zod';
import { MessageSchema } from '../common.ts';
import { ACCOUNT, operation, PUBLIC, SIGNED_IN } from '../operation.ts';
import { SessionSchema, SignedInSchema, SignedOutEverywhereSchema, SignInInput, SignInLinkInput } from '../sessions.ts';

// Browser sessions (issue 19): a person signs in by a one-time link mailed to them and gets an HttpOnly
// session cookie that acts as they do (like their personal key). Programs keep using bearer keys.

export const requestSignInLink = operation({
  method: 'POST',
  path: '/v0/sessions/email-link',
  operationId: 'requestSignInLink',
  summary: 'E-mail a one-time sign-in link (always 202: whether the address has an account is not revealed)',
  tag: 'sessions',
  extension: true,
  access: PUBLIC,
  body: SignInLinkInput,
  response: MessageSchema,
  status: 202,
  errors: [422, 429],
});

export const signIn = operation({
  method: 'POST',
  path: '/v0/sessions',
  operationId: 'signIn',
  summary: 'Exchange a sign-in link’s token for a session cookie (creates the account when sign-up is open)',
  description:
    'Needs the same-origin checks of every cookie request (Origin and the X-Roster-CSRF header). Any session cookie sent along is ended: a sign-in always starts a fresh session.',
  tag: 'sessions',
  extension: true,
  access: PUBLIC,
  body: SignInInput,
  response: SignedInSchema,
  status: 201,
  errors: [400, 403, 422],
});

export const getCurrentSession = operation({
  method: 'GET',
  path: '/v0/sessions/current',
  operationId: 'getCurrentSession',
  summary: 'The session the request is signed in with (404 for an API key)',
  tag: 'sessions',
  extension: true,
  access: SIGNED_IN,
  response: SessionSchema,
  errors: [404],
});

export const signOut = operation({
  method: 'DELETE',
  path: '/v0/sessions/current',
  operationId: 'signOut',
  summary: 'Sign out: end this session and clear its cookie',
  tag: 'sessions',
  extension: true,
  access: SIGNED_IN,
  response: z.null().optional(),
  status: 204,
  errors: [400],
});

export const signOutEverywhere = operation({
  method: 'DELETE',
  path: '/v0/sessions',
  operationId: 'signOutEverywhere',
  summary: 'Sign out everywhere: end every session of the person (API keys are not affected)',
  tag: 'sessions',
  extension: true,
  access: ACCOUNT,
  response: SignedOutEverywhereSchema,
  errors: [403],
});
