import type { ResponseOf } from '../../../shared/operation.ts';
import type { rollbackProject } from '../../../shared/operations/projects.ts';
import type { Conn } from '../../db/connection.ts';
import { badRequestError, notFoundError } from '../../domain-errors.ts';
import { createCommit, hasPendingChanges as contextHasPendingChanges, rollback as rollbackContext } from '../contexts/commits-repository.ts';
import {
  contextCommitHash,
  contextsOfProjectCommit,
  findProjectCommit,
  hasPendingChanges,
  insertProjectCommit,
  setProjectHead,
  versionedContexts,
} from './commits-repository.ts';

// Project versions (logs API §7) on top of the contexts' own versions: a project commit is one
// context commit per versioned context, a project rollback is one context rollback per context it holds.

type ProjectRow = { id: number; name: string };

/**
 * Commits every versioned context of the project in the caller's transaction. A context with
 * uncommitted changes, or no commit yet, gets a context commit with the same message; one without
 * changes is held at its HEAD (no empty commit in its own history). Unversioned contexts take no part.
 */
export async function commitProjectIn(tx: Conn, project: ProjectRow, message: string | null, now: Date): Promise<string> {
  const contexts = await versionedContexts(tx, project.id);
  if (contexts.length === 0) {
    throw badRequestError(
      `Project ${project.name} has no versioned context to commit. Create a context with "is_versioned": true (a versioned project's contexts are versioned by default), then commit.`,
    );
  }
  const held: { contextId: number; commitId: number; commitHash: string }[] = [];
  for (const c of contexts) {
    if (c.head_commit_id !== null && !(await contextHasPendingChanges(tx, c.id))) {
      held.push({ contextId: c.id, commitId: c.head_commit_id, commitHash: await contextCommitHash(tx, c.head_commit_id) });
      continue;
    }
    const hash = await createCommit(tx, c.id, message, now);
    const after = await tx.selectFrom('contexts').select('head_commit_id').where('id', '=', c.id).executeTakeFirstOrThrow();
    held.push({ contextId: c.id, commitId: after.head_commit_id!, commitHash: hash });
  }
  return insertProjectCommit(tx, project.id, message, held, now);
}

/**
 * Moves every context the project commit holds to its commit there, and the project's HEAD to it, in
 * the caller's transaction: an error anywhere rolls all of it back. Uncommitted changes of any versioned
 * context are first saved as a project commit, so the rollback can itself be undone.
 */
export async function rollbackProjectIn(tx: Conn, project: ProjectRow, hash: string, now: Date): Promise<ResponseOf<typeof rollbackProject>> {
  const target = await findProjectCommit(tx, project.id, hash);
  if (!target) throw notFoundError(`Commit hash ${hash} not found for project ${project.name}: list the project's commits (GET …/commits) for the hashes it has.`);
  const autoSaved = (await hasPendingChanges(tx, project.id)) ? await commitProjectIn(tx, project, `Auto-saved before rollback to ${hash}`, now) : null;
  const restored: string[] = [];
  for (const c of await contextsOfProjectCommit(tx, target.id)) {
    // After the auto-save no context has uncommitted changes: one already at its commit is as it was then.
    if (c.head_commit_id !== null && Number(c.head_commit_id) === Number(c.commit_id)) continue;
    await rollbackContext(tx, c.context_id, c.name, c.commit_hash, now);
    restored.push(c.name);
  }
  await setProjectHead(tx, project.id, target.id);
  return { info: `Project ${project.name} rolled back to ${hash}`, auto_saved_commit_hash: autoSaved, restored_contexts: restored };
}
