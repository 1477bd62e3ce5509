import type { Conn } from '../../db/connection.ts';
import { invalidFields } from '../../domain-errors.ts';
import { FieldSchema } from './field-schema.ts';
import { fieldsOf, saveFields } from './repository.ts';

/** One row written through the row routes: its entries before (null for a new row) and after. */
export interface RowWrite {
  current: Record<string, unknown> | null;
  entries: Record<string, unknown>;
}

/**
 * The logs API's field rules for rows written through Roster's own row routes (the dashboard's row editor),
 * so that a row is a log by every rule: a field declared immutable keeps a value it has, a value must fit
 * its field's type, and a new field's type is recorded, as `POST`/`PUT /v0/logs` do. Runs in the caller's
 * transaction; the first row that breaks a rule refuses the whole write (422 naming the row and the field).
 * `contextName` names the context in the messages: the rules of a log's other contexts are checked too.
 */
export async function applyFieldRules(tx: Conn, contextId: number, writes: RowWrite[], now: Date, contextName?: string): Promise<void> {
  const inContext = contextName === undefined ? '' : ` in context '${contextName}'`;
  const schema = new FieldSchema(await fieldsOf(tx, contextId));
  for (const [index, { current, entries }] of writes.entries()) {
    const where = writes.length > 1 ? ['body', 'entries', index] : ['body', 'entries'];
    // Without a prototype: a field named __proto__ is set like any other.
    const changed = Object.create(null) as Record<string, unknown>;
    for (const [name, value] of Object.entries(entries)) {
      const before = current?.[name];
      if (current && JSON.stringify(before) === JSON.stringify(value)) continue;
      if (before !== undefined && before !== null && schema.fields.get(name)?.mutable === false) {
        throw invalidFields([{ type: 'immutable_field', loc: [...where, name], msg: `Field '${name}' is immutable${inContext}: its value cannot be changed.` }]);
      }
      changed[name] = value;
    }
    const plan = schema.plan({ fields: changed, explicit: {}, inferUntyped: false }, contextName);
    if ('error' in plan) throw invalidFields([{ type: 'field_type', loc: where, msg: plan.error }]);
    if (plan.added.length === 0 && plan.updated.length === 0) continue;
    schema.commit(plan);
    await saveFields(tx, contextId, plan.added, plan.updated, now);
  }
}
