import { isJsonObject } from '../../../shared/common.ts';
import type { FieldType } from '../../../shared/logs.ts';

// Field types of the logs API: inferred from the first value written, then checked on later writes
// (logs-api.md §2, §10). None fits every type.

/** The type a value gives a new field; undefined for None (the field stays untyped until a value comes). */
export function inferType(value: unknown): FieldType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2}|Z)?$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2}|Z)?$/;

const FITS: Record<FieldType, (v: unknown) => boolean> = {
  Any: () => true,
  int: (v) => typeof v === 'number' && Number.isInteger(v),
  // Python accepts an int where a float is expected (the JSON of 2.0 is 2).
  float: (v) => typeof v === 'number',
  str: (v) => typeof v === 'string',
  bool: (v) => typeof v === 'boolean',
  datetime: (v) => typeof v === 'string' && ISO_DATETIME.test(v) && !Number.isNaN(Date.parse(v.replace(' ', 'T'))),
  date: (v) => typeof v === 'string' && ISO_DATE.test(v) && !Number.isNaN(Date.parse(v)),
  time: (v) => typeof v === 'string' && ISO_TIME.test(v),
  // Seconds, or the ISO-8601 duration / Python str(timedelta) a client serialised it as.
  timedelta: (v) => typeof v === 'number' || typeof v === 'string',
  dict: isJsonObject,
  list: (v) => Array.isArray(v),
};

export function fitsType(type: FieldType, value: unknown): boolean {
  return value === null || FITS[type](value);
}

/** What a type error says: the field, its type (in which context, when that matters) and the value that does not fit (shortened). */
export function typeMismatch(field: string, type: FieldType, value: unknown, context?: string): string {
  const shown = JSON.stringify(value);
  const where = context === undefined ? '' : ` in context '${context}'`;
  return `Field '${field}' has type ${type}${where}; the value ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown} does not fit it.`;
}
