import { setImmediate } from 'node:timers/promises';
import type { ResponseOf } from '../../../shared/operation.ts';
import type { rollbackContext } from '../../../shared/operations/contexts.ts';
import type { Context } from '../../../shared/projects.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { z } from 'zod';
import { ContextInput } from '../../../shared/projects.ts';
import { badRequestError, DomainError, notFoundError } from '../../domain-errors.ts';
import { RawJson } from '../../http/raw-json.ts';
import { applyFieldRules } from '../logs/field-rules.ts';
import { FieldSchema } from '../logs/field-schema.ts';
import { contextLogs, fieldsOf, otherContextsOf, saveFields } from '../logs/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { retargetTiles } from '../tiles/repository.ts';
import { checkReferences, renameReferencedContext, withDeleteActions, withUpdateActions } from './foreign-keys.ts';
import {
  contextsJson,
  countRows,
  createContext,
  deleteContexts,
  deleteRow,
  findContext,
  logsInProject,
  idsInContext,
  addMembers,
  rememberColumns,
  renameContext,
  insertRows,
  listRows,
  patchRow,
  rowEntries,
  rulesOf,
  type NewContext,
  type RowsFrom,
} from './repository.ts';
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
 * Creates a context; a name taken in the project is a 400. Without `is_versioned`, the project's setting
 * decides (a versioned project's contexts are versioned). `beforeCommit` runs in its transaction (the audit).
 */
export async function addContext(
  db: Conn,
  project: { id: number; is_versioned: number },
  input: NewContext,
  now: Date,
  beforeCommit?: (tx: Conn) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const created = await createContext(tx, project.id, { ...input, is_versioned: input.is_versioned ?? project.is_versioned === 1 }, now);
    if (!created) throw badRequestError(`A context named '${input.name}' already exists in the project.`);
    await beforeCommit?.(tx);
  });
}

/** Creates a context (as addContext) and answers it as the list would show it. */
export async function createContextIn(
  db: Conn,
  dialect: Dialect,
  project: { id: number; is_versioned: number },
  input: NewContext,
  now: Date,
  beforeCommit?: (tx: Conn) => Promise<void>,
): Promise<Context> {
  await addContext(db, project, input, now, beforeCommit);
  return contextAnswer(db, dialect, project.id, input.name);
}

/** A context as the list shows it, or undefined. */
export async function contextAnswer(db: Conn, dialect: Dialect, projectId: number, name: string): Promise<Context> {
  return (new RawJson(await contextsJson(db, dialect, projectId, { name })).parse() as Context[])[0]!;
}

/** One item of a batch create: its name as given (null when there is none), and what went wrong. */
export interface BatchItemError {
  index: number;
  name: string | null;
  error: string;
}

const issuesText = (error: z.ZodError) => error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');

/**
 * Creates each item of a batch on its own (logs-api.md §6): a taken name or an invalid item becomes an
 * entry of `errors` (with `already exists` for a taken name) and the others are still created.
 */
export async function createContextsBatch(
  db: Conn,
  project: { id: number; is_versioned: number },
  items: unknown[],
  now: Date,
  beforeCommit: (tx: Conn, name: string) => Promise<void>,
): Promise<{ info: string; created: string[]; errors: BatchItemError[] }> {
  const created: string[] = [];
  const errors: BatchItemError[] = [];
  for (const [index, item] of items.entries()) {
    const given = typeof item === 'string' ? { name: item } : item;
    const rawName = given !== null && typeof given === 'object' ? (given as { name?: unknown }).name : undefined;
    const name = typeof rawName === 'string' ? rawName : null;
    if (given === null || typeof given !== 'object' || Array.isArray(given)) {
      errors.push({ index, name, error: 'Must be a context name or a context object.' });
      continue;
    }
    const parsed = ContextInput.safeParse(given);
    if (!parsed.success) {
      errors.push({ index, name, error: issuesText(parsed.error) });
      continue;
    }
    try {
      await addContext(db, project, parsed.data, now, (tx) => beforeCommit(tx, parsed.data.name));
      created.push(parsed.data.name);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      errors.push({ index, name: parsed.data.name, error: error.message });
    }
  }
  const info = errors.length === 0 ? `Created ${created.length} context(s).` : `Created ${created.length} context(s); ${errors.length} could not be created.`;
  return { info, created, errors };
}

