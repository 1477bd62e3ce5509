import { z } from 'zod';
import { FieldTypeSchema, type FieldType } from '../../../shared/logs.ts';
import type { FieldChange, FieldRow } from './repository.ts';
import { fitsType, inferType, typeMismatch } from './field-types.ts';

// The fields of one context while a write is checked: each entry is checked against the types known so
// far (including those the batch's earlier entries introduced), and only entries that pass change them.

const ExplicitType = z.object({
  type: FieldTypeSchema.optional(),
  mutable: z.boolean().optional(),
  unique: z.boolean().optional(),
  description: z.string().max(1000).optional(),
});
/** `explicit_types` of an entry: its declarations by field name, in a map without a prototype. */
export type ExplicitTypes = Record<string, z.infer<typeof ExplicitType>>;

const NO_EXPLICIT_TYPES: ExplicitTypes = Object.freeze(Object.create(null) as ExplicitTypes);
const explicitTypesError = (why: string) => `explicit_types must map field names to {type, mutable, unique, description}: ${why}`.trim();

/**
 * An entry's `explicit_types`, or why it is malformed. Each declaration is checked by zod, the map itself here:
 * zod's record would drop the declaration of a field named __proto__ (a field like any other).
 */
function explicitTypesOf(value: unknown): ExplicitTypes | string {
  if (value === undefined || value === null) return NO_EXPLICIT_TYPES;
  if (typeof value !== 'object' || Array.isArray(value)) return explicitTypesError('Must be a JSON object.');
  const types = Object.create(null) as ExplicitTypes;
  for (const [name, declared] of Object.entries(value)) {
    const parsed = ExplicitType.safeParse(declared);
    if (!parsed.success) return explicitTypesError(parsed.error.issues[0]?.message ?? '');
    types[name] = parsed.data;
  }
  return types;
}

/** Keys of a written entry that are instructions, never fields (logs-api.md §4.1). */
export const PSEUDO_KEYS = ['explicit_types', 'infer_untyped_fields'] as const;

export interface SplitEntry {
  fields: Record<string, unknown>;
  explicit: ExplicitTypes;
  inferUntyped: boolean;
}

/** Separates the fields from the pseudo-keys; an error message when `explicit_types` is malformed. */
export function splitEntry(entry: Record<string, unknown>): SplitEntry | string {
  const { explicit_types: explicit, infer_untyped_fields: infer, ...fields } = entry;
  const types = explicitTypesOf(explicit);
  if (typeof types === 'string') return types;
  // A NUL (which PostgreSQL's jsonb cannot hold) never gets here: route() refuses any in a body with a 422
  // that names it (http/validation.ts). Searching the JSON text for `\u0000` also refused the text that spells it.
  return { fields, explicit: types, inferUntyped: infer === true };
}

export interface Field {
  data_type: FieldType;
  mutable: boolean;
  unique: boolean;
  description: string;
}

export class FieldSchema {
  readonly fields: Map<string, Field>;

  constructor(rows: FieldRow[]) {
    this.fields = new Map(rows.map((r) => [r.name, { data_type: r.data_type, mutable: !!r.mutable, unique: !!r.is_unique, description: r.description }]));
  }

  /**
   * The definitions an entry adds or changes, or the first reason it does not fit. A new field takes the
   * explicit type or the value's; an untyped field takes the value's type with `infer_untyped_fields`.
   * `context` names the context in the error, for a log in several.
   */
  plan(entry: SplitEntry, context?: string): { added: FieldChange[]; updated: FieldChange[] } | { error: string } {
    const added: FieldChange[] = [];
    const updated: FieldChange[] = [];
    for (const [name, value] of Object.entries(entry.fields)) {
      const explicit = Object.hasOwn(entry.explicit, name) ? entry.explicit[name]! : {};
      const known = this.fields.get(name);
      if (!known) {
        const type = explicit.type ?? inferType(value);
        if (type === undefined) continue;
        if (!fitsType(type, value)) return { error: typeMismatch(name, type, value, context) };
        added.push({ name, data_type: type, mutable: explicit.mutable ?? true, unique: explicit.unique ?? false, description: explicit.description ?? '' });
        continue;
      }
      let type = known.data_type;
      if (type === 'Any') type = explicit.type ?? (entry.inferUntyped ? (inferType(value) ?? 'Any') : 'Any');
      // JSON parsing cannot tell Python's 1.0 from 1, so a field inferred as int from 1.0 widens to
      // float when a fractional value comes, instead of refusing it.
      if (type === 'int' && typeof value === 'number' && !Number.isInteger(value)) type = 'float';
      if (!fitsType(type, value)) return { error: typeMismatch(name, type, value, context) };
      const next = { name, data_type: type, mutable: explicit.mutable ?? known.mutable, unique: known.unique, description: explicit.description ?? known.description };
      if (next.data_type !== known.data_type || next.mutable !== known.mutable || next.description !== known.description) updated.push(next);
    }
    return { added, updated };
  }

  /** Makes an accepted entry's changes visible to the next entries of the batch. */
  commit(changes: { added: FieldChange[]; updated: FieldChange[] }): void {
    for (const f of [...changes.added, ...changes.updated]) {
      this.fields.set(f.name, { data_type: f.data_type, mutable: f.mutable, unique: f.unique, description: f.description });
    }
  }
}
