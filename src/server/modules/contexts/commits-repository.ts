import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Conn } from '../../db/connection.ts';
import { badRequestError } from '../../domain-errors.ts';
import { inContext, memberChangesSinceHead, rehomeRow, type RowsFrom } from './repository.ts';

/**
 * Versions of a context. A commit stores only the rows changed since its parent (commit_rows, with
 * NULL entries for a deletion); the rows at a commit are the newest version of each row along its
 * ancestry. History is a DAG: rolling back moves HEAD, later commits stay, and the next commit after
 * a rollback starts a branch.
 */

/** `with recursive` table `chain`: the commits from `commitId` back to the first, `depth` 0 at `commitId`. */
function chainFrom(commitId: number) {
  return sql`chain (id, prev_hash, depth) as (
      select id, prev_hash, 0 from commits where id = ${commitId}
      union all
      select c.id, c.prev_hash, chain.depth + 1 from commits c join chain on c.hash = chain.prev_hash
    )`;
}

/** The rows as they are at `commitId`: newest version of each row id along the ancestry, deletions dropped. */
function rowsAt(commitId: number) {
  return sql<{ row_id: number; entries: string; unique_key: string | null; content_hash: string | null; created_at: string; updated_at: string }>`
    with recursive ${chainFrom(commitId)},
    ranked as (
      select cr.row_id, cr.entries, cr.unique_key, cr.content_hash, cr.created_at, cr.updated_at,
             row_number() over (partition by cr.row_id order by chain.depth) as rn
      from commit_rows cr join chain on cr.commit_id = chain.id
    )
    select row_id, entries, unique_key, content_hash, created_at, updated_at from ranked where rn = 1 and entries is not null`;
}

