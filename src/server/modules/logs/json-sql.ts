import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/connection.ts';

// The few JSON primitives the filter compiler needs, once per dialect: SQLite's JSON1 (json_type,
// json_extract, json_each) and PostgreSQL's jsonb. Every value from a request is a bound parameter.

export type Sql = RawBuilder<unknown>;

/** A place in a log's entries (a field, a nested value, an element of a list), as SQL. */
export type JsonLoc = { dialect: 'sqlite'; type: Sql; value: Sql } | { dialect: 'postgres'; jb: Sql; text?: Sql };

export type PathStep = string | number;

export const TRUE: Sql = sql`true`;
export const FALSE: Sql = sql`false`;

/**
 * One key step of a SQLite JSON path, quoted so that `.` or spaces in a name are literal. SQLite reads escapes
 * in a quoted label as JSON does: a backslash in a name must be escaped (`a\b` was read as a\u0008 and
 * matched nothing), and so are control characters.
 */
export function sqliteKeyStep(name: string): string {
  return `.${JSON.stringify(name)}`;
}

/** SQLite's JSON path for static steps: `$."meta"."user"[0]`. */
function sqlitePath(steps: PathStep[]): string {
  return `$${steps.map((s) => (typeof s === 'number' ? (s < 0 ? `[#${s}]` : `[${s}]`) : sqliteKeyStep(s))).join('')}`;
}

/** The value at `steps` inside the JSON text column `entries`. */
export function locAt(dialect: Dialect, entries: Sql, steps: PathStep[]): JsonLoc {
  if (dialect === 'sqlite') {
    const path = sqlitePath(steps);
    return { dialect, type: sql`json_type(${entries}, ${path})`, value: sql`json_extract(${entries}, ${path})` };
  }
  return { dialect, jb: pgPath(entries, steps), ...(steps.length > 0 ? { text: pgPath(entries, steps, true) } : {}) };
}

/**
 * PostgreSQL: `->` step by step, a key as text and an index as an integer (a key "0" is not element 0, as
 * on SQLite). `#>` with a text[] path was ~20 ms slower per field over 100 000 logs. `asText`: the last
 * step is `->>`, a string's own text, which spares extracting it as jsonb first and then `#>> '{}'` (~8 ms
 * per field over 100 000 logs).
 */
function pgPath(entries: Sql, steps: PathStep[], asText = false): Sql {
  const walk = steps.reduce<Sql>(
    (at, step, i) => {
      const arrow = asText && i === steps.length - 1 ? sql`->>` : sql`->`;
      return typeof step === 'number' ? sql`${at} ${arrow} cast(${step} as integer)` : sql`${at} ${arrow} cast(${step} as text)`;
    },
    sql`cast(${entries} as jsonb)`,
  );
  return sql`(${walk})`;
}

/** PostgreSQL: the text of the string at `loc` (known to be one). */
const pgText = (loc: { jb: Sql; text?: Sql }): Sql => loc.text ?? sql`(${loc.jb} #>> '{}')`;

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

/** isKind for a CASE WHEN, where NULL already counts as false: without its coalesce. */
function whenKind(loc: JsonLoc, ...kinds: Kind[]): Sql {
  if (loc.dialect === 'postgres' && kinds.some((k) => k === 'int' || k === 'float'))
    return sql`(${sql.join(
      kinds.map((k) => isKind(loc, k)),
      sql` or `,
    )})`;
  return sql`${typeOf(loc)} in (${sql.join(kinds.flatMap((k) => TYPE_NAMES[loc.dialect][k]))})`;
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
    ? sql`(case when ${whenKind(loc, 'number')} then ${loc.value} end)`
    : sql`(case when ${whenKind(loc, 'number')} then cast(${loc.jb} as numeric) end)`;
}

export function stringOf(loc: JsonLoc): Sql {
  return loc.dialect === 'sqlite'
    ? sql`(case when ${whenKind(loc, 'string')} then ${loc.value} end)`
    : sql`(case when ${whenKind(loc, 'string')} then ${pgText(loc)} end)`;
}

export function boolOf(loc: JsonLoc): Sql {
  return loc.dialect === 'sqlite'
    ? sql`(case ${loc.type} when 'true' then true when 'false' then false end)`
    : sql`(case when ${whenKind(loc, 'bool')} then cast(${loc.jb} as boolean) end)`;
}

/** Lists and dicts, comparable for deep equality: SQLite's minified JSON text, PostgreSQL's jsonb. */
export function compositeOf(loc: JsonLoc): Sql {
  const composite = whenKind(loc, 'list', 'dict');
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
  return sql`(case ${t} when 'string' then char_length(${pgText(loc)}) when 'array' then jsonb_array_length(${loc.jb}) when 'object' then (select count(*) from jsonb_object_keys(${loc.jb})) end)`;
}

/** True when some element of the list at `loc` satisfies `test` (false for anything but a list). */
export function anyElement(loc: JsonLoc, test: (element: JsonLoc) => Sql): Sql {
  return byKind(loc, { list: someElement(loc, test) });
}

/** The kinds `byKind` tells apart, by their JSON type names. */
const BRANCH_KINDS: Record<Dialect, Record<'string' | 'list' | 'dict', string>> = {
  sqlite: { string: 'text', list: 'array', dict: 'object' },
  postgres: { string: 'string', list: 'array', dict: 'object' },
};

/**
 * One condition per kind of the value at `loc`, its JSON type read once (a filter such as `'x' in tag` asks
 * whether tag is a string, a list or a dict: three reads of the type in three guarded alternatives were a
 * third of a filtered scan); false for any other kind and for a missing value. Inside a branch the kind is
 * known: `rawString`, `someElement` and `keyIn` read the value without testing it again.
 */
export function byKind(loc: JsonLoc, branches: Partial<Record<'string' | 'list' | 'dict', Sql>>): Sql {
  const names = BRANCH_KINDS[loc.dialect];
  const whens = Object.entries(branches).map(([kind, test]) => sql`when ${names[kind as keyof typeof names]} then ${test}`);
  return whens.length ? sql`(case ${typeOf(loc)} ${sql.join(whens, sql` `)} else false end)` : FALSE;
}

/** The string at `loc`, known to be one (inside byKind's string branch). */
export function rawString(loc: JsonLoc): Sql {
  return loc.dialect === 'sqlite' ? loc.value : pgText(loc);
}

/** Some element of the list at `loc` (known to be a list) satisfies `test`. */
export function someElement(loc: JsonLoc, test: (element: JsonLoc) => Sql): Sql {
  if (loc.dialect === 'sqlite') {
    const element: JsonLoc = { dialect: 'sqlite', type: sql.ref('el.type'), value: sql.ref('el.value') };
    return sql`exists (select 1 from json_each(${loc.value}) as el where ${test(element)})`;
  }
  const element: JsonLoc = { dialect: 'postgres', jb: sql.ref('el.value') };
  return sql`exists (select 1 from jsonb_array_elements(${loc.jb}) as el(value) where ${test(element)})`;
}

/** The dict at `loc` (known to be a dict) has the key. */
export function keyIn(loc: JsonLoc, key: Sql): Sql {
  return loc.dialect === 'sqlite'
    ? sql`exists (select 1 from json_each(${loc.value}) as k where k.key = ${key})`
    : sql`exists (select 1 from jsonb_object_keys(${loc.jb}) as k(key) where k.key = ${key})`;
}

/** True when the dict at `loc` has the key (false for anything but a dict). */
export function hasKey(loc: JsonLoc, key: Sql): Sql {
  return byKind(loc, { dict: keyIn(loc, key) });
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
  if (dialect === 'sqlite') return sql`(${entries} -> ${sqlitePath(steps)})`;
  return sql`cast(${pgPath(entries, steps)} as text)`;
}
