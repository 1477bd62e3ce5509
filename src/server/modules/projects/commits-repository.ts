import { createHash } from 'node:crypto';
import type { Conn } from '../../db/connection.ts';
import { sql } from 'kysely';
import { childrenOf } from '../contexts/commits-repository.ts';
import { memberChangesSinceHead } from '../contexts/repository.ts';

/**
 * Versions of a project. A project commit holds one commit of each versioned context of the project
 * (project_commit_contexts); the contexts' own commits store the rows (contexts/commits-repository.ts).
 * History is a DAG as a context's is: a rollback moves the project's HEAD, later commits stay, and the
 * next commit after a rollback starts a branch.
 */

/** The project's versioned contexts in name order, with their HEAD. */
export function versionedContexts(db: Conn, projectId: number) {
  return db.selectFrom('contexts').select(['id', 'name', 'head_commit_id']).where('project_id', '=', projectId).where('is_versioned', '=', 1).orderBy('name').execute();
}

/** Whether any versioned context of the project has rows changed, or member logs added or removed, since its HEAD. */
export async function hasPendingChanges(db: Conn, projectId: number): Promise<boolean> {
  const row = await db
    .selectFrom('pending_changes as p')
    .innerJoin('contexts as c', 'c.id', 'p.context_id')
    .select('p.row_id')
    .where('c.project_id', '=', projectId)
    .limit(1)
    .executeTakeFirst();
  if (row) return true;
  const members = await sql<{ n: number }>`select mch.n from ${memberChangesSinceHead({ projectId })} as mch`.execute(db);
  return members.rows.length > 0;
}

export async function projectHead(db: Conn, projectId: number): Promise<{ id: number; hash: string } | null> {
  const row = await db
    .selectFrom('projects as p')
    .innerJoin('project_commits as pc', 'pc.id', 'p.head_commit_id')
    .select(['pc.id', 'pc.hash'])
    .where('p.id', '=', projectId)
    .executeTakeFirst();
  return row ? { id: Number(row.id), hash: row.hash } : null;
}

/** Hash of a context commit by id. */
export async function contextCommitHash(db: Conn, commitId: number): Promise<string> {
  return (await db.selectFrom('commits').select('hash').where('id', '=', commitId).executeTakeFirstOrThrow()).hash;
}

/**
 * Records a project commit holding `contexts` (context id → its commit) and makes it the project's
 * HEAD. The hash covers the parent, the contexts' commit hashes, the time and the message.
 */
export async function insertProjectCommit(
  tx: Conn,
  projectId: number,
  message: string | null,
  contexts: { contextId: number; commitId: number; commitHash: string }[],
  now: Date,
): Promise<string> {
  const head = await projectHead(tx, projectId);
  const at = now.toISOString();
  const prevHash = head?.hash ?? null;
  const held = contexts.map((c) => `${c.contextId}:${c.commitHash}`).join(',');
  const hash = createHash('sha256')
    .update(`project\n${prevHash ?? ''}\n${held}\n${at}\n${message ?? ''}\n${projectId}`)
    .digest('hex');
  const commit = await tx
    .insertInto('project_commits')
    .values({ project_id: projectId, hash, prev_hash: prevHash, message, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('project_commit_contexts')
    .values(contexts.map((c) => ({ project_commit_id: commit.id, context_id: c.contextId, commit_id: c.commitId })))
    .execute();
  await tx.updateTable('projects').set({ head_commit_id: commit.id }).where('id', '=', projectId).execute();
  return hash;
}

export function findProjectCommit(db: Conn, projectId: number, hash: string) {
  return db.selectFrom('project_commits').select(['id', 'hash']).where('project_id', '=', projectId).where('hash', '=', hash).executeTakeFirst();
}

/** The contexts a project commit holds (those still there), in name order, with the commit of each. */
export function contextsOfProjectCommit(db: Conn, projectCommitId: number) {
  return db
    .selectFrom('project_commit_contexts as pcc')
    .innerJoin('contexts as c', 'c.id', 'pcc.context_id')
    .innerJoin('commits as k', 'k.id', 'pcc.commit_id')
    .select(['c.id as context_id', 'c.name', 'c.head_commit_id', 'k.id as commit_id', 'k.hash as commit_hash'])
    .where('pcc.project_commit_id', '=', projectCommitId)
    .orderBy('c.name')
    .execute();
}

export async function setProjectHead(tx: Conn, projectId: number, projectCommitId: number): Promise<void> {
  await tx.updateTable('projects').set({ head_commit_id: projectCommitId }).where('id', '=', projectId).execute();
}

/** Newest first, with the DAG links both ways and the contexts each holds. */
export async function listProjectCommits(db: Conn, projectId: number) {
  const [commits, held, project] = await Promise.all([
    db.selectFrom('project_commits').select(['id', 'hash', 'prev_hash', 'message', 'created_at']).where('project_id', '=', projectId).orderBy('id', 'desc').execute(),
    db
      .selectFrom('project_commit_contexts as pcc')
      .innerJoin('project_commits as pc', 'pc.id', 'pcc.project_commit_id')
      .innerJoin('contexts as c', 'c.id', 'pcc.context_id')
      .innerJoin('commits as k', 'k.id', 'pcc.commit_id')
      .select(['pcc.project_commit_id', 'c.name', 'k.hash'])
      .where('pc.project_id', '=', projectId)
      .orderBy('c.name')
      .execute(),
    db.selectFrom('projects').select('head_commit_id').where('id', '=', projectId).executeTakeFirstOrThrow(),
  ]);
  const contexts = new Map<number, { name: string; commit_hash: string }[]>();
  for (const h of held) {
    const id = Number(h.project_commit_id);
    contexts.set(id, [...(contexts.get(id) ?? []), { name: h.name, commit_hash: h.hash }]);
  }
  const children = childrenOf(commits);
  return commits.map((c) => ({
    commit_hash: c.hash,
    commit_message: c.message,
    created_at: c.created_at,
    type: 'project' as const,
    prev_commit_hash: c.prev_hash,
    next_commit_hash: children(c.hash),
    is_head: project.head_commit_id !== null && Number(c.id) === Number(project.head_commit_id),
    contexts: contexts.get(Number(c.id)) ?? [],
  }));
}
