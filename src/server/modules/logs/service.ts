import type { z } from 'zod';
import type { CreateLogsBody, DeleteLogsBody, LogContextRefType, UpdateLogsBody } from '../../../shared/logs.ts';
import { FilterSyntaxError, parseFilter, type FilterNode } from '../../../shared/logs-filter/index.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { scopeKey } from '../../db/scope.ts';
import { badRequestError, DomainError, invalidFields, notFoundError } from '../../domain-errors.ts';
import { checkingReferencesOnce, ForeignKeyViolation, onlyRemovingValues, withDeleteActions, withUpdateActions } from '../contexts/foreign-keys.ts';
import { createContext, deleteRow, findContext, insertRows, replaceRow, rulesOf, type ContextRules } from '../contexts/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { recomputeDerived } from './derived.ts';
import { FieldSchema, splitEntry, type SplitEntry } from './field-schema.ts';
import { fieldsOf, logsByIds, saveFields, type FieldChange } from './repository.ts';
import * as logs from './repository.ts';

// What the logs API does (logs-api.md §4). A log is a row of its context: writes go through the
// contexts repository's row functions, so unique keys, duplicates, counters and versions apply alike.

type ContextRow = NonNullable<Awaited<ReturnType<typeof findContext>>>;

/** The filter's tree, or a 422 that says where the syntax breaks and what was expected there. */
export function parseOr422(text: string | undefined, loc: string[]): FilterNode | null {
  if (text === undefined) return null;
  try {
    return parseFilter(text);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error, loc);
    throw error;
  }
}

export function filterError(error: FilterSyntaxError, loc: string[]): DomainError {
  return invalidFields([{ type: 'filter_syntax', loc, msg: error.message, ctx: { position: error.position, expected: error.expected } }]);
}

/** The name a request's context stands for: `{"name": C}`, `C`, or null (the default context `""`). */
export function contextNameOf(ref: LogContextRefType | string[] | undefined): string {
  if (ref === undefined) return '';
  if (typeof ref === 'string') return ref;
  if (Array.isArray(ref)) return ref[0] ?? '';
  return ref.name ?? '';
}

/** The context a write goes to, created on first write with the properties the object form gives (never its parents). */
export async function contextForWrite(db: Conn, projectId: number, ref: LogContextRefType, now: Date): Promise<ContextRow> {
  const name = contextNameOf(ref);
  const existing = await findContext(db, projectId, name);
  if (existing) return existing;
  const props = typeof ref === 'object' && ref !== null ? ref : {};
  await createContext(db, projectId, { ...props, name }, now);
  const created = await findContext(db, projectId, name);
  if (!created) throw new Error(`Context ${name} was not created`);
  return created;
}

/** The context a read names; null for a default context nothing was written to yet (it reads as empty). */
export async function contextForRead(db: Conn, projectId: number, projectName: string, name: string): Promise<ContextRow | null> {
  const context = await findContext(db, projectId, name);
  if (!context && name !== '') throw notFoundError(`Context '${name}' not found for project '${projectName}'.`);
  return context ?? null;
}

/** A write's whole-request failure (a unique key clash, a refused duplicate, a missing key column) is a 400, as the contract has it. */
function asBadRequest(error: unknown): unknown {
  if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'invalid-field')) return badRequestError(error.message);
  return error;
}

function mergeChanges(list: { added: FieldChange[]; updated: FieldChange[] }[]) {
  return { added: list.flatMap((c) => c.added), updated: list.flatMap((c) => c.updated) };
}

interface Accepted {
  index: number;
  entry: SplitEntry;
  changes: { added: FieldChange[]; updated: FieldChange[] };
}

// ---- POST /v0/logs --------------------------------------------------------------------------

