// Grouped reads of GET /v0/logs (logs-api.md §4.4): the page of logs the filter and sorting selected,
// grouped by field values in the order the logs come, nested (the SDK walks it recursively) or flat.

export interface Row {
  id: number;
  ts: string | null;
  entries: Record<string, unknown>;
  derived_entries: Record<string, unknown>;
}

export interface GroupOptions {
  fields: string[];
  /** Groups per level after `offset` (every level); undefined = all. */
  limit?: number;
  offset: number;
  /** Stop nesting after this many levels. */
  depth?: number;
  /** Leaves are ids (or `{id: ts}` with timestamps) instead of rows. */
  groupsOnly: boolean;
  timestamps: boolean;
}

/** Python's str() of a group value, as the SDK expects keys: `0` → "0", True → "True", missing → "null". */
export function groupKey(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

function partition(rows: Row[], field: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = groupKey(row.entries[field]);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

function leaf(rows: Row[], options: GroupOptions): unknown {
  if (!options.groupsOnly) return rows;
  return options.timestamps ? Object.fromEntries(rows.map((r) => [r.id, r.ts])) : rows.map((r) => r.id);
}

/** `{field: {group: [{key, value}], group_count, count}}`, one level per field. */
export function nestedGroups(rows: Row[], options: GroupOptions, level = 0): unknown {
  const field = options.fields[level]!;
  const all = [...partition(rows, field)];
  const page = all.slice(options.offset, options.limit === undefined ? undefined : options.offset + options.limit);
  const last = level + 1 >= options.fields.length || (options.depth !== undefined && level + 1 >= options.depth);
  return {
    [field]: {
      group: page.map(([key, members]) => ({ key, value: last ? leaf(members, options) : nestedGroups(members, options, level + 1) })),
      group_count: all.length,
      count: rows.length,
    },
  };
}

/** `{field: {"value": [ids…], group_count, count}}` per field, next to the rows themselves. */
export function flatGroups(rows: Row[], options: GroupOptions): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    options.fields.map((field) => {
      const all = [...partition(rows, field)];
      const page = all.slice(options.offset, options.limit === undefined ? undefined : options.offset + options.limit);
      return [field, { ...Object.fromEntries(page.map(([key, members]) => [key, members.map((r) => r.id)])), group_count: all.length, count: rows.length }];
    }),
  );
}