/**
 * Deletes a context (and, with `withChildren`, every context named `name/…`, even when `name` itself does
 * not exist); 404 `not found` when nothing was deleted, so of concurrent deletes of one name only one succeeds.
 */
export async function deleteContextsNamed(
  db: Conn,
  project: { id: number },
  name: string,
  withChildren: boolean,
  beforeCommit: (tx: Conn, deleted: { id: number; name: string }[]) => Promise<void>,
): Promise<string[]> {
  const deleted = await db.transaction().execute(async (tx) => {
    const rows = await deleteContexts(tx, project.id, name, withChildren);
    if (rows.length > 0) await beforeCommit(tx, rows);
    return rows;
  });
  if (deleted.length === 0) throw notFoundError(withChildren ? `Context '${name}' not found (nor any context under '${name}/').` : `Context '${name}' not found.`);
  return deleted.map((r) => r.name);
}

/**
 * Renames a context, and the project's dashboard tiles and foreign keys that name it follow; a taken name is 400 `already exists`
 * (checked first, and by the unique index under a race).
 */
export async function renameContextTo(
  db: Conn,
  context: { id: number; project_id: number; name: string },
  name: string,
  beforeCommit: (tx: Conn) => Promise<void>,
): Promise<void> {
  if (name === context.name) return;
  const taken = () => badRequestError(`A context named '${name}' already exists in the project.`);
  await db.transaction().execute(async (tx) => {
    if (await findContext(tx, context.project_id, name)) throw taken();
    if (!(await renameContext(tx, context.id, name))) throw taken();
    // Foreign keys naming the context follow it (foreign-keys.ts).
    await renameReferencedContext(tx, context.project_id, context.name, name);
    await retargetTiles(tx, context.project_id, context.name, name);
    await beforeCommit(tx);
  });
}

/**
 * `add_logs` (logs-api.md §6): the logs become members of the context (created if needed), with the same
 * ids; a log already in it is left as it is. Their fields join the context's fields (types inferred as on a
 * first write); a value that does not fit a field of the context, or a clash with its unique keys or its
 * refusal of duplicates, is a 400 and nothing changes. One transaction.
 */
export async function addLogsTo(db: Conn, project: { id: number; name: string; is_versioned: number }, contextName: string, ids: number[], now: Date): Promise<string> {
  const unique = [...new Set(ids)];
  return db.transaction().execute(async (tx) => {
    const found = await logsInProject(tx, project.id, unique);
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) throw badRequestError(`Logs not found in project '${project.name}': ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}.`);
    await createContext(tx, project.id, { name: contextName, is_versioned: project.is_versioned === 1 }, now);
    const context = await findContext(tx, project.id, contextName);
    if (!context) throw new Error(`Context ${contextName} was not created`);
    const already = await idsInContext(tx, context.id, unique);
    const joining = unique.filter((id) => !already.has(id)).map((id) => ({ id, entries: JSON.parse(found.get(id)!.entries) as Record<string, unknown> }));
    if (joining.length === 0) return `${unique.length} log(s) already in context '${contextName}'.`;
    const schema = new FieldSchema(await fieldsOf(tx, context.id));
    for (const log of joining) {
      const plan = schema.plan({ fields: log.entries, explicit: {}, inferUntyped: false });
      if ('error' in plan) throw badRequestError(`Log ${log.id} cannot join context '${contextName}': ${plan.error}`);
      schema.commit(plan);
      await saveFields(tx, context.id, plan.added, plan.updated, now);
    }
    const rules = rulesOf(context);
    await addMembers(tx, rules, joining);
    // The context's foreign keys hold for logs that join it as for logs written to it.
    await checkReferences(
      tx,
      rules,
      joining.map((l) => l.entries),
    );
    await rememberColumns(
      tx,
      rules,
      joining.map((l) => l.entries),
    );
    const info = `Added ${joining.length} log(s) to context '${contextName}'`;
    return already.size ? `${info}; ${already.size} already in it.` : `${info}.`;
  });
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