export async function createCommit(tx: Conn, contextId: number, message: string | null, now: Date): Promise<string> {
  const context = await tx.selectFrom('contexts').select(['head_commit_id']).where('id', '=', contextId).executeTakeFirstOrThrow();
  const head = context.head_commit_id === null ? null : await tx.selectFrom('commits').select('hash').where('id', '=', context.head_commit_id).executeTakeFirst();
  const changed = await tx
    .selectFrom('pending_changes as p')
    // A row re-homed elsewhere left this context: a deletion here.
    .leftJoin('context_rows as r', (join) => join.onRef('r.id', '=', 'p.row_id').on('r.context_id', '=', contextId))
    .select(['p.row_id', 'r.entries'])
    .where('p.context_id', '=', contextId)
    .orderBy('p.row_id')
    .execute();
  const digest = createHash('sha256');
  for (const c of changed) digest.update(`${c.row_id}\u0000${c.entries ?? ''}\u0001`);
  const members = await tx
    .selectFrom('context_log_members')
    .select(['row_id', 'unique_key', 'content_hash'])
    .where('context_id', '=', contextId)
    .orderBy('row_id')
    .execute();
  for (const m of members) digest.update(`m${m.row_id}\u0001`);
  const at = now.toISOString();
  const prevHash = head?.hash ?? null;
  const hash = createHash('sha256')
    .update(`${prevHash ?? ''}\n${digest.digest('hex')}\n${at}\n${message ?? ''}\n${contextId}`)
    .digest('hex');
  const { n } = await tx
    .selectFrom('context_rows as r')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(inContext(contextId))
    .executeTakeFirstOrThrow();
  const commit = await tx
    .insertInto('commits')
    .values({ context_id: contextId, hash, prev_hash: prevHash, message, row_count: Number(n), created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`
    insert into commit_rows (commit_id, row_id, entries, unique_key, content_hash, created_at, updated_at)
    select ${commit.id}, p.row_id, r.entries, r.unique_key, r.content_hash, r.created_at, r.updated_at
    from pending_changes p left join context_rows r on r.id = p.row_id and r.context_id = ${contextId}
    where p.context_id = ${contextId}`.execute(tx);
  // The member logs the context has now (a full set per commit: membership is small next to content).
  await sql`
    insert into commit_members (commit_id, row_id, unique_key, content_hash)
    select ${commit.id}, m.row_id, m.unique_key, m.content_hash from context_log_members m where m.context_id = ${contextId}`.execute(tx);
  await tx.deleteFrom('pending_changes').where('context_id', '=', contextId).execute();
  await tx.updateTable('contexts').set({ head_commit_id: commit.id }).where('id', '=', contextId).execute();
  return hash;
}

/** Rows changed since HEAD, or member logs added or removed since HEAD (repository.ts memberChangesSinceHead). */
export async function hasPendingChanges(tx: Conn, contextId: number): Promise<boolean> {
  if (await tx.selectFrom('pending_changes').select('row_id').where('context_id', '=', contextId).limit(1).executeTakeFirst()) return true;
  const members = await sql<{ n: number }>`select mch.n from ${memberChangesSinceHead({ contextId })} as mch`.execute(tx);
  return members.rows.length > 0;
}

export function findCommit(db: Conn, contextId: number, hash: string) {
  return db.selectFrom('commits').select(['id', 'hash']).where('context_id', '=', contextId).where('hash', '=', hash).executeTakeFirst();
}

/**
 * Moves HEAD to the commit and restores its rows with their ids. Uncommitted changes are committed
 * first ("Auto-saved before rollback to …") so a rollback can itself be undone.
 *
 * Membership (logs in several contexts): a home row the commit does not hold but that is a member of
 * another context moves home there instead of being deleted; a row the commit holds that now lives in
 * another context becomes a member here (its content is not touched: it is versioned by its home);
 * memberships of restored rows in other contexts are kept; and the context's member logs become the
 * commit's (those deleted since are skipped, as are those whose keys now clash).
 */
export async function rollback(tx: Conn, contextId: number, contextName: string, hash: string, now: Date): Promise<string | null> {
  const target = await findCommit(tx, contextId, hash);
  if (!target) throw badRequestError(`Commit hash ${hash} not found for context ${contextName}.`);
  let autoSaved: string | null = null;
  if (await hasPendingChanges(tx, contextId)) autoSaved = await createCommit(tx, contextId, `Auto-saved before rollback to ${hash}`, now);
  // Home rows leaving the context but members elsewhere keep living there. Building the target's rows costs
  // a sort of every row of its history (~250 ms for 100 000 rows), and most contexts' rows are members
  // nowhere: that is asked first, by index (~11 ms). The same for the members below.
  if (await homeRowsAreMembers(tx, contextId)) {
    const leaving = await sql<{ id: number }>`
      select r.id from context_rows r
      where r.context_id = ${contextId}
        and not exists (select 1 from (${rowsAt(target.id)}) t where t.row_id = r.id)
        and exists (select 1 from context_log_members m where m.row_id = r.id)`.execute(tx);
    for (const r of leaving.rows) await rehomeRow(tx, Number(r.id), contextId);
  }
  // Deleting and inserting the home rows again would cascade to their memberships elsewhere: keep those.
  const kept = await tx
    .selectFrom('context_log_members as m')
    .innerJoin('context_rows as r', 'r.id', 'm.row_id')
    .select(['m.context_id', 'm.row_id', 'm.unique_key', 'm.content_hash'])
    .where('r.context_id', '=', contextId)
    .execute();
  await tx.deleteFrom('context_rows').where('context_id', '=', contextId).execute();
  await sql`
    insert into context_rows (id, context_id, entries, unique_key, content_hash, created_at, updated_at)
    select row_id, ${contextId}, entries, unique_key, content_hash, created_at, updated_at from (${rowsAt(target.id)}) restored
    where not exists (select 1 from context_rows x where x.id = restored.row_id)`.execute(tx);
  await tx.deleteFrom('context_log_members').where('context_id', '=', contextId).execute();
  // The commit's members, and its rows that live in another context now, are members again (when they still exist).
  await sql`
    insert into context_log_members (context_id, row_id, unique_key, content_hash)
    select ${contextId}, cm.row_id, cm.unique_key, cm.content_hash from commit_members cm
    join context_rows r on r.id = cm.row_id
    where cm.commit_id = ${target.id} and r.context_id <> ${contextId}
    on conflict do nothing`.execute(tx);
  if (await historyRowsLiveElsewhere(tx, contextId, target.id)) {
    await sql`
      insert into context_log_members (context_id, row_id, unique_key, content_hash)
      select ${contextId}, t.row_id, t.unique_key, t.content_hash from (${rowsAt(target.id)}) t
      join context_rows r on r.id = t.row_id
      where r.context_id <> ${contextId}
      on conflict do nothing`.execute(tx);
  }
  for (let i = 0; i < kept.length; i += 500) {
    const chunk = kept.slice(i, i + 500);
    const present = await tx
      .selectFrom('context_rows')
      .select('id')
      .where(
        'id',
        'in',
        chunk.map((k) => k.row_id),
      )
      .where('context_id', '=', contextId)
      .execute();
    const ids = new Set(present.map((p) => Number(p.id)));
    const back = chunk.filter((k) => ids.has(Number(k.row_id)));
    if (back.length)
      await tx
        .insertInto('context_log_members')
        .values(back)
        .onConflict((oc) => oc.doNothing())
        .execute();
  }
  await tx.updateTable('contexts').set({ head_commit_id: target.id }).where('id', '=', contextId).execute();
  return autoSaved;
}

/** Whether any row living in the context is also a member of a context. */
async function homeRowsAreMembers(tx: Conn, contextId: number): Promise<boolean> {
  const found = await sql`
    select 1 from context_rows r join context_log_members m on m.row_id = r.id
    where r.context_id = ${contextId} limit 1`.execute(tx);
  return found.rows.length > 0;
}

/** Whether any row of the history up to `commitId` lives in another context now (it was re-homed there). */
async function historyRowsLiveElsewhere(tx: Conn, contextId: number, commitId: number): Promise<boolean> {
  const found = await sql`
    with recursive ${chainFrom(commitId)}
    select 1 from commit_rows cr join chain on cr.commit_id = chain.id join context_rows r on r.id = cr.row_id
    where r.context_id <> ${contextId} limit 1`.execute(tx);
  return found.rows.length > 0;
}

/**
 * The logs a context had at a commit: its rows as they were, and its member logs of then that still exist,
 * as they are now (a member's content is versioned by its home context).
 */
function logsAt(commitId: number) {
  return sql<{ row_id: number; entries: string; created_at: string; updated_at: string }>`
    select row_id, entries, created_at, updated_at from (${rowsAt(commitId)}) own
    union all
    select cm.row_id, r.entries, r.created_at, r.updated_at from commit_members cm join context_rows r on r.id = cm.row_id
    where cm.commit_id = ${commitId}`;
}

/** Logs of a commit in row id order (read-only), shaped as listRows answers them. */
export async function rowsAtCommit(db: Conn, commitId: number, from: RowsFrom, limit: number) {
  const after = from.after === null ? sql`` : sql`where row_id > ${from.after}`;
  const result = await sql<{ id: number; entries: string; created_at: string; updated_at: string }>`
    select row_id as id, entries, created_at, updated_at from (${logsAt(commitId)}) at_commit ${after}
    order by row_id limit ${limit} offset ${from.offset}`.execute(db);
  return result.rows;
}

export async function countRowsAtCommit(db: Conn, commitId: number): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from (${logsAt(commitId)}) at_commit`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The commits that follow each commit in the DAG (its children), oldest first, from a list of commits
 * newest first. Each answer gets its own array.
 */
export function childrenOf(commits: readonly { hash: string; prev_hash: string | null }[]): (hash: string) => string[] {
  const next = new Map<string, string[]>();
  for (const c of commits) if (c.prev_hash) next.set(c.prev_hash, [c.hash, ...(next.get(c.prev_hash) ?? [])]);
  return (hash) => [...(next.get(hash) ?? [])];
}

/** Newest first, with the DAG links both ways. */
export async function listCommits(db: Conn, contextId: number) {
  const [commits, context] = await Promise.all([
    db
      .selectFrom('commits')
      .select(['id', 'hash', 'prev_hash', 'message', 'row_count', 'created_at'])
      .where('context_id', '=', contextId)
      .orderBy('id', 'desc')
      .execute(),
    db.selectFrom('contexts').select('head_commit_id').where('id', '=', contextId).executeTakeFirstOrThrow(),
  ]);
  const children = childrenOf(commits);
  return commits.map((c) => ({
    commit_hash: c.hash,
    commit_message: c.message,
    created_at: c.created_at,
    type: 'context' as const,
    prev_commit_hash: c.prev_hash,
    next_commit_hash: children(c.hash),
    next_commit_hashes: children(c.hash),
    row_count: c.row_count,
    is_head: c.id === context.head_commit_id,
  }));
}
