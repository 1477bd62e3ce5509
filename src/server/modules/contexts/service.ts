import { setImmediate } from 'node:timers/promises';
import type { ResponseOf } from '../../../shared/operation.ts';
import type { rollbackContext } from '../../../shared/operations/contexts.ts';
import type { Context } from '../../../shared/projects.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError, notFoundError } from '../../domain-errors.ts';
import { RawJson } from '../../http/raw-json.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { contextsJson, countRows, createContext, deleteRow, findContext, insertRows, listRows, patchRow, rulesOf, type NewContext, type RowsFrom } from './repository.ts';
import { countRowsAtCommit, createCommit, findCommit, rollback, rowsAtCommit } from './commits-repository.ts';

// What the contexts routes (and the starter project) do with a context, its rows and its history.

/** The context of a project of the scope, or not found (another tenant's does not exist for you). */
export async function contextInScopeOr404(db: Conn, scope: Scope, projectName: string, contextName: string) {
  const project = await projectInScopeOr404(db, scope, projectName);
  const context = await findContext(db, project.id, contextName);
  if (!context) throw notFoundError('Context not found.');
  return context;
}

/**
 * Creates a context and answers it as the list would show it; a name taken in the project is a 400.
 * Without `is_versioned`, the project's setting decides (a versioned project's contexts are versioned).
 */
export async function createContextIn(
  db: Conn,
  dialect: Dialect,
  project: { id: number; is_versioned: number },
  input: NewContext,
  now: Date,
  beforeCommit?: (tx: Conn) => Promise<void>,
): Promise<Context> {
  await db.transaction().execute(async (tx) => {
    const created = await createContext(tx, project.id, { ...input, is_versioned: input.is_versioned ?? project.is_versioned === 1 }, now);
    if (!created) throw badRequestError('A context with this name already exists in the project.');
    await beforeCommit?.(tx);
  });
  return (new RawJson(await contextsJson(db, dialect, project.id, { name: input.name })).parse() as Context[])[0]!;
}

/** A new context holding `rows`, in the caller's transaction (the starter project). */
export async function createContextWithRows(tx: Conn, projectId: number, name: string, rows: Record<string, unknown>[], now: Date): Promise<void> {
  await createContext(tx, projectId, { name }, now);
  const context = await findContext(tx, projectId, name);
  if (!context) throw new Error(`Context ${name} was not created`);
  await insertRows(tx, rulesOf(context), rows, now);
}

/**
 * Rows a page is read in at a time. SQLite reads synchronously, so a whole page of the largest rows
 * (1000 × 64 KB) read, parsed and serialized at once held the event loop for seconds; a batch is at
 * most 50 × 64 KB, and the loop turns between batches so other requests are answered meanwhile
 * (largest-read.test.ts).
 */
const ROWS_PER_BATCH = 50;

type StoredRow = { id: number; entries: string; created_at: string; updated_at: string };

/** A row as the API shows it: its entries are spliced in as the JSON text they were stored as, not parsed and serialized again. */
const rowJson = (r: StoredRow) =>
  `{"id":${Number(r.id)},"entries":${r.entries},"created_at":${JSON.stringify(r.created_at)},"updated_at":${JSON.stringify(r.updated_at)}}`;

/**
 * A page of a context's rows (`{logs, count}`): as they are now, or as they were at `commitHash`. Batches
 * after the first continue after the last row id read, so a row deleted meanwhile shifts nothing.
 */
export async function rowsPage(db: Conn, context: { id: number; name: string }, commitHash: string | undefined, offset: number, limit: number): Promise<RawJson> {
  let count: number;
  let read: (from: RowsFrom, limit: number) => Promise<StoredRow[]>;
  if (commitHash) {
    const commit = await findCommit(db, context.id, commitHash);
    if (!commit) throw badRequestError(`Commit hash ${commitHash} not found for context ${context.name}.`);
    count = await countRowsAtCommit(db, commit.id);
    read = (from, n) => rowsAtCommit(db, commit.id, from, n);
  } else {
    count = await countRows(db, context.id);
    read = (from, n) => listRows(db, context.id, from, n);
  }
  const rows: string[] = [];
  let from: RowsFrom = { offset, after: null };
  while (rows.length < limit) {
    if (rows.length > 0) await setImmediate();
    const wanted = Math.min(ROWS_PER_BATCH, limit - rows.length);
    const batch = await read(from, wanted);
    for (const r of batch) rows.push(rowJson(r));
    if (batch.length < wanted) break;
    from = { offset: 0, after: Number(batch[batch.length - 1]!.id) };
  }
  return new RawJson(`{"logs":[${rows.join(',')}],"count":${count}}`);
}

type ContextRow = Parameters<typeof rulesOf>[0];

/** Adds rows in one transaction: a clash anywhere adds none. */
export function addRows(db: Conn, context: ContextRow, entries: Record<string, unknown>[], now: Date): Promise<number[]> {
  return db.transaction().execute((tx) => insertRows(tx, rulesOf(context), entries, now));
}

export async function updateRow(db: Conn, context: ContextRow, rowId: number, changes: Record<string, unknown>, now: Date): Promise<void> {
  const found = await db.transaction().execute((tx) => patchRow(tx, rulesOf(context), rowId, changes, now));
  if (!found) throw notFoundError('Log not found.');
}

export async function removeRow(db: Conn, context: ContextRow, rowId: number): Promise<void> {
  const found = await db.transaction().execute((tx) => deleteRow(tx, rulesOf(context), rowId));
  if (!found) throw notFoundError('Log not found.');
}

/** Commits the rows changed since HEAD; only a versioned context has commits. */
export async function commit(db: Conn, context: { id: number; is_versioned: number }, message: string | null, now: Date): Promise<string> {
  if (!context.is_versioned) throw badRequestError('Context is not versioned.');
  return db.transaction().execute((tx) => createCommit(tx, context.id, message, now));
}

/** Moves the context to a commit in the caller's transaction (which also records the idempotent answer). */
export async function rollbackTo(tx: Conn, context: { id: number; name: string }, hash: string, now: Date): Promise<ResponseOf<typeof rollbackContext>> {
  const autoSaved = await rollback(tx, context.id, context.name, hash, now);
  return { status: 'success', message: `Context ${context.name} rolled back to ${hash}`, auto_saved_commit_hash: autoSaved };
}
