import { PostgresAdapter, sql } from 'kysely';
import type { Conn, Dialect } from '../../db/connection.ts';
import { badRequestError, DomainError } from '../../domain-errors.ts';
import type { ForeignKey } from '../../../shared/projects.ts';
import { jsonTextAt, locAt, sqliteKeyStep, type Sql } from '../logs/json-sql.ts';
import { contextCondition, deleteRow, replaceRow, rulesOf } from './repository.ts';

// Foreign keys of a context as the platform's clients read them back (logs-api.md §6): each one as given,
// with `is_nested` (the name has `.` or `[`) and its `path_segments`. Enforced below.

export interface ForeignKeyGiven {
  name: string;
  references: string;
  on_delete?: string | undefined;
  on_update?: string | undefined;
  default?: unknown;
}

/** `images[*].image_id` → images (array, wildcard), then image_id; `items[0].id` → items (array, index 0), then id. */
export function pathSegments(name: string): ForeignKey['path_segments'] {
  return name.split('.').map((part) => {
    const field = part.replace(/\[.*$/, '');
    const brackets = [...part.matchAll(/\[(\*|\d+)\]/g)].map((m) => m[1]!);
    const index = brackets.find((b) => b !== '*');
    return { name: field, is_array: brackets.length > 0, is_wildcard: brackets.includes('*'), array_index: index === undefined ? null : Number(index) };
  });
}

export function foreignKeysAsAnswered(given: ForeignKeyGiven[] | undefined): ForeignKey[] {
  return (given ?? []).map((fk) => ({
    name: fk.name,
    references: fk.references,
    on_delete: fk.on_delete ?? null,
    on_update: fk.on_update ?? null,
    ...(fk.default !== undefined ? { default: fk.default } : {}),
    is_nested: /[.[]/.test(fk.name),
    path_segments: pathSegments(fk.name),
  }));
}

// ---- Renames --------------------------------------------------------------------------------
// Keys follow the renames of what they name, as PostgreSQL's foreign keys follow a table or column rename:
// a context's (`references: "Old.col"` → `"New.col"`), a referenced column's (`Ctx.old` → `Ctx.new`), and a
// field that is the first segment of a referencing key's path in its context (`metadata.user.id` → `meta.user.id`).

/** `Ctx.column` split at the last dot. */
function referenced(references: string) {
  const dot = references.lastIndexOf('.');
  return { context: references.slice(0, dot), column: references.slice(dot + 1) };
}

/** The field a key's path starts with: `metadata` of `metadata.user.id`, `tag_ids` of `tag_ids[*]`. */
const headOf = (name: string) => name.split('.')[0]!.replace(/\[.*$/, '');

/** Stores `edit`'s keys for each context of the project whose keys it changes (is_nested and path_segments computed again). */
async function editKeys(tx: Conn, projectId: number, edit: (fk: ForeignKeyGiven, context: { id: number; name: string }) => ForeignKeyGiven): Promise<void> {
  const contexts = await tx.selectFrom('contexts').select(['id', 'name', 'foreign_keys']).where('project_id', '=', projectId).where('foreign_keys', '<>', '[]').execute();
  for (const c of contexts) {
    const keys = JSON.parse(c.foreign_keys) as ForeignKeyGiven[];
    const edited = keys.map((fk) => edit(fk, { id: Number(c.id), name: c.name }));
    if (edited.every((fk, i) => fk === keys[i])) continue;
    await tx
      .updateTable('contexts')
      .set({ foreign_keys: JSON.stringify(foreignKeysAsAnswered(edited)) })
      .where('id', '=', c.id)
      .execute();
  }
}

/** The keys naming context `from` name `to` (not those naming its children `from/…`). Call in the rename's transaction. */
export function renameReferencedContext(tx: Conn, projectId: number, from: string, to: string): Promise<void> {
  return editKeys(tx, projectId, (fk) => {
    const { context, column } = referenced(fk.references);
    return context === from ? { ...fk, references: `${to}.${column}` } : fk;
  });
}

/**
 * Field `from` of the context is renamed `to`: the keys referencing it as their column, and the context's own
 * keys whose path starts with it, follow. A name a key cannot hold (`.`, `[`, `]`, spaces) is a 400, before anything is written.
 */
export function renameKeyField(tx: Conn, context: { id: number; project_id: number; name: string }, from: string, to: string): Promise<void> {
  return editKeys(tx, context.project_id, (fk, owner) => {
    const target = referenced(fk.references);
    const follows = target.context === context.name && target.column === from;
    const leads = owner.id === context.id && headOf(fk.name) === from;
    if (!follows && !leads) return fk;
    if (/[.[\]\s]/.test(to)) {
      throw badRequestError(
        `Field '${from}' is named by foreign key '${fk.name}' of context '${owner.name}' (to ${fk.references}): its new name cannot contain '.', '[', ']' or spaces. Pick another name.`,
      );
    }
    return {
      ...fk,
      ...(follows ? { references: `${target.context}.${to}` } : {}),
      ...(leads ? { name: to + fk.name.slice(from.length) } : {}),
    };
  });
}

// ---- Enforcement ----------------------------------------------------------------------------
// A value found at a foreign key's path in a log of the context must be the value of `column` in some log
// (home or member) of the referenced context, resolved by name in the same project; a missing or null value
// references nothing. Checked set-based after the rows are written, in the writer's transaction: one query
// per foreign key per batch (so a log may reference a log of its own batch, even of its own context), and
// nothing at all for a context without foreign keys. When logs leave a referenced context (deleted, detached,
// their referenced field removed, or the context deleted), the values no log of it holds any more are
// orphans and each referencing foreign key's `on_delete` applies: CASCADE deletes the referencing logs
// (recursively), SET NULL / SET DEFAULT replace the referencing value itself (an element of a `[*]` list
// too: it becomes null or the default, it is not removed), RESTRICT / NO ACTION / unset refuse with a 400.
// `on_update` likewise when a batch update changes referenced values (CASCADE writes the new value).
// This module and repository.ts import each other: each uses the other's functions only when called.

type Step = { key: string } | { index: number } | { any: true };

export interface ForeignKeyRule {
  name: string;
  references: string;
  steps: Step[];
  /** The referenced context's name and column: `org/departments.id` → `org/departments`, `id` (split at the last dot). */
  context: string;
  column: string;
  /** Upper case; `NO ACTION` when unset. */
  onDelete: string;
  onUpdate: string;
  default: unknown;
}

/** Raised for a reference to nothing: a 400 that the per-entry `on_duplicate: skip` writes report per entry. */
export class ForeignKeyViolation extends DomainError {
  constructor(message: string) {
    super('bad-request', message);
    this.name = 'ForeignKeyViolation';
  }
}

/** `teams[*].members[0].user_id` → teams, any element, members, element 0, user_id. */
function stepsOf(name: string): Step[] {
  const steps: Step[] = [];
  for (const part of name.split('.')) {
    steps.push({ key: part.replace(/\[.*$/, '') });
    for (const m of part.matchAll(/\[(\*|\d+)\]/g)) steps.push(m[1] === '*' ? { any: true } : { index: Number(m[1]) });
  }
  return steps;
}

/** The rules of a context's stored `foreign_keys` (the JSON text of foreignKeysAsAnswered). */
export function foreignKeyRules(stored: string | undefined): ForeignKeyRule[] {
  if (!stored) return [];
  return (JSON.parse(stored) as ForeignKeyGiven[]).map((fk) => ({
    name: fk.name,
    references: fk.references,
    steps: stepsOf(fk.name),
    ...referenced(fk.references),
    onDelete: (fk.on_delete ?? 'NO ACTION').toUpperCase(),
    onUpdate: (fk.on_update ?? 'NO ACTION').toUpperCase(),
    default: fk.default ?? null,
  }));
}

/** The values at the path (every element for `[*]`), missing and null ones left out. */
export function valuesAt(value: unknown, steps: Step[]): unknown[] {
  if (value === undefined || value === null) return [];
  if (steps.length === 0) return [value];
  const [step, ...rest] = steps as [Step, ...Step[]];
  if ('key' in step) return value && typeof value === 'object' && !Array.isArray(value) ? valuesAt((value as Record<string, unknown>)[step.key], rest) : [];
  if (!Array.isArray(value)) return [];
  if ('index' in step) return valuesAt(value[step.index], rest);
  return value.flatMap((element) => valuesAt(element, rest));
}

/** A copy of `value` where each value at the path whose key is in `keys` is replaced by `by(key)`. */
function replaceAt(value: unknown, steps: Step[], keys: Set<string>, by: (key: string) => unknown): unknown {
  if (value === undefined || value === null) return value;
  if (steps.length === 0) return keys.has(keyOf(value)) ? by(keyOf(value)) : value;
  const [step, ...rest] = steps as [Step, ...Step[]];
  if ('key' in step) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || !(step.key in value)) return value;
    return { ...(value as Record<string, unknown>), [step.key]: replaceAt((value as Record<string, unknown>)[step.key], rest, keys, by) };
  }
  if (!Array.isArray(value)) return value;
  return value.map((element, i) => ('any' in step || i === step.index ? replaceAt(element, rest, keys, by) : element));
}

/** One value's identity across JavaScript and both databases: its kind and its text (1 and "1" differ). */
const keyOf = (v: unknown) => `${typeof v}:${String(v)}`;

export function dialectOf(db: Conn): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

const ENTRIES = sql.ref('r.entries_jsonb');

/** SQLite's JSON path of static steps (labels quoted), up to the first wildcard. */
function sqlitePath(steps: Step[]): string {
  let path = '$';
  for (const s of steps) {
    if ('any' in s) break;
    path += 'key' in s ? sqliteKeyStep(s.key) : `[${s.index}]`;
  }
  return path;
}

/** The JSON text of a log's top-level field (NULL when missing); a label with `"` or `\\` is escaped on SQLite. */
function fieldText(dialect: Dialect, column: string) {
  return dialect === 'sqlite' ? sql`(${ENTRIES} -> ${sqlitePath([{ key: column }])})` : jsonTextAt(dialect, ENTRIES, [column]);
}

/** The steps before the first wildcard, as json-sql's path steps. */
function staticSteps(steps: Step[]): (string | number)[] {
  const out: (string | number)[] = [];
  for (const s of steps) {
    if ('any' in s) break;
    out.push('key' in s ? s.key : s.index);
  }
  return out;
}

/** The value at a static path is one of `values` (a JSON array parameter): a superset, told apart exactly in JavaScript. */
function valueIn(dialect: Dialect, steps: Step[], values: unknown[]) {
  const param = JSON.stringify(values);
  if (dialect === 'sqlite') return sql<boolean>`json_extract(${ENTRIES}, ${sqlitePath(steps)}) in (select value from json_each(${param}))`;
  const loc = locAt(dialect, ENTRIES, staticSteps(steps)) as { jb: Sql };
  return sql<boolean>`${loc.jb} in (select value from jsonb_array_elements(cast(${param} as jsonb)))`;
}

/** The ids as a JSON array parameter (any number of them in one bound value). */
function idIn(dialect: Dialect, ids: number[]) {
  const param = JSON.stringify(ids);
  return dialect === 'sqlite'
    ? sql<boolean>`r.id in (select value from json_each(${param}))`
    : sql<boolean>`r.id in (select cast(value as bigint) from jsonb_array_elements_text(cast(${param} as jsonb)))`;
}

/** The scalar values of `column` among the context's logs (all, or those of `ids`), restricted to `among` when given: their keys and values. */
async function columnValues(tx: Conn, contextId: number, column: string, filter: { among?: unknown[]; ids?: number[]; lock?: boolean }): Promise<Map<string, unknown>> {
  const dialect = dialectOf(tx);
  let q = tx
    .selectFrom('context_rows as r')
    .select(fieldText(dialect, column).as('v'))
    .where(await contextCondition(tx, contextId));
  if (filter.among) q = q.where(valueIn(dialect, [{ key: column }], filter.among));
  if (filter.ids) q = q.where(idIn(dialect, filter.ids));
  // PostgreSQL: the referenced logs found are locked until the writer commits, so a concurrent delete or
  // update of them waits (and its on_delete / on_update then sees the new logs) or, having committed first,
  // leaves nothing to find. FOR SHARE does not go with DISTINCT. SQLite has one writer at a time.
  q = filter.lock && dialect === 'postgres' ? q.forShare('r') : q.distinct();
  const found = new Map<string, unknown>();
  for (const row of await q.execute()) {
    if (row.v === null || row.v === undefined) continue;
    const v = JSON.parse(String(row.v)) as unknown;
    if (v !== null && typeof v !== 'object') found.set(keyOf(v), v);
  }
  return found;
}

async function contextNamed(tx: Conn, projectId: number, name: string) {
  return tx.selectFrom('contexts').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
}

const show = (v: unknown) => JSON.stringify(v);

/**
 * Refuses (ForeignKeyViolation, 400) when a value at a foreign key's path in `rows` is not the value of the
 * referenced column in some log of the referenced context. Call after the rows are stored, in their transaction.
 */
export async function checkReferences(
  tx: Conn,
  context: { id: number; project_id: number; foreign_keys: ForeignKeyRule[] },
  rows: Record<string, unknown>[],
): Promise<void> {
  if (context.foreign_keys.length === 0 || rows.length === 0) return;
  const later = deferred.get(tx);
  if (later) {
    const pending = later.get(context.id) ?? { context, rows: [] };
    pending.rows.push(...rows);
    later.set(context.id, pending);
    return;
  }
  for (const fk of context.foreign_keys) {
    const wanted = new Map<string, unknown>();
    for (const entries of rows) {
      for (const v of valuesAt(entries, fk.steps)) {
        if (typeof v === 'object') {
          throw new ForeignKeyViolation(
            `Field '${fk.name}' is a foreign key to ${fk.references}: its value must be a string, number or boolean (or null), not ${show(v)}.`,
          );
        }
        wanted.set(keyOf(v), v);
      }
    }
    if (wanted.size === 0) continue;
    const target = await contextNamed(tx, context.project_id, fk.context);
    if (!target) {
      throw new ForeignKeyViolation(
        `Field '${fk.name}' = ${show(wanted.values().next().value)} references context '${fk.context}' (foreign key to ${fk.references}), which does not exist in this project: create it and its logs first, or leave the field unset.`,
      );
    }
    const found = await columnValues(tx, Number(target.id), fk.column, { among: [...wanted.values()], lock: true });
    for (const [key, v] of wanted) {
      if (!found.has(key)) {
        throw new ForeignKeyViolation(
          `Field '${fk.name}' = ${show(v)} references no log: no log of context '${fk.context}' has '${fk.column}' = ${show(v)} (foreign key to ${fk.references}). Write that log first, or leave the field unset.`,
        );
      }
    }
  }
}

type Checked = Parameters<typeof checkReferences>[1];
const deferred = new WeakMap<Conn, Map<number, { context: Checked; rows: Record<string, unknown>[] }>>();

/**
 * Runs `run` (which writes logs one at a time in `tx`, such as a batch of updates) with the reference checks
 * of its writes gathered and made at the end: one query per foreign key for the batch instead of per log.
 */
export async function checkingReferencesOnce<T>(tx: Conn, run: () => Promise<T>): Promise<T> {
  if (deferred.has(tx)) return run();
  const later = new Map<number, { context: Checked; rows: Record<string, unknown>[] }>();
  deferred.set(tx, later);
  let result: T;
  try {
    result = await run();
  } finally {
    deferred.delete(tx);
  }
  for (const { context, rows } of later.values()) await checkReferences(tx, context, rows);
  return result;
}

/**
 * Runs `run`, which only removes values from logs (fields removed from them): what is left was checked when
 * written, so nothing is checked again. (A check there would see a log referencing a value that its own
 * context loses in the same request, before that value's on_delete action has run.)
 */
export async function onlyRemovingValues<T>(tx: Conn, run: () => Promise<T>): Promise<T> {
  if (deferred.has(tx)) return run();
  deferred.set(tx, new Map());
  try {
    return await run();
  } finally {
    deferred.delete(tx);
  }
}

type ContextRow = Parameters<typeof rulesOf>[0] & { project_id: number; name: string };

/** The foreign keys of the project's contexts that reference one of `names`, with their context. */
async function referencing(tx: Conn, projectId: number, names: Set<string>) {
  const contexts = await tx.selectFrom('contexts').selectAll().where('project_id', '=', projectId).where('foreign_keys', '<>', '[]').execute();
  return contexts.flatMap((c) => foreignKeyRules(c.foreign_keys).flatMap((fk) => (names.has(fk.context) ? [{ context: c as ContextRow, fk }] : [])));
}

/** What leaves a referenced context: some of its logs (their ids), or all of them (`null`). */
export interface Leaving {
  context: { id: number; name: string };
  ids: number[] | null;
}

const MAX_DEPTH = 32;

/**
 * Runs `remove` (which deletes or detaches logs of the contexts in `leaving`, removes fields of them or
 * deletes the contexts) and then applies the `on_delete` action of every foreign key that references a
 * value no log of its context holds any more. A refusal throws (400) and the caller's transaction rolls back.
 */
export function withDeleteActions<T>(tx: Conn, projectId: number, leaving: Leaving[], remove: () => Promise<T>, depth = 0): Promise<T> {
  return withReferentialActions(tx, projectId, leaving, remove, 'delete', depth);
}

/**
 * Runs `update` (which changes logs of the contexts in `leaving`, by id) and then applies the `on_update`
 * action of every foreign key that references a value no log of its context holds any more: CASCADE writes
 * the value the updated log holds now (a value changed to several different ones is refused), SET NULL /
 * SET DEFAULT and the refusals as for deletes. The values an action replaces are themselves an update of the
 * referencing logs, whose own referrers' `on_update` follows in turn (as SQL's referential actions chain).
 */
export function withUpdateActions<T>(tx: Conn, projectId: number, leaving: Leaving[], update: () => Promise<T>, depth = 0): Promise<T> {
  return withReferentialActions(tx, projectId, leaving, update, 'update', depth);
}

/** The value of `column` of each of the logs `ids` (scalars only), by id. */
async function valuesById(tx: Conn, column: string, ids: number[]): Promise<Map<number, unknown>> {
  const dialect = dialectOf(tx);
  const rows = await tx
    .selectFrom('context_rows as r')
    .select(['r.id', fieldText(dialect, column).as('v')])
    .where(idIn(dialect, ids))
    .execute();
  const found = new Map<number, unknown>();
  for (const row of rows) {
    const v = row.v === null || row.v === undefined ? null : (JSON.parse(String(row.v)) as unknown);
    found.set(Number(row.id), v !== null && typeof v === 'object' ? null : v);
  }
  return found;
}

async function withReferentialActions<T>(
  tx: Conn,
  projectId: number,
  leaving: Leaving[],
  remove: () => Promise<T>,
  event: 'delete' | 'update',
  depth: number,
): Promise<T> {
  if (leaving.length === 0) return remove();
  const keys = await referencing(tx, projectId, new Set(leaving.map((l) => l.context.name)));
  if (keys.length === 0) return remove();
  if (depth > MAX_DEPTH) throw badRequestError(`Foreign key actions nest more than ${MAX_DEPTH} deep: delete fewer logs at a time.`);
  // The referenced values the leaving logs hold, before they go.
  const before = new Map<string, Map<string, unknown>>();
  for (const l of leaving) {
    for (const column of new Set(keys.filter((k) => k.fk.context === l.context.name).map((k) => k.fk.column))) {
      const values = await columnValues(tx, l.context.id, column, l.ids === null ? {} : { ids: l.ids });
      if (values.size) before.set(`${l.context.id}\u0001${column}`, values);
    }
  }
  // Updates: each log's value before, to tell what an old value became.
  const wasById = new Map<string, Map<number, unknown>>();
  if (event === 'update') {
    for (const l of leaving) {
      if (l.ids === null) continue;
      for (const column of new Set(keys.filter((k) => k.fk.context === l.context.name).map((k) => k.fk.column))) {
        if (before.has(`${l.context.id}\u0001${column}`)) wasById.set(`${l.context.id}\u0001${column}`, await valuesById(tx, column, l.ids));
      }
    }
  }
  const result = await remove();
  const orphaned: Orphaned[] = [];
  for (const l of leaving) {
    for (const { context: referrer, fk } of keys.filter((k) => k.fk.context === l.context.name)) {
      const had = before.get(`${l.context.id}\u0001${fk.column}`);
      if (!had) continue;
      const still = await columnValues(tx, l.context.id, fk.column, { among: [...had.values()] });
      const orphans = new Map([...had].filter(([k]) => !still.has(k)));
      if (orphans.size === 0) continue;
      const became = new Map<string, unknown[]>();
      const was = wasById.get(`${l.context.id}\u0001${fk.column}`);
      if (was) {
        const now = await valuesById(tx, fk.column, [...was.keys()]);
        for (const [id, old] of was) {
          if (old === null || !orphans.has(keyOf(old))) continue;
          const list = became.get(keyOf(old)) ?? [];
          const value = now.get(id) ?? null;
          if (!list.some((v) => keyOf(v) === keyOf(value))) list.push(value);
          became.set(keyOf(old), list);
        }
      }
      orphaned.push({ referrer, fk, orphans, from: l.context.name, became });
    }
  }
  // Per referencing context: refusals first, then cascades, then the values replaced (all of a log's keys at once).
  for (const referrerId of new Set(orphaned.map((o) => o.referrer.id))) {
    await applyActions(
      tx,
      projectId,
      orphaned.filter((o) => o.referrer.id === referrerId),
      event,
      depth,
    );
  }
  return result;
}

interface Orphaned {
  referrer: ContextRow;
  fk: ForeignKeyRule;
  orphans: Map<string, unknown>;
  from: string;
  /** Updates: what each orphaned value (by key) became in the updated logs. */
  became: Map<string, unknown[]>;
}

/** The referrer's logs that hold one of the orphans at the key's path, with their entries. */
async function referencingLogs(tx: Conn, referrerId: number, fk: ForeignKeyRule, orphans: Map<string, unknown>) {
  const dialect = dialectOf(tx);
  const wild = fk.steps.some((s) => 'any' in s);
  const prefilter = wild
    ? dialect === 'sqlite'
      ? sql<boolean>`json_type(${ENTRIES}, ${sqlitePath(fk.steps)}) is not null`
      : sql<boolean>`${(locAt(dialect, ENTRIES, staticSteps(fk.steps)) as { jb: Sql }).jb} is not null`
    : valueIn(dialect, fk.steps, [...orphans.values()]);
  const candidates = await tx
    .selectFrom('context_rows as r')
    .select(['r.id', 'r.entries'])
    .where(await contextCondition(tx, referrerId))
    .where(prefilter)
    .orderBy('r.id')
    .execute();
  return candidates
    .map((r) => ({ id: Number(r.id), entries: JSON.parse(r.entries) as Record<string, unknown> }))
    .filter((r) => valuesAt(r.entries, fk.steps).some((v) => orphans.has(keyOf(v))));
}

async function applyActions(tx: Conn, projectId: number, items: Orphaned[], event: 'delete' | 'update', depth: number) {
  // The referrer may have gone with the same delete (a child context).
  const current = await tx.selectFrom('contexts').selectAll().where('id', '=', items[0]!.referrer.id).executeTakeFirst();
  if (!current) return;
  const referrerId = Number(current.id);
  const rules = rulesOf(current);
  const on = event === 'delete' ? 'on_delete' : 'on_update';
  const action = (o: Orphaned) => (event === 'delete' ? o.fk.onDelete : o.fk.onUpdate);
  const replacing = (o: Orphaned) => action(o) === 'SET NULL' || action(o) === 'SET DEFAULT' || (event === 'update' && action(o) === 'CASCADE');
  for (const o of items) {
    if (!(event === 'update' && action(o) === 'CASCADE')) continue;
    const split = [...o.became].find(([, values]) => values.length > 1);
    if (split) {
      throw badRequestError(
        `Refused: ${show(o.orphans.get(split[0]))} of ${o.fk.references} would become ${split[1].map(show).join(' and ')} in different logs, so foreign key '${o.fk.name}' of context '${current.name}' (on_update CASCADE) cannot follow it. Update those logs one value at a time.`,
      );
    }
  }
  for (const o of items.filter((i) => !['CASCADE', 'SET NULL', 'SET DEFAULT'].includes(action(i)))) {
    const hits = await referencingLogs(tx, referrerId, o.fk, o.orphans);
    if (hits.length === 0) continue;
    const values = [...new Set(hits.flatMap((h) => valuesAt(h.entries, o.fk.steps).filter((v) => o.orphans.has(keyOf(v)))))];
    throw badRequestError(
      `Refused: ${hits.length} log(s) of context '${current.name}' (ids ${hits
        .slice(0, 10)
        .map((h) => h.id)
        .join(', ')}${hits.length > 10 ? ', …' : ''}) reference ${o.fk.references} = ${values.slice(0, 5).map(show).join(', ')} through foreign key '${o.fk.name}' ` +
        `(${on} ${action(o)}), and no log of context '${o.from}' would hold it any more. Delete or change those logs first.`,
    );
  }
  const cascading = new Set<number>();
  for (const o of items.filter((i) => event === 'delete' && action(i) === 'CASCADE'))
    for (const h of await referencingLogs(tx, referrerId, o.fk, o.orphans)) cascading.add(h.id);
  if (cascading.size) {
    const ids = [...cascading].sort((a, b) => a - b);
    await withDeleteActions(
      tx,
      projectId,
      [{ context: { id: referrerId, name: current.name }, ids }],
      async () => {
        for (const id of ids) await deleteRow(tx, rules, id);
      },
      depth + 1,
    );
  }
  const replaced = new Map<number, Record<string, unknown>>();
  for (const o of items.filter(replacing)) {
    const by = (key: string) => (action(o) === 'SET NULL' ? null : action(o) === 'SET DEFAULT' ? o.fk.default : (o.became.get(key)?.[0] ?? null));
    const keys = new Set(o.orphans.keys());
    for (const h of await referencingLogs(tx, referrerId, o.fk, o.orphans)) {
      replaced.set(h.id, replaceAt(replaced.get(h.id) ?? h.entries, o.fk.steps, keys, by) as Record<string, unknown>);
    }
  }
  if (replaced.size === 0) return;
  const now = new Date();
  await withUpdateActions(
    tx,
    projectId,
    [{ context: { id: referrerId, name: current.name }, ids: [...replaced.keys()].sort((a, b) => a - b) }],
    async () => {
      for (const [id, entries] of replaced) await replaceRow(tx, rules, id, entries, now);
    },
    depth + 1,
  );
}
