import type { z } from 'zod';
import type { CreateFieldsBody, DeleteFieldsBody, FieldsQuery, FieldType, RenameFieldBody } from '../../../shared/logs.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError, notFoundError } from '../../domain-errors.ts';
import { checkingReferencesOnce, onlyRemovingValues, renameKeyField, withDeleteActions } from '../contexts/foreign-keys.ts';
import { idsInContext, replaceRow, rulesOf } from '../contexts/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { derivedOf } from './derived.ts';
import { fitsType, typeMismatch } from './field-types.ts';
import * as logs from './repository.ts';
import { contextForRead, contextForWrite } from './service.ts';

// Field management (logs-api.md §4.7): definitions in context_fields, values in the logs themselves.

export async function listFields(db: Conn, scope: Scope, query: z.output<typeof FieldsQuery>) {
  const project = await projectInScopeOr404(db, scope, query.project_name);
  const context = await contextForRead(db, project.id, query.project_name, query.context ?? '');
  if (!context) return {};
  const defined = await logs.fieldsOf(db, context.id);
  const out = new Map<string, { data_type: string; field_type: string; mutable: boolean; unique: boolean; description: string; created_at: string | null }>();
  const derived = await derivedOf(db, context.id);
  for (const f of defined) {
    out.set(f.name, {
      data_type: f.data_type,
      field_type: derived.has(f.name) ? 'derived' : 'entry',
      mutable: !!f.mutable,
      unique: !!f.is_unique,
      description: f.description,
      created_at: f.created_at,
    });
  }
  // Columns written through the row routes (or only ever None) have no definition: untyped.
  for (const name of JSON.parse(context.columns) as string[]) {
    if (!out.has(name)) out.set(name, { data_type: 'Any', field_type: 'entry', mutable: true, unique: false, description: '', created_at: null });
  }
  // fromEntries defines own properties: a field named __proto__ stays a field.
  return Object.fromEntries(out);
}

export async function createFields(db: Conn, scope: Scope, body: z.output<typeof CreateFieldsBody>, now: Date) {
  const project = await projectInScopeOr404(db, scope, body.project_name);
  const context = await contextForWrite(db, project.id, body.context ?? '', now);
  const given = Array.isArray(body.fields) ? Object.fromEntries(body.fields.map((n) => [n, null])) : body.fields;
  const existing = new Map((await logs.fieldsOf(db, context.id)).map((f) => [f.name, f]));
  const added: logs.FieldChange[] = [];
  const updated: logs.FieldChange[] = [];
  for (const [name, def] of Object.entries(given)) {
    const spec = def === null ? {} : typeof def === 'string' ? { type: def } : def;
    const known = existing.get(name);
    const change = {
      name,
      data_type: (spec.type ?? known?.data_type ?? 'Any') as FieldType,
      mutable: spec.mutable ?? (known ? !!known.mutable : true),
      unique: spec.unique ?? (known ? !!known.is_unique : false),
      description: spec.description ?? known?.description ?? '',
    };
    (known ? updated : added).push(change);
  }
  await db.transaction().execute((tx) => logs.saveFields(tx, context.id, added, updated, now));
  return { info: 'Fields created successfully!' };
}

async function contextOr404(db: Conn, scope: Scope, projectName: string, name: string) {
  const project = await projectInScopeOr404(db, scope, projectName);
  const context = await contextForRead(db, project.id, projectName, name);
  if (!context) throw notFoundError(`Context '' not found for project '${projectName}'.`);
  return context;
}

type ContextRow = Awaited<ReturnType<typeof logs.contextById>>;

/**
 * The other contexts of rewritten logs (their home, their memberships) see the change to the shared entries:
 * a definition or column of theirs goes only once none of their logs has the field any more.
 */
async function forgetUnused(tx: Conn, dialect: Dialect, context: ContextRow, names: string[], columns?: string[]): Promise<void> {
  const unused: string[] = [];
  for (const name of names) if (!(await logs.contextHasField(tx, dialect, context.id, name))) unused.push(name);
  if (unused.length === 0) return;
  await logs.deleteFieldDefinitions(tx, context.id, unused);
  const current = columns ?? (JSON.parse((await logs.contextById(tx, context.id)).columns) as string[]);
  await logs.setColumns(
    tx,
    context.id,
    current.filter((c) => !unused.includes(c)),
  );
}

/** A field that is a unique key of a context holding the logs cannot leave them (every log of it needs its key). */
function refuseKeyField(context: ContextRow, names: Iterable<string>, what: 'deleted' | 'renamed', through: string): void {
  const rules = rulesOf(context);
  for (const name of names) {
    if (name in rules.unique_keys || (what === 'renamed' && name in rules.auto_counting)) {
      const shared = context.name === through ? '' : ` (its logs are shared with context '${through}')`;
      throw badRequestError(`Field '${name}' is a unique key${what === 'renamed' ? ' or counter' : ''} of context '${context.name}'${shared} and cannot be ${what}.`);
    }
  }
}

/**
 * Removes the definitions and the values from every log of the context (the logs stay). The entries are
 * shared with the logs' other contexts: there the definition goes when none of their logs has the field.
 */