export async function createLogs(db: Conn, dialect: Dialect, scope: Scope, body: z.output<typeof CreateLogsBody>, now: Date) {
  const project = await projectInScopeOr404(db, scope, body.project_name);
  const existing = await findContext(db, project.id, contextNameOf(body.context));
  const batch = body.entries === undefined ? [] : Array.isArray(body.entries) ? body.entries : [body.entries];
  const schema = new FieldSchema(existing ? await fieldsOf(db, existing.id) : []);
  const accepted: Accepted[] = [];
  const failed: { index: number; error: string }[] = [];
  for (const [index, raw] of batch.entries()) {
    const entry = splitEntry(raw);
    if (typeof entry === 'string') {
      failed.push({ index, error: entry });
      continue;
    }
    const changes = schema.plan(entry);
    if ('error' in changes) failed.push({ index, error: changes.error });
    else {
      schema.commit(changes);
      accepted.push({ index, entry, changes });
    }
  }
  // A refused request changes nothing: the context is created in the transaction that writes the logs.
  if (batch.length > 0 && accepted.length === 0) throw badRequestError(failed[0]!.error);
  // The context the last write used: its rules name the keys and counters of the answer.
  let used: ContextRow | undefined;
  const write = async (tx: Conn, group: Accepted[]) => {
    const context = await contextForWrite(tx, project.id, body.context, now);
    used = context;
    const ids = await insertWithFields(tx, rulesOf(context), group, now);
    // Derived columns of the context (POST /v0/logs/derived), computed for the new logs when asked.
    if (body.recompute_derived) await recomputeDerived(tx, dialect, context.id, ids, now);
    return ids;
  };

  const ids: number[] = [];
  if (body.on_duplicate === 'skip') {
    // Each entry on its own: a colliding one is reported and the others are written.
    for (const a of accepted) {
      try {
        ids.push(...(await db.transaction().execute((tx) => write(tx, [a]))));
      } catch (error) {
        if (!(error instanceof ForeignKeyViolation || (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'invalid-field')))) throw error;
        failed.push({ index: a.index, error: error.message });
      }
    }
    failed.sort((x, y) => x.index - y.index);
    if (batch.length > 0 && ids.length === 0) throw badRequestError(failed[0]!.error);
  } else {
    try {
      ids.push(...(await db.transaction().execute((tx) => write(tx, accepted))));
    } catch (error) {
      throw asBadRequest(error);
    }
  }
  // No write ran (on_duplicate skip with no entries): the request still creates the context.
  const context = used ?? (await contextForWrite(db, project.id, body.context, now));
  return { info: 'Logs created successfully!', log_event_ids: ids, ...(await keysOf(db, rulesOf(context), ids)), ...(failed.length ? { failed } : {}) };
}

async function insertWithFields(tx: Conn, rules: ContextRules, accepted: Accepted[], now: Date): Promise<number[]> {
  const changes = mergeChanges(accepted.map((a) => a.changes));
  await saveFields(tx, rules.id, changes.added, changes.updated, now);
  return insertRows(
    tx,
    rules,
    accepted.map((a) => a.entry.fields),
    now,
  );
}

/** `row_ids` and `auto_counting` of the answer: the key and counter values each new log ended up with. */
async function keysOf(db: Conn, rules: ContextRules, ids: number[]) {
  const names = Object.keys(rules.unique_keys);
  const counters = Object.keys(rules.auto_counting);
  if (ids.length === 0 || (names.length === 0 && counters.length === 0)) return { row_ids: null, auto_counting: {} };
  const stored = new Map((await logs.contextLogs(db, rules.id, ids)).map((r) => [r.id, JSON.parse(r.entries) as Record<string, unknown>]));
  const entriesOf = (id: number) => stored.get(id) ?? {};
  return {
    row_ids: names.length ? { names, ids: ids.map((id) => names.map((n) => entriesOf(id)[n] ?? null)) } : null,
    auto_counting: Object.fromEntries(counters.map((c) => [c, ids.map((id) => entriesOf(id)[c] ?? null)])),
  };
}

// ---- PUT /v0/logs ---------------------------------------------------------------------------

