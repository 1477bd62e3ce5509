import type { ResponseOf } from '../../../shared/operation.ts';
import type { rollbackContext } from '../../../shared/operations/contexts.ts';
import type { Context } from '../../../shared/projects.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError, notFoundError } from '../../domain-errors.ts';
import { RawJson } from '../../http/raw-json.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { contextsJson, createContext, deleteRow, findContext, insertRows, listRows, patchRow, rulesOf, type NewContext } from './repository.ts';
import { createCommit, findCommit, rollback, rowsAtCommit } from './commits-repository.ts';

// What the contexts routes (and the starter project) do with a context, its rows and its history.

/** The context of a project of the scope, or not found (another tenant's does not exist for you). */
export async function contextInScopeOr404(db: Conn, scope: Scope, projectName: string, contextName: string) {
  const project = await projectInScopeOr404(db, scope, projectName);
  const context = await findContext(db, project.id, contextName);
  if (!context) throw notFoundError('Context not found.');
  return context;
}

/** Creates a context and answers it as the list would show it; a name taken in the project is a 400. */
export async function createContextIn(db: Conn, dialect: Dialect, projectId: number, input: NewContext, now: Date): Promise<Context> {
  const created = await createContext(db, projectId, input, now);
  if (!created) throw badRequestError('A context with this name already exists in the project.');
  return (new RawJson(await contextsJson(db, dialect, projectId, { name: input.name })).parse() as Context[])[0]!;
}

/** A new context holding `rows`, in the caller's transaction (the starter project). */
export async function createContextWithRows(tx: Conn, projectId: number, name: string, rows: Record<string, unknown>[], now: Date): Promise<void> {
  await createContext(tx, projectId, { name }, now);
  const context = await findContext(tx, projectId, name);
  if (!context) throw new Error(`Context ${name} was not created`);
  await insertRows(tx, rulesOf(context), rows, now);
}

const parseEntries = (text: string) => JSON.parse(text) as Record<string, unknown>;

/** A page of a context's rows: as they are now, or as they were at `commitHash`. */
export async function rowsPage(db: Conn, context: { id: number; name: string }, commitHash: string | undefined, offset: number, limit: number) {
  if (commitHash) {
    const commit = await findCommit(db, context.id, commitHash);
    if (!commit) throw badRequestError(`Commit hash ${commitHash} not found for context ${context.name}.`);
    const { rows, count } = await rowsAtCommit(db, commit.id, offset, limit);
    return { logs: rows.map((r) => ({ id: Number(r.row_id), entries: parseEntries(r.entries), created_at: r.created_at, updated_at: r.updated_at })), count };
  }
  const { rows, count } = await listRows(db, context.id, offset, limit);
  return { logs: rows.map((r) => ({ id: r.id, entries: parseEntries(r.entries), created_at: r.created_at, updated_at: r.updated_at })), count };
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
