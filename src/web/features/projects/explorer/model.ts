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

/** A header click: none → ascending → descending → none (newest first). */
export function nextSort(current: Sort | null, field: string): Sort | null {
  if (current?.field !== field) return { field, direction: 'ascending' };
  return current.direction === 'ascending' ? { field, direction: 'descending' } : null;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'None', 'True', 'False', 'true', 'false', 'null', 'if', 'else', 'lambda']);

/** A field as the filter language names it: bare when it is an identifier, in backticks otherwise. */
export const fieldRef = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name) ? name : `\`${name}\``);

/** A group's value as a filter literal, or null when the language has none for it (dicts). */
export function literal(value: unknown): string | null {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items = value.map(literal);
    return items.every((i) => i !== null) ? `[${items.join(', ')}]` : null;
  }
  return null;
}

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
