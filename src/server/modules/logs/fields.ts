import type { z } from 'zod';
import type { CreateFieldsBody, DeleteFieldsBody, FieldsQuery, FieldType, RenameFieldBody } from '../../../shared/logs.ts';
import type { Scope } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { badRequestError, notFoundError } from '../../domain-errors.ts';
import { replaceRow, rulesOf } from '../contexts/repository.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { derivedOf } from './derived.ts';
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

/** Removes the definitions and the values from every log of the context (the logs stay). */
export async function deleteFields(db: Conn, scope: Scope, body: z.output<typeof DeleteFieldsBody>, now: Date) {
  const context = await contextOr404(db, scope, body.project_name, body.context ?? '');
  const names = new Set(body.fields);
  await db.transaction().execute(async (tx) => {
    const rules = rulesOf(context);
    for (const row of await logs.contextLogs(tx, context.id)) {
      const entries = JSON.parse(row.entries) as Record<string, unknown>;
      if (!Object.keys(entries).some((k) => names.has(k))) continue;
      for (const n of names) delete entries[n];
      await replaceRow(tx, rules, row.id, entries, now);
    }
    await logs.deleteFieldDefinitions(tx, context.id, [...names]);
    await logs.setColumns(
      tx,
      context.id,
      rules.columns.filter((c) => !names.has(c)),
    );
  });
  return { info: 'Fields deleted successfully!' };
}

/** Renames in the definition and in every log, keeping the field's place in each log's entries. */
export async function renameField(db: Conn, scope: Scope, body: z.output<typeof RenameFieldBody>, now: Date) {
  const context = await contextOr404(db, scope, body.project_name, body.context ?? '');
  const { old_field_name: from, new_field_name: to } = body;
  const columns = JSON.parse(context.columns) as string[];
  const defined = new Set((await logs.fieldsOf(db, context.id)).map((f) => f.name));
  if (!defined.has(from) && !columns.includes(from)) throw notFoundError(`Field '${from}' not found in context '${context.name}'.`);
  if (from === to) return { info: 'Field renamed successfully!' };
  if (defined.has(to) || columns.includes(to)) throw badRequestError(`Field '${to}' already exists in context '${context.name}'.`);
  await db.transaction().execute(async (tx) => {
    const rules = rulesOf(context);
    if (from in rules.unique_keys || from in rules.auto_counting)
      throw badRequestError(`Field '${from}' is a unique key or counter of the context and cannot be renamed.`);
    for (const row of await logs.contextLogs(tx, context.id)) {
      const entries = JSON.parse(row.entries) as Record<string, unknown>;
      if (!(from in entries)) continue;
      const renamed = Object.fromEntries(Object.entries(entries).map(([k, v]) => [k === from ? to : k, v]));
      await replaceRow(tx, rules, row.id, renamed, now);
    }
    await logs.renameFieldDefinition(tx, context.id, from, to);
    await logs.setColumns(
      tx,
      context.id,
      columns.map((c) => (c === from ? to : c)),
    );
  });
  return { info: 'Field renamed successfully!' };
}