export async function updateLogs(db: Conn, scope: Scope, body: z.output<typeof UpdateLogsBody>, now: Date) {
  const ids = [...new Set(Array.isArray(body.logs) ? body.logs : [body.logs])];
  const changesFor = (i: number) => (Array.isArray(body.entries) ? body.entries[i] : body.entries);
  if (Array.isArray(body.entries) && body.entries.length !== (Array.isArray(body.logs) ? body.logs.length : 1)) {
    throw badRequestError(
      `entries has ${body.entries.length} items but logs has ${Array.isArray(body.logs) ? body.logs.length : 1}: give one object for all logs or one per log.`,
    );
  }
  const found = new Map((await logsByIds(db, scopeKey(scope), ids)).map((r) => [r.id, r]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw notFoundError(`Logs not found: ${missing.join(', ')}.`);
  if (new Set([...found.values()].map((r) => r.project_id)).size > 1) throw badRequestError('The logs belong to different projects: update them one project at a time.');
  if (body.entries === undefined) return { info: 'Nothing to update.', log_event_ids: ids, modified_keys: [], failed: [] };

  // Each log is checked against the fields of every context it is in (its home and its memberships): a value
  // one of them types otherwise, or a field one of them declares immutable, fails the log. New fields are
  // recorded in all of them. The body's context (when the log is in it) only picks whose rules store the row.
  const order = Array.isArray(body.logs) ? body.logs : [body.logs];
  const projectId = [...found.values()][0]!.project_id;
  const named = body.context === undefined || body.context === null ? undefined : await findContext(db, projectId, contextNameOf(body.context));
  const memberships = await logs.membershipsOf(db, ids);
  const names = await logs.contextNames(db, [...new Set([...[...found.values()].map((r) => r.context_id), ...[...memberships.values()].flat()])]);
  const schemas = new Map<number, FieldSchema>();
  const schemaOf = async (contextId: number) => {
    let schema = schemas.get(contextId);
    if (!schema) schemas.set(contextId, (schema = new FieldSchema(await fieldsOf(db, contextId))));
    return schema;
  };
  const planned: { id: number; contextId: number; via: number; entries: Record<string, unknown>; changes: { contextId: number; changes: Accepted['changes'] }[] }[] = [];
  const failed: { log_event_id: number; error: string }[] = [];
  for (const [i, id] of order.entries()) {
    const row = found.get(id)!;
    if (planned.some((p) => p.id === id)) continue;
    const entry = splitEntry(changesFor(i) ?? {});
    if (typeof entry === 'string') {
      failed.push({ log_event_id: id, error: entry });
      continue;
    }
    const current = JSON.parse(row.entries) as Record<string, unknown>;
    const others = memberships.get(id) ?? [];
    const via = named && others.includes(named.id) ? named.id : row.context_id;
    const plans: { contextId: number; schema: FieldSchema; changes: Accepted['changes'] }[] = [];
    let error: string | null = null;
    for (const contextId of [row.context_id, ...others]) {
      const schema = await schemaOf(contextId);
      // A log in one context keeps the messages it always had; in several, they say which context refuses.
      const where = others.length ? (names.get(contextId) ?? '') : undefined;
      const changes = refusal(schema, current, entry, body.overwrite === true, where) ?? schema.plan(entry, where);
      if (typeof changes === 'string' || 'error' in changes) {
        error = typeof changes === 'string' ? changes : changes.error;
        break;
      }
      plans.push({ contextId, schema, changes });
    }
    if (error !== null) {
      failed.push({ log_event_id: id, error });
      continue;
    }
    for (const p of plans) p.schema.commit(p.changes);
    planned.push({ id, contextId: row.context_id, via, entries: { ...current, ...entry.fields }, changes: plans });
  }
  if (planned.length === 0) throw badRequestError(failed[0]?.error ?? 'Nothing to update.');

  const contexts = new Map<number, ContextRules>();
  const apply = async (tx: Conn, group: typeof planned) => {
    // Foreign keys that reference the logs' contexts (home and memberships: the entries are shared) take their
    // on_update action once the values changed (foreign-keys.ts).
    const leaving = new Map<number, number[]>();
    for (const p of group) {
      for (const c of new Set(p.changes.map((change) => change.contextId))) {
        const ids = leaving.get(c);
        if (ids) ids.push(p.id);
        else leaving.set(c, [p.id]);
      }
    }
    const touched = [...leaving].map(([id, ids]) => ({ context: { id, name: names.get(id)! }, ids }));
    await withUpdateActions(tx, projectId, touched, () =>
      checkingReferencesOnce(tx, async () => {
        for (const p of group) {
          let rules = contexts.get(p.via);
          if (!rules) {
            contexts.set(p.via, (rules = rulesOf(await logs.contextById(tx, p.via))));
          }
          for (const c of p.changes) await saveFields(tx, c.contextId, c.changes.added, c.changes.updated, now);
          await replaceRow(tx, rules, p.id, p.entries, now);
        }
      }),
    );
  };
  const updated: number[] = [];
  if (body.on_duplicate === 'skip') {
    for (const p of planned) {
      try {
        await db.transaction().execute((tx) => apply(tx, [p]));
        updated.push(p.id);
      } catch (error) {
        if (!(error instanceof ForeignKeyViolation || (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'invalid-field')))) throw error;
        failed.push({ log_event_id: p.id, error: error.message });
      }
    }
    if (updated.length === 0) throw badRequestError(failed[0]!.error);
  } else {
    try {
      await db.transaction().execute((tx) => apply(tx, planned));
    } catch (error) {
      throw asBadRequest(error);
    }
    updated.push(...planned.map((p) => p.id));
  }
  const modified = [...new Set(planned.filter((p) => updated.includes(p.id)).flatMap((p) => Object.keys(splitFields(changesFor(order.indexOf(p.id))))))];
  return { info: 'Logs updated successfully!', log_event_ids: updated, modified_keys: modified, failed };
}

const splitFields = (entry: Record<string, unknown> | undefined) => {
  const split = splitEntry(entry ?? {});
  return typeof split === 'string' ? {} : split.fields;
};

/** Why a log refuses these changes: a value already there without `overwrite`, or a field immutable (in context `where`, when named). */
function refusal(schema: FieldSchema, current: Record<string, unknown>, entry: SplitEntry, overwrite: boolean, where?: string): string | null {
  for (const name of Object.keys(entry.fields)) {
    if (!(name in current) || current[name] === null) continue;
    if (schema.fields.get(name)?.mutable === false)
      return `Field '${name}' is immutable${where === undefined ? '' : ` in context '${where}'`}: its value cannot be changed.`;
    if (!overwrite) return `Field '${name}' already has a value and cannot be overwritten because overwrite is set to False.`;
  }
  return null;
}

// ---- DELETE /v0/logs ------------------------------------------------------------------------

/**
 * Deletes whole logs (`[ids, null]`) or only some fields of them (`[ids, ["a", "b"]]`); `null` ids mean
 * every log of the context (home and member logs). Whole logs are detached from the context: a log in no
 * remaining context is deleted, one whose home it was moves home to another of its contexts (logs-api.md §4.3).
 */
export async function deleteLogs(db: Conn, scope: Scope, body: z.output<typeof DeleteLogsBody>, deleteEmpty: boolean, now: Date) {
  const project = await projectInScopeOr404(db, scope, body.project_name);
  const context = await contextForRead(db, project.id, body.project_name, body.context ?? '');
  if (!context) throw notFoundError(`Context '' not found for project '${body.project_name}'.`);
  let deleted = 0;
  let changed = 0;
  // Foreign keys that reference the context take their on_delete action once the logs are gone (foreign-keys.ts).
  const all = body.ids_and_fields.some(([ids]) => ids === null);
  const touched = all ? null : body.ids_and_fields.flatMap(([ids]) => (Array.isArray(ids) ? ids : [ids as number]));
  await db.transaction().execute(async (tx) => {
    // Fields removed from a log are gone from every context it is in (the entries are shared): keys referencing
    // its other contexts take their on_delete action too.
    const shortened = new Set<number>();
    for (const [ids, fields] of body.ids_and_fields) {
      if (fields === null) continue;
      const wanted = ids === null ? undefined : Array.isArray(ids) ? ids : [ids];
      if (wanted?.length !== 0) for (const row of await logs.contextLogs(tx, context.id, wanted)) shortened.add(row.id);
    }
    const others = shortened.size ? await logs.otherContextsOf(tx, [...shortened], context.id) : [];
    const leaving = [{ context, ids: touched }, ...others.map((other) => ({ context: other, ids: [...shortened] }))];
    await withDeleteActions(tx, project.id, leaving, () =>
      onlyRemovingValues(tx, async () => {
        const rules = rulesOf(context);
        for (const [ids, fields] of body.ids_and_fields) {
          const wanted = ids === null ? undefined : Array.isArray(ids) ? ids : [ids];
          if (wanted?.length === 0) continue;
          const rows = await logs.contextLogs(tx, context.id, wanted);
          const names = fields === null ? null : Array.isArray(fields) ? fields : [fields];
          for (const row of rows) {
            if (names === null) {
              await deleteRow(tx, rules, row.id);
              deleted++;
              continue;
            }
            const entries = JSON.parse(row.entries) as Record<string, unknown>;
            if (!names.some((n) => n in entries)) continue;
            for (const n of names) delete entries[n];
            if (deleteEmpty && Object.keys(entries).length === 0) {
              await deleteRow(tx, rules, row.id);
              deleted++;
            } else {
              await replaceRow(tx, rules, row.id, entries, now);
              changed++;
            }
          }
        }
      }),
    );
  });
  return { info: `Deleted ${deleted} logs; removed fields from ${changed}.` };
}

// ---- PATCH /v0/logs/{id}/fields/{field}/atomic ----------------------------------------------

/** Applies `+N`, `-N`, `*N` or `/N` to the field in one locked read-modify-write; a missing or null value is 0. */
export async function atomicUpdate(db: Conn, dialect: Dialect, scope: Scope, id: number, field: string, operation: string, now: Date) {
  const op = operation.trim()[0]!;
  const operand = Number(operation.trim().slice(1));
  if (op === '/' && operand === 0) throw badRequestError('Division by zero.');
  return db.transaction().execute(async (tx) => {
    const row = await logs.lockedLog(tx, scopeKey(scope), id, dialect);
    if (!row) throw notFoundError(`Log ${id} not found.`);
    const entries = JSON.parse(row.entries) as Record<string, unknown>;
    const current = entries[field] ?? 0;
    if (typeof current !== 'number') throw badRequestError(`Field '${field}' of log ${id} is not a number.`);
    const value = op === '+' ? current + operand : op === '-' ? current - operand : op === '*' ? current * operand : current / operand;
    if (!Number.isFinite(value)) throw badRequestError('The result is not a finite number.');
    // Every context the log is in (home, memberships) keeps its immutable fields and types, as PUT does.
    const others = (await logs.membershipsOf(tx, [id])).get(id) ?? [];
    const names = others.length ? await logs.contextNames(tx, [row.context_id, ...others]) : new Map<number, string>();
    for (const contextId of [row.context_id, ...others]) {
      const where = others.length ? (names.get(contextId) ?? '') : undefined;
      const schema = new FieldSchema(await fieldsOf(tx, contextId));
      if (schema.fields.get(field)?.mutable === false && entries[field] !== undefined && entries[field] !== null) {
        throw badRequestError(`Field '${field}' is immutable${where === undefined ? '' : ` in context '${where}'`}: its value cannot be changed.`);
      }
      const changes = schema.plan({ fields: { [field]: value }, explicit: {}, inferUntyped: false }, where);
      if ('error' in changes) throw badRequestError(changes.error);
      await saveFields(tx, contextId, changes.added, changes.updated, now);
    }
    // Foreign keys that reference the log's contexts take their on_update action (foreign-keys.ts).
    const home = await logs.contextById(tx, row.context_id);
    const leaving = [home, ...others.map((c) => ({ id: c, name: names.get(c)! }))].map((context) => ({ context, ids: [id] }));
    await withUpdateActions(tx, home.project_id, leaving, () => replaceRow(tx, rulesOf(home), id, { ...entries, [field]: value }, now));
    return { new_value: value };
  });
}