/** Adds rows in one transaction: a clash or a field rule broken anywhere adds none. */
export function addRows(db: Conn, context: ContextRow, entries: Record<string, unknown>[], now: Date): Promise<number[]> {
  return db.transaction().execute(async (tx) => {
    // The context's own rules (unique keys with their types, duplicates) speak first; a refusal rolls back.
    const ids = await insertRows(tx, rulesOf(context), entries, now);
    await applyFieldRules(
      tx,
      context.id,
      entries.map((e) => ({ current: null, entries: e })),
      now,
    );
    return ids;
  });
}

export async function updateRow(db: Conn, context: ContextRow & { name: string }, rowId: number, changes: Record<string, unknown>, now: Date): Promise<void> {
  const found = await db.transaction().execute(async (tx) => {
    const current = await rowEntries(tx, context.id, rowId);
    if (!current) return false;
    // Foreign keys that reference the log's contexts (this one and its home) take their on_update action (foreign-keys.ts).
    const home = await tx
      .selectFrom('context_rows as r')
      .innerJoin('contexts as c', 'c.id', 'r.context_id')
      .select(['c.id', 'c.name'])
      .where('r.id', '=', rowId)
      .executeTakeFirstOrThrow();
    const leaving = [{ context, ids: [rowId] }, ...(Number(home.id) === context.id ? [] : [{ context: { id: Number(home.id), name: home.name }, ids: [rowId] }])];
    await withUpdateActions(tx, context.project_id, leaving, () => patchRow(tx, rulesOf(context), rowId, changes, now));
    await applyFieldRules(tx, context.id, [{ current, entries: changes }], now);
    // The log's other contexts (its home, its memberships) keep their types and immutable fields too.
    for (const other of await otherContextsOf(tx, [rowId], context.id)) await applyFieldRules(tx, other.id, [{ current, entries: changes }], now, other.name);
    return true;
  });
  if (!found) throw notFoundError('Log not found.');
}

export async function removeRow(db: Conn, context: ContextRow & { name: string }, rowId: number): Promise<void> {
  // Foreign keys that reference the context take their on_delete action (foreign-keys.ts).
  const found = await db
    .transaction()
    .execute((tx) => withDeleteActions(tx, context.project_id, [{ context, ids: [rowId] }], () => deleteRow(tx, rulesOf(context), rowId)));
  if (!found) throw notFoundError('Log not found.');
}

/** Commits the rows changed since HEAD; only a versioned context has commits. */
export async function commit(db: Conn, context: { id: number; is_versioned: number }, message: string | null, now: Date): Promise<string> {
  if (!context.is_versioned) throw badRequestError('Context is not versioned.');
  return db.transaction().execute((tx) => createCommit(tx, context.id, message, now));
}

/** Moves the context to a commit in the caller's transaction (which also records the idempotent answer). */
export async function rollbackTo(tx: Conn, context: ContextRow & { name: string }, hash: string, now: Date): Promise<ResponseOf<typeof rollbackContext>> {
  // Values the rollback takes away take the on_delete action of the keys referencing them, and the logs the
  // context has then are held to its own keys (a 400 rolls everything back) (foreign-keys.ts).
  const autoSaved = await withDeleteActions(tx, context.project_id, [{ context, ids: null }], () => rollback(tx, context.id, context.name, hash, now));
  const rules = rulesOf(context);
  if (rules.foreign_keys.length > 0) {
    await checkReferences(
      tx,
      rules,
      (await contextLogs(tx, context.id)).map((r) => JSON.parse(r.entries) as Record<string, unknown>),
    );
  }
  return { status: 'success', message: `Context ${context.name} rolled back to ${hash}`, auto_saved_commit_hash: autoSaved };
}
