import type { z } from 'zod';
import type { Blocker, CreateWithBusinessInfoInput } from '../../../shared/account.ts';
import type { Conn } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { badRequestError, forbiddenError } from '../../domain-errors.ts';
import { deleteAssistantsIn } from '../assistants/service.ts';
import { deletePersonalCustomEndpoints } from '../custom-endpoints/repository.ts';
import { deletePersonalProjects } from '../projects/repository.ts';
import { createStarterProject } from '../tiles/starter.ts';
import { deleteUser, findUser, findUserByEmail, hasAnyUser, insertUser, isAdmin, type NewUser } from '../users/repository.ts';
import { deletionBlockers } from './repository.ts';

const DUPLICATE_EMAIL = 'A user with this email already exists.';

/**
 * A new person: the user with their personal key and billing account, and the starter project of
 * semantics.md §4, in one transaction. `beforeCommit` runs last in it (a route stores its idempotent
 * response there).
 */
export async function createAccount(
  db: Conn,
  input: NewUser,
  now: Date,
  beforeCommit?: (tx: Conn, created: { userId: string; apiKey: string }) => Promise<void>,
): Promise<{ userId: string; apiKey: string }> {
  return db.transaction().execute(async (tx) => {
    const created = await insertAccount(tx, input, now);
    await beforeCommit?.(tx, created);
    return created;
  });
}

/** What createAccount writes, in the caller's transaction (joining by invitation writes more in the same one). */
export async function insertAccount(tx: Conn, input: NewUser, now: Date): Promise<{ userId: string; apiKey: string }> {
  // The first person of an instance administers it.
  const created = await insertUser(tx, { ...input, admin: input.admin || !(await hasAnyUser(tx)) }, now);
  await createStarterProject(tx, created.userId, now);
  return created;
}

/**
 * An administrator creates someone's account (semantics.md §4): refused to anyone else (any key could
 * otherwise mint accounts and their credits without end), and with the spec's 400 when the e-mail is
 * taken, even by a concurrent request.
 */
export async function createAccountFor(
  db: Conn,
  adminId: string,
  input: NewUser & { email: string },
  now: Date,
  beforeCommit: (tx: Conn, created: { userId: string; apiKey: string }) => Promise<void>,
): Promise<{ userId: string; apiKey: string }> {
  if (!(await isAdmin(db, adminId))) throw forbiddenError('Only instance administrators can create accounts for other people.');
  if (await findUserByEmail(db, input.email)) throw badRequestError(DUPLICATE_EMAIL);
  try {
    return await createAccount(db, input, now, beforeCommit);
  } catch (error) {
    // Two requests for one e-mail at once: the unique index lets one through.
    if (isUniqueViolation(error)) throw badRequestError(DUPLICATE_EMAIL);
    throw error;
  }
}

/** The business details kept for an account type (only business accounts have them). */
export function businessInfoOf(input: Pick<z.output<typeof CreateWithBusinessInfoInput>, 'account_type' | 'business_info'>) {
  return input.account_type === 'business' ? (input.business_info ?? null) : null;
}

/**
 * Deletes the account unless blockers exist: the user's personal projects, custom endpoints,
 * assistants and files, and (by cascade) their keys and memberships, in one transaction. What the
 * user created in organizations stays there. Returns the cleanups (stored files) to run after commit.
 */
export async function deleteAccount(
  deps: Pick<Deps, 'db' | 'storage' | 'voiceProviders'>,
  userId: string,
  confirmEmail: string,
): Promise<{ blockers: Blocker[]; cleanups: (() => Promise<void>)[] }> {
  const { db } = deps;
  const user = await findUser(db, userId);
  if (!user || (user.email ?? '').toLowerCase() !== confirmEmail.toLowerCase()) {
    throw badRequestError('confirm_email does not match the e-mail address of this account.');
  }
  return db.transaction().execute(async (tx) => {
    // Checked again inside the transaction: an organization created meanwhile still blocks.
    const blockers = await deletionBlockers(tx, userId);
    if (blockers.length > 0) return { blockers, cleanups: [] };
    await deletePersonalProjects(tx, userId);
    await deletePersonalCustomEndpoints(tx, userId);
    const cleanup = await deleteAssistantsIn(tx, { userId, organizationId: null }, deps);
    await deleteUser(tx, userId);
    return { blockers: [], cleanups: cleanup ? [cleanup] : [] };
  });
}