export async function deleteFields(db: Conn, dialect: Dialect, scope: Scope, body: z.output<typeof DeleteFieldsBody>, now: Date) {
  const context = await contextOr404(db, scope, body.project_name, body.context ?? '');
  const names = new Set(body.fields);
  await db.transaction().execute(async (tx) => {
    const rules = rulesOf(context);
    const rows = (await logs.contextLogs(tx, context.id)).filter((row) => Object.keys(JSON.parse(row.entries) as object).some((k) => names.has(k)));
    const others = await logs.otherContextsOf(
      tx,
      rows.map((r) => r.id),
      context.id,
    );
    for (const c of [context, ...others]) refuseKeyField(c, names, 'deleted', context.name);
    // The values leave the context and the logs' other contexts: keys referencing them take their on_delete action (foreign-keys.ts).
    const ids = rows.map((r) => r.id);
    await withDeleteActions(
      tx,
      context.project_id,
      [context, ...others].map((c) => ({ context: c, ids })),
      () =>
        onlyRemovingValues(tx, async () => {
          for (const row of rows) {
            const entries = JSON.parse(row.entries) as Record<string, unknown>;
            for (const n of names) delete entries[n];
            await replaceRow(tx, rules, row.id, entries, now);
          }
        }),
    );
    await logs.deleteFieldDefinitions(tx, context.id, [...names]);
    await logs.setColumns(
      tx,
      context.id,
      rules.columns.filter((c) => !names.has(c)),
    );
    for (const other of others) await forgetUnused(tx, dialect, other, [...names]);
  });
  return { info: 'Fields deleted successfully!' };
}

/**
 * Renames in the definition and in every log, keeping the field's place in each log's entries. The logs'
 * other contexts see the new name too: it gets the definition the old name has there (unless they define it
 * already, when the moved values must fit it), and the old name goes once none of their logs has it.
 */
export async function renameField(db: Conn, dialect: Dialect, scope: Scope, body: z.output<typeof RenameFieldBody>, now: Date) {
  const context = await contextOr404(db, scope, body.project_name, body.context ?? '');
  const { old_field_name: from, new_field_name: to } = body;
  const columns = JSON.parse(context.columns) as string[];
  const defined = new Set((await logs.fieldsOf(db, context.id)).map((f) => f.name));
  if (!defined.has(from) && !columns.includes(from)) throw notFoundError(`Field '${from}' not found in context '${context.name}'.`);
  if (from === to) return { info: 'Field renamed successfully!' };
  if (defined.has(to) || columns.includes(to)) throw badRequestError(`Field '${to}' already exists in context '${context.name}'.`);
  await db.transaction().execute(async (tx) => {
    const rows = (await logs.contextLogs(tx, context.id))
      .map((row) => ({ id: row.id, entries: JSON.parse(row.entries) as Record<string, unknown> }))
      .filter((row) => from in row.entries);
    const others = await logs.otherContextsOf(
      tx,
      rows.map((r) => r.id),
      context.id,
    );
    for (const c of [context, ...others]) refuseKeyField(c, [from], 'renamed', context.name);
    // A log that has both names (the new one written through another of its contexts) would lose a value.
    const both = rows.find((row) => to in row.entries);
    if (both) throw badRequestError(`Log ${both.id} already has a field '${to}' (from another of its contexts): rename it there first, or pick another name.`);
    // Where another context already defines the new name, the moved values must fit its type.
    const definitions = new Map<number, Map<string, logs.FieldRow>>();
    for (const other of others) {
      const fields = new Map((await logs.fieldsOf(tx, other.id)).map((f) => [f.name, f]));
      definitions.set(other.id, fields);
      const target = fields.get(to);
      if (!target) continue;
      const members = await idsInContext(
        tx,
        other.id,
        rows.map((r) => r.id),
      );
      const misfit = rows.find((row) => members.has(row.id) && !fitsType(target.data_type, row.entries[from]));
      if (misfit) throw badRequestError(`${typeMismatch(to, target.data_type, misfit.entries[from], other.name)} (log ${misfit.id}, renamed from '${from}')`);
    }
    // Foreign keys naming the field follow it, before the logs are written so that they are checked under
    // the new names; in the logs' other contexts the values leave the old name, and keys referencing it
    // there take their on_delete action (foreign-keys.ts).
    await renameKeyField(tx, context, from, to);
    const rules = rulesOf(await logs.contextById(tx, context.id));
    const ids = rows.map((r) => r.id);
    await withDeleteActions(
      tx,
      context.project_id,
      others.map((c) => ({ context: c, ids })),
      () =>
        checkingReferencesOnce(tx, async () => {
          for (const row of rows) {
            const renamed = Object.fromEntries(Object.entries(row.entries).map(([k, v]) => [k === from ? to : k, v]));
            await replaceRow(tx, rules, row.id, renamed, now);
          }
        }),
    );
    await logs.renameFieldDefinition(tx, context.id, from, to);
    await logs.setColumns(
      tx,
      context.id,
      columns.map((c) => (c === from ? to : c)),
    );
    for (const other of others) {
      if (!definitions.get(other.id)!.has(to)) await logs.copyFieldDefinition(tx, other.id, from, to, now);
      // The new name takes the old one's place in the column list (or comes right after it while it stays).
      const before = JSON.parse(other.columns) as string[];
      const learned = JSON.parse((await logs.contextById(tx, other.id)).columns) as string[];
      const placed = before.includes(to) ? [...before] : before.flatMap((c) => (c === from ? [from, to] : [c]));
      if (!placed.includes(to)) placed.push(to);
      for (const c of learned) if (!placed.includes(c)) placed.push(c);
      await logs.setColumns(tx, other.id, placed);
      await forgetUnused(tx, dialect, other, [from], placed);
    }
  });
  return { info: 'Field renamed successfully!' };
}
