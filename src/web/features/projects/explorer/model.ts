// Pure helpers of the log explorer: how its state is written in the URL and turned into filters.

export type Direction = 'ascending' | 'descending';
export interface Sort {
  field: string;
  direction: Direction;
}

/** `sort=score:desc` in the URL (the field may itself hold colons: the direction is after the last one). */
export function sortFromParam(param: string | null): Sort | null {
  if (!param) return null;
  const cut = param.lastIndexOf(':');
  if (cut <= 0) return null;
  const dir = param.slice(cut + 1);
  if (dir !== 'asc' && dir !== 'desc') return null;
  return { field: param.slice(0, cut), direction: dir === 'asc' ? 'ascending' : 'descending' };
}
export const sortToParam = (sort: Sort) => `${sort.field}:${sort.direction === 'ascending' ? 'asc' : 'desc'}`;

/** The log id as a sort key: the logs API's pseudo-field (the explorer's id column). */
export const ID_SORT = 'log_id';

/** Sort keys from the URL (`sort=score:desc&sort=n:asc`, priority in order); bad or repeated ones are dropped. */
export function sortsFromParams(params: readonly string[]): Sort[] {
  const sorts: Sort[] = [];
  for (const p of params) {
    const s = sortFromParam(p);
    if (s && !sorts.some((t) => t.field === s.field)) sorts.push(s);
  }
  return sorts;
}

const cycle = (d: Direction | undefined): Direction | null => (d === undefined ? 'ascending' : d === 'ascending' ? 'descending' : null);

/**
 * A header click: that column alone, ascending (any other keys dropped), then descending, then none
 * (newest first). With shift (`add`) the column is added as the last key, or its direction cycles
 * in place and it leaves after descending.
 */
export function clickSort(current: readonly Sort[], field: string, add: boolean): Sort[] {
  const mine = current.find((s) => s.field === field)?.direction;
  const next = cycle(mine);
  if (!add) {
    if (current.length !== 1 || mine === undefined) return [{ field, direction: 'ascending' }];
    return next ? [{ field, direction: next }] : [];
  }
  if (mine === undefined) return [...current, { field, direction: 'ascending' }];
  return next ? current.map((s) => (s.field === field ? { field, direction: next } : s)) : current.filter((s) => s.field !== field);
}

/** A key moved up (-1) or down (+1) in priority. */
export function moveSort(current: readonly Sort[], field: string, delta: -1 | 1): Sort[] {
  const i = current.findIndex((s) => s.field === field);
  const j = i + delta;
  if (i < 0 || j < 0 || j >= current.length) return [...current];
  const next = [...current];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'None', 'True', 'False', 'true', 'false', 'null', 'if', 'else', 'lambda']);

/** A field as the filter language names it: bare when it is an identifier, in backticks otherwise. */
export const fieldRef = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name) ? name : `\`${name}\``);

/**
 * The sort keys as the logs API's `sorting` names them: the id column as `log_id`, fields as the filter
 * language names them (in backticks when not an identifier: `my score`, `class`).
 */
export const sortingOf = (sort: readonly Sort[]): Sort[] => sort.map((s) => ({ field: s.field === ID_SORT ? ID_SORT : fieldRef(s.field), direction: s.direction }));

/** A group's value as a filter literal (dicts and lists compare by deep equality), or null when it has none. */
export function literal(value: unknown): string | null {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items = value.map(literal);
    return items.every((i) => i !== null) ? `[${items.join(', ')}]` : null;
  }
  if (typeof value === 'object') {
    const items = Object.entries(value as Record<string, unknown>).map(([k, v]) => [JSON.stringify(k), literal(v)] as const);
    return items.every(([, v]) => v !== null) ? `{${items.map(([k, v]) => `${k}: ${v}`).join(', ')}}` : null;
  }
  return null;
}

/** A group's own condition: logs whose field is stored as null; logs without the field ("(no value)"). */
export const nullCond = (field: string) => `exists(${fieldRef(field)}) and ${fieldRef(field)} is None`;
export const missingCond = (field: string) => `not exists(${fieldRef(field)})`;

/** Both conditions (either may be empty). */
export function andFilters(a: string, b: string): string {
  const x = a.trim();
  const y = b.trim();
  if (!x) return y;
  if (!y) return x;
  return `(${x}) and (${y})`;
}

/** Python's str() of a group value: how the metric route keys its groups. */
export function groupKey(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

export const isNumericType = (type: string | undefined) => type === 'int' || type === 'float';

/** A metric as the summary shows it: integers as they are, others to 4 significant digits. */
export function formatMetric(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'number') return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en');
  return Number(value.toPrecision(4)).toLocaleString('en', { maximumFractionDigits: 6 });
}

const storageKey = (project: string, context: string) => `roster:columns:${project}\u0000${context}`;

/** The columns chosen for a context this tab (sessionStorage: a view preference, nothing secret). */
export function loadColumns(project: string, context: string): string[] | null {
  try {
    const raw = sessionStorage.getItem(storageKey(project, context));
    const value: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
  } catch {
    return null;
  }
}
export function saveColumns(project: string, context: string, columns: string[] | null) {
  try {
    if (columns) sessionStorage.setItem(storageKey(project, context), JSON.stringify(columns));
    else sessionStorage.removeItem(storageKey(project, context));
  } catch {
    // Storage full or refused: the choice lasts until the page is left.
  }
}
