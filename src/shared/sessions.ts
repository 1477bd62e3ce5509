import { z } from 'zod';
import { email, Timestamp } from './common.ts';

/** A sign-in link works once, for this long. */
export const SIGN_IN_LINK_MINUTES = 15;
/** A session unused this long ends (each use renews it, written at most once a minute). */
export const SESSION_IDLE_DAYS = 7;
/** A session ends this long after sign-in however much it is used. */
export const SESSION_ABSOLUTE_DAYS = 30;
/** Sign-in links one address may be sent per hour, and one client address may ask for per hour. */
export const SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR = 5;
export const SIGN_IN_LINKS_PER_CLIENT_PER_HOUR = 30;

/**
 * A page of this dashboard to return to: a path on the same site. `//host` and `/\\host` are refused, as
 * browsers read both as another site (no open redirect through a sign-in link).
 */
export function isSafeNext(next: string): boolean {
  return /^\/(?![/\\])\S*$/.test(next) && next.length <= 2000;
}

/** `next` when it is a safe return target, else the overview. */
export function safeNext(next: string | null): string {
  return next && isSafeNext(next) ? next : '/';
}

export const SignInLinkInput = z.object({
  email: email(),
  next: z
    .string()
    .refine(isSafeNext, 'Give a path of this site that starts with a single "/", such as /invite?token=…, at most 2000 characters.')
    .optional()
    .describe('The dashboard page the mailed link returns to after signing in (default: the overview).'),
});

/** The token from the link's `#token=` fragment. */
export const SignInInput = z.object({
  token: z
    .string()
    .trim()
    .min(10, 'Must be the token of a sign-in link.')
    .max(200, 'Must be the token of a sign-in link.')
    .regex(/^[A-Za-z0-9_-]+$/, 'Must be the token of a sign-in link.'),
});

export const SessionSchema = z.object({
  user_id: z.string(),
  email: z.string().nullable(),
  created_at: Timestamp,
  last_used_at: Timestamp,
  /** When it ends if unused (renewed by use, never past `expires_at`). */
  idle_expires_at: Timestamp,
  /** When it ends however much it is used. */
  expires_at: Timestamp,
});
export type Session = z.infer<typeof SessionSchema>;

/** A sign-in: the new session, and whether the link created the account (open sign-up). */
export const SignedInSchema = SessionSchema.extend({ account_created: z.boolean() });

export const SignedOutEverywhereSchema = z.object({ message: z.string(), sessions_ended: z.number().int() });
