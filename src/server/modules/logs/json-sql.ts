import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/connection.ts';

// The few JSON primitives the filter compiler needs, once per dialect: SQLite's JSON1 (json_type,
// json_extract, json_each) and PostgreSQL's jsonb. Every value from a request is a bound parameter.

export type Sql = RawBuilder<unknown>;

/** A place in a log's entries (a field, a nested value, an element of a list), as SQL. */
export type JsonLoc = { dialect: 'sqlite'; type: Sql; value: Sql } | { dialect: 'postgres'; jb: Sql };

export type PathStep = string | number;

export const TRUE: Sql = sql`true`;
export const FALSE: Sql = sql`false`;

/** SQLite's JSON path for static steps: `$."meta"."user"[0]`; labels are quoted, so `.` or spaces in a name are literal. */
function sqlitePath(steps: PathStep[]): string {
  return `$${steps.map((s) => (typeof s === 'number' ? (s < 0 ? `[#${s}]` : `[${s}]`) : `."${s}"`)).join('')}`;
}

/** The value at `steps` inside the JSON text column `entries`. */
export function locAt(dialect: Dialect, entries: Sql, steps: PathStep[]): JsonLoc {
  if (dialect === 'sqlite') {
    const path = sqlitePath(steps);
    return { dialect, type: sql`json_type(${entries}, ${path})`, value: sql`json_extract(${entries}, ${path})` };
  }
  return { dialect, jb: sql`(cast(${entries} as jsonb) #> cast(${steps.map(String)} as text[]))` };
}

/** The dialect's JSON type name(s) of a Python-ish kind. */
const TYPE_NAMES: Record<Dialect, Record<'number' | 'string' | 'bool' | 'list' | 'dict' | 'null' | 'int' | 'float', string[]>> = {
  sqlite: {
    number: ['integer', 'real'],
    int: ['integer'],
    float: ['real'],
    string: ['text'],
    bool: ['true', 'false'],
    list: ['array'],
    dict: ['object'],
    null: ['null'],
  },
  postgres: { number: ['number'], int: ['number'], float: ['number'], string: ['string'], bool: ['boolean'], list: ['array'], dict: ['object'], null: ['null'] },
};

export type Kind = keyof (typeof TYPE_NAMES)['sqlite'];

function typeOf(loc: JsonLoc): Sql {
  return loc.dialect === 'sqlite' ? loc.type : sql`jsonb_typeof(${loc.jb})`;
}

/** True when the value has that kind (never NULL). PostgreSQL has one number type: int/float tell integers by their fraction. */
export function isKind(loc: JsonLoc, kind: Kind): Sql {
  const names = TYPE_NAMES[loc.dialect][kind];
  const test = sql`coalesce(${typeOf(loc)} in (${sql.join(names)}), false)`;
  if (loc.dialect === 'postgres' && (kind === 'int' || kind === 'float')) {
    return sql`(${test} and (cast(${loc.jb} as numeric) = trunc(cast(${loc.jb} as numeric))) = ${kind === 'int' ? TRUE : FALSE})`;
  }
  return test;
}

/** Present in the entries (a stored null counts as present). */
export function exists(loc: JsonLoc): Sql {
  return sql`(${typeOf(loc)} is not null)`;
}

/** Missing or null: Python's None. */
export function isNone(loc: JsonLoc): Sql {
  return sql`(coalesce(${typeOf(loc)}, 'null') = 'null')`;
}

/** Each accessor is NULL unless the value has that kind; CASE keeps PostgreSQL from casting a string to numeric. */
export function numberOf(loc: JsonLoc): Sql {
  return loc.dialect === 'sqlite'
    ? sql`(case when ${isKind(loc, 'number')} then ${loc.value} end)`
    : sql`(case when ${isKind(loc, 'number')} then cast(${loc.jb} as numeric) end)`;
}

export function stringOf(loc: JsonLoc): Sql {
  return loc.dialect === 'sqlite'
    ? sql`(case when ${isKind(loc, 'string')} then ${loc.value} end)`
    : sql`(case when ${isKind(loc, 'string')} then ${loc.jb} #>> '{}' end)`;
}

export function boolOf(loc: JsonLoc): Sql {
  return loc.dialect === 'sqlite'
    ? sql`(case ${loc.type} when 'true' then true when 'false' then false end)`
    : sql`(case when ${isKind(loc, 'bool')} then cast(${loc.jb} as boolean) end)`;
}

/** Lists and dicts, comparable for deep equality: SQLite's minified JSON text, PostgreSQL's jsonb. */
export function compositeOf(loc: JsonLoc): Sql {
  const composite = sql`(${isKind(loc, 'list')} or ${isKind(loc, 'dict')})`;
  return loc.dialect === 'sqlite' ? sql`(case when ${composite} then ${loc.value} end)` : sql`(case when ${composite} then ${loc.jb} end)`;
}

/** A literal list or dict in the same form as compositeOf. */
export function compositeLiteral(dialect: Dialect, value: unknown): Sql {
  const text = JSON.stringify(value);
  return dialect === 'sqlite' ? sql`json(${text})` : sql`cast(${text} as jsonb)`;
}

/** Python's len(): characters of a string, items of a list, keys of a dict; NULL otherwise. */
export function lengthOf(loc: JsonLoc): Sql {
  if (loc.dialect === 'sqlite') {
    return sql`(case ${loc.type} when 'text' then length(${loc.value}) when 'array' then json_array_length(${loc.value}) when 'object' then (select count(*) from json_each(${loc.value})) end)`;
  }
  const t = sql`jsonb_typeof(${loc.jb})`;
  return sql`(case ${t} when 'string' then char_length(${loc.jb} #>> '{}') when 'array' then jsonb_array_length(${loc.jb}) when 'object' then (select count(*) from jsonb_object_keys(${loc.jb})) end)`;
}

/** True when some element of the list at `loc` satisfies `test` (false for anything but a list). */
export function anyElement(loc: JsonLoc, test: (element: JsonLoc) => Sql): Sql {
  if (loc.dialect === 'sqlite') {
    const element: JsonLoc = { dialect: 'sqlite', type: sql.ref('el.type'), value: sql.ref('el.value') };
    return sql`(case when ${isKind(loc, 'list')} then exists (select 1 from json_each(${loc.value}) as el where ${test(element)}) else false end)`;
  }
  const element: JsonLoc = { dialect: 'postgres', jb: sql.ref('el.value') };
  return sql`(case when ${isKind(loc, 'list')} then exists (select 1 from jsonb_array_elements(${loc.jb}) as el(value) where ${test(element)}) else false end)`;
}

/** True when the dict at `loc` has the key (false for anything but a dict). */
export function hasKey(loc: JsonLoc, key: Sql): Sql {
  if (loc.dialect === 'sqlite') {
    return sql`(case when ${isKind(loc, 'dict')} then exists (select 1 from json_each(${loc.value}) as k where k.key = ${key}) else false end)`;
  }
  return sql`(case when ${isKind(loc, 'dict')} then exists (select 1 from jsonb_object_keys(${loc.jb}) as k(key) where k.key = ${key}) else false end)`;
}

/** Python's type() names, for `type(x) == 'str'`; a missing field is NoneType. */
export function typeName(loc: JsonLoc): Sql {
  if (loc.dialect === 'sqlite') {
    return sql`(case coalesce(${loc.type}, 'null') when 'integer' then 'int' when 'real' then 'float' when 'text' then 'str' when 'true' then 'bool' when 'false' then 'bool' when 'array' then 'list' when 'object' then 'dict' else 'NoneType' end)`;
  }
  return sql`(case coalesce(jsonb_typeof(${loc.jb}), 'null') when 'number' then (case when ${isKind(loc, 'int')} then 'int' else 'float' end) when 'string' then 'str' when 'boolean' then 'bool' when 'array' then 'list' when 'object' then 'dict' else 'NoneType' end)`;
}

/** The entries object has a key other than `names` (a log that keeps something after `exclude_fields`). */
export function hasKeyOutside(dialect: Dialect, entries: Sql, names: string[]): Sql {
  const outside = names.length ? sql`where k.key not in (${sql.join(names)})` : sql``;
  return dialect === 'sqlite'
    ? sql`exists (select 1 from json_each(${entries}) as k ${outside})`
    : sql`exists (select 1 from jsonb_object_keys(cast(${entries} as jsonb)) as k(key) ${outside})`;
}

/** The JSON text of the value at `steps` (NULL when missing), for grouping by any kind of value. */
export function jsonTextAt(dialect: Dialect, entries: Sql, steps: PathStep[]): Sql {
  if (dialect === 'sqlite') {
    const path = `$${steps.map((s) => (typeof s === 'number' ? `[${s}]` : `."${s}"`)).join('')}`;
    return sql`(${entries} -> ${path})`;
  }
  return sql`cast(cast(${entries} as jsonb) #> cast(${steps.map(String)} as text[]) as text)`;
}
