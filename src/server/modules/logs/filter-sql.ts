import { sql } from 'kysely';
import { FilterUnsupportedError, type CompareOp, type FilterNode, type NodeOf } from '../../../shared/logs-filter/index.ts';
import { containsNul } from '../../../shared/common.ts';
import type { Dialect } from '../../db/connection.ts';
import * as j from './json-sql.ts';
import { FALSE, TRUE, type JsonLoc, type PathStep, type Sql } from './json-sql.ts';

// Compiles a parsed filter (shared/logs-filter) into one SQL boolean over a log's entries, for SQLite
// and PostgreSQL, with every constant as a bound parameter. Python's meaning is kept where the contract
// asks for it: a missing field is None (`x != 5` is true, `x > 5` false, never an error), comparisons
// only between values of one kind (numbers, strings, booleans, lists/dicts by deep equality), `in` is
// substring, element or key membership by what the right side holds at run time.

/**
 * A compiled value: one SQL expression per kind it may have at run time, each NULL when the value is not
 * of that kind (an absent member: it never is). `none` is true for None and missing fields.
 */
interface Val {
  num?: Sql;
  str?: Sql;
  bool?: Sql;
  composite?: Sql;
  none: Sql;
  /** Where it is in the entries (fields and nested values): for nested access, len(), membership. */
  loc?: JsonLoc;
  path?: PathStep[];
  /** The entries column the path is in (one of the aliased row sources of a join, or the filter's own). */
  source?: Sql;
  /** The value, when known at compile time (literals): for literal lists on the right of `in`. */
  literal?: { value: unknown; items?: Val[] };
}

/**
 * Conditions known never to be NULL: `holds` does not wrap them again (each needless coalesce costs a few
 * per cent of a scan of 100 000 logs).
 */
const neverNull = new WeakSet<Sql>([TRUE, FALSE]);
const definite = (expr: Sql): Sql => (neverNull.add(expr), expr);
const allDefinite = (parts: Sql[]) => parts.every((p) => neverNull.has(p));

const booleanVal = (expr: Sql): Val => ({ bool: expr, none: FALSE });
const joined = (parts: Sql[], op: Sql, empty: Sql): Sql => {
  if (parts.length === 0) return empty;
  if (parts.length === 1) return parts[0]!;
  const expr = sql`(${sql.join(parts, op)})`;
  return allDefinite(parts) ? definite(expr) : expr;
};
const or = (parts: Sql[]): Sql => joined(parts, sql` or `, FALSE);
const and = (parts: Sql[]): Sql => joined(parts, sql` and `, TRUE);
const not = (part: Sql): Sql => (neverNull.has(part) ? definite(sql`(not ${part})`) : sql`(not ${part})`);
/** A comparison that is NULL when either side is not of the kind compares as false. */
const holds = (expr: Sql): Sql => (neverNull.has(expr) ? expr : definite(sql`coalesce(${expr}, false)`));

const ORDERED: Record<'<' | '<=' | '>' | '>=', Sql> = { '<': sql`<`, '<=': sql`<=`, '>': sql`>`, '>=': sql`>=` };
/** `5 < x` is `x > 5`. */
const MIRRORED = { '==': '==', '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const;
const ARITH = { '+': sql`+`, '-': sql`-`, '*': sql`*` };

export class FilterCompiler {
  constructor(
    readonly dialect: Dialect,
    /** The entries column (JSON text) of the row being filtered. */
    private readonly entries: Sql,
    /**
     * Aliased row sources (a join's `A` and `B`: alias → its entries column). When given, `A.x` and
     * `A['x']` are field x of source A, and a bare name is refused: every field must say its source.
     */
    private readonly aliases?: Readonly<Record<string, Sql>>,
  ) {}

  /** The filter as a WHERE condition (true or false, never NULL). */
  where(node: FilterNode): Sql {
    return this.truthy(this.value(node));
  }

  /** ORDER BY terms for a sort key: numbers, then strings, then booleans; a value of another kind sorts last. */
  orderBy(node: FilterNode, descending: boolean): Sql[] {
    return this.sortTermsOf(this.value(node), descending);
  }

  /**
   * orderBy for the rows of one query whose FROM clause takes `from` after its row source. On PostgreSQL
   * each of orderBy's terms extracts a field from the entries again, and every term is computed for every
   * match before the sort (over 33 000 matches of 100 000 logs, the three terms of one field doubled the
   * read): a LATERAL subquery extracts it once per row (`offset 0` keeps the planner from inlining it back).
   */
  orderByOnce(node: FilterNode, descending: boolean, from: Sql[]): { terms: Sql[]; num?: Sql; str?: Sql } {
    const v = this.value(node);
    if (v.loc?.dialect !== 'postgres') return { terms: this.sortTermsOf(v, descending) };
    const alias = `sort_key_${from.length}`;
    from.push(sql`cross join lateral (select ${v.loc.jb} as v offset 0) as ${sql.ref(alias)}`);
    const once = this.elementVal({ dialect: 'postgres', jb: sql.ref(`${alias}.v`) });
    return { terms: this.sortTermsOf(once, descending), num: once.num, str: once.str };
  }

  private sortTermsOf(v: Val, descending: boolean): Sql[] {
    const dir = descending ? sql`desc` : sql`asc`;
    const text = v.str && this.dialect === 'postgres' ? sql`${v.str} collate "C"` : v.str;
    return [v.num, text, v.bool].filter((e): e is Sql => e !== undefined).map((e) => sql`${e} ${dir} nulls last`);
  }

  /** An expression's value as SQL, one expression per kind it may have (NULL when it is not of that kind). */
  scalar(node: FilterNode): { num?: Sql; str?: Sql; bool?: Sql } {
    const v = this.value(node);
    return { num: v.num, str: v.str, bool: v.bool };
  }

  /** The log has this top-level field (a stored null counts). */
  fieldExists(name: string): Sql {
    return j.exists(this.locAt([name], 0));
  }

  /** A top-level field as a number (NULL unless it is one), and whether it holds a value (not None). */
  numberField(name: string): Sql {
    return j.numberOf(this.locAt([name], 0));
  }

  presentField(name: string): Sql {
    return sql`(not ${j.isNone(this.locAt([name], 0))})`;
  }

  /** The field's value as JSON text (NULL when missing): what grouping compares. */
  fieldJson(name: string): Sql {
    this.locAt([name], 0);
    return j.jsonTextAt(this.dialect, this.entries, [name]);
  }

  /** SQLite's JSON paths cannot quote a double quote, so such names are refused on both databases alike. */
  private locAt(path: PathStep[], position: number, source: Sql = this.entries): JsonLoc {
    if (path.some((step) => typeof step === 'string' && step.includes('"'))) throw new FilterUnsupportedError(position, 'a field name containing a double quote');
    return j.locAt(this.dialect, source, path);
  }

  private fieldVal(path: PathStep[], node: FilterNode, source: Sql = this.entries): Val {
    const loc = this.locAt(path, node.start, source);
    return { num: j.numberOf(loc), str: j.stringOf(loc), bool: j.boolOf(loc), composite: j.compositeOf(loc), none: j.isNone(loc), loc, path, source };
  }

  /** The source a node names when it is a bare alias (`A` of `A.x`); undefined otherwise. */
  private aliasOf(node: FilterNode): Sql | undefined {
    if (!this.aliases || node.type !== 'field') return undefined;
    return Object.hasOwn(this.aliases, node.name) ? this.aliases[node.name] : undefined;
  }

  /** A bare name: a field of the row, or (with aliases) an error that says which sources there are. */
  private bareField(node: NodeOf<'field'>): Val {
    if (!this.aliases) return this.fieldVal([node.name], node);
    const names = Object.keys(this.aliases);
    const example = `${names[0]}.${Object.hasOwn(this.aliases, node.name) ? 'field' : node.name}`;
    throw new FilterUnsupportedError(node.start, `"${node.name}" without its source: name a field of ${names.join(' or ')}, as ${example}`);
  }

  private elementVal(loc: JsonLoc): Val {
    return { num: j.numberOf(loc), str: j.stringOf(loc), bool: j.boolOf(loc), composite: j.compositeOf(loc), none: j.isNone(loc), loc };
  }

  private literal(value: unknown, node: FilterNode): Val {
    const pg = this.dialect === 'postgres';
    // PostgreSQL's text and jsonb have no NUL character (and no stored log holds one).
    if (containsNul(value)) throw new FilterUnsupportedError(node.start, 'a NUL character in a string');
    if (value === null) return { none: TRUE, literal: { value } };
    if (typeof value === 'number') return { num: pg ? sql`cast(${value} as numeric)` : sql`${value}`, none: FALSE, literal: { value } };
    if (typeof value === 'string') return { str: pg ? sql`cast(${value} as text)` : sql`${value}`, none: FALSE, literal: { value } };
    if (typeof value === 'boolean') return { bool: value ? TRUE : FALSE, none: FALSE, literal: { value } };
    if (Array.isArray(value))
      return { composite: j.compositeLiteral(this.dialect, value), none: FALSE, literal: { value, items: value.map((v) => this.literal(v, node)) } };
    return { composite: j.compositeLiteral(this.dialect, value), none: FALSE, literal: { value } };
  }

  /** The constant value of a literal, list or dict node; undefined when it depends on the log. */
  private constant(node: FilterNode): { value: unknown } | undefined {
    if (node.type === 'literal') return { value: node.value };
    if (node.type === 'negate') {
      const inner = this.constant(node.operand);
      return inner && typeof inner.value === 'number' ? { value: node.op === '-' ? -inner.value : inner.value } : undefined;
    }
    if (node.type === 'list') {
      const items = node.items.map((item) => this.constant(item));
      return items.every((i) => i !== undefined) ? { value: items.map((i) => i!.value) } : undefined;
    }
    if (node.type === 'dict') {
      const out: [string, unknown][] = [];
      for (const [k, v] of node.entries) {
        const key = this.constant(k);
        const value = this.constant(v);
        if (!key || typeof key.value !== 'string' || !value) return undefined;
        out.push([key.value, value.value]);
      }
      return { value: Object.fromEntries(out) };
    }
    return undefined;
  }

  private value(node: FilterNode): Val {
    switch (node.type) {
      case 'field':
        return this.bareField(node);
      case 'literal':
        return this.literal(node.value, node);
      case 'list': {
        const constant = this.constant(node);
        if (constant) return this.literal(constant.value, node);
        // A list with fields in it: only usable on the right of `in`.
        const items = node.items.map((item) => this.value(item));
        return { none: FALSE, literal: { value: undefined, items } };
      }
      case 'dict': {
        const constant = this.constant(node);
        if (!constant) throw new FilterUnsupportedError(node.start, 'a dictionary with computed keys or values');
        return this.literal(constant.value, node);
      }
      case 'not':
        return booleanVal(not(this.truthy(this.value(node.operand))));
      case 'bool': {
        const parts = node.operands.map((o) => this.truthy(this.value(o)));
        return booleanVal(node.op === 'and' ? and(parts) : or(parts));
      }
      case 'compare':
        return booleanVal(this.compare(node));
      case 'negate': {
        const v = this.value(node.operand);
        if (!v.num) throw new FilterUnsupportedError(node.start, `unary ${node.op} on a value that is not a number`);
        return { num: node.op === '-' ? sql`(- ${v.num})` : v.num, none: FALSE };
      }
      case 'arith':
        return this.arith(node);
      case 'index':
      case 'attribute':
        return this.nested(node);
      case 'slice':
        return this.slice(node);
      case 'call':
        return this.call(node);
      case 'method':
        return this.method(node);
    }
  }

  /** Python truthiness: None, 0, '', False, empty lists and dicts are false. */
  private truthy(v: Val): Sql {
    if (v.bool && !v.num && !v.str && !v.composite && !v.loc) return holds(v.bool);
    const parts: Sql[] = [];
    if (v.num) parts.push(holds(sql`${v.num} <> 0`));
    if (v.str) parts.push(holds(sql`${v.str} <> ''`));
    if (v.bool) parts.push(holds(v.bool));
    if (v.loc) parts.push(holds(sql`${j.lengthOf(v.loc)} > 0 and ${or([j.isKind(v.loc, 'list'), j.isKind(v.loc, 'dict')])}`));
    else if (v.literal && Array.isArray(v.literal.value)) parts.push(v.literal.value.length > 0 ? TRUE : FALSE);
    return or(parts);
  }

  private equal(a: Val, b: Val): Sql {
    const fast = this.numberPredicate(a, '==', b);
    if (fast) return fast;
    const parts: Sql[] = [];
    if (a.num && b.num) parts.push(holds(sql`${a.num} = ${b.num}`));
    if (a.str && b.str) parts.push(holds(sql`${a.str} = ${b.str}`));
    if (a.bool && b.bool) parts.push(holds(sql`${a.bool} = ${b.bool}`));
    if (a.composite && b.composite) parts.push(holds(sql`${a.composite} = ${b.composite}`));
    if (a.none !== FALSE && b.none !== FALSE) parts.push(and([a.none, b.none]));
    return or(parts);
  }

  private ordered(a: Val, op: '<' | '<=' | '>' | '>=', b: Val): Sql {
    const fast = this.numberPredicate(a, op, b);
    if (fast) return fast;
    const parts: Sql[] = [];
    if (a.num && b.num) parts.push(holds(sql`${a.num} ${ORDERED[op]} ${b.num}`));
    if (a.str && b.str) {
      // Code-point order, as Python compares strings (SQLite's default BINARY collation already is).
      const collate = this.dialect === 'postgres' ? sql` collate "C"` : sql``;
      parts.push(holds(sql`${a.str}${collate} ${ORDERED[op]} ${b.str}${collate}`));
    }
    return or(parts);
  }

  /**
   * PostgreSQL, a field (or nested value) compared with a number literal (`score > 0.5`, `0 <= meta.n`): one
   * strict-mode jsonpath predicate, which reads the number where it lies in the jsonb. The general form
   * extracts the value twice (its type, then its cast to numeric): over 100 000 logs ~70 ms against ~25 ms
   * for a scan that only counts them, where the predicate is ~27 ms. Same meaning: only a number compares with
   * a number, and a missing field, another kind, or a step into something that is not an object or list is
   * unknown in strict mode (errors silenced), which compares as false. The path is built from the field's
   * names as JSON strings (escaped as jsonpath reads them) and bound as a parameter, like the number.
   */
  private numberPredicate(a: Val, op: '==' | '<' | '<=' | '>' | '>=', b: Val): Sql | undefined {
    if (this.dialect !== 'postgres') return undefined;
    const flipped = !a.path;
    const [field, number] = flipped ? [b, a.literal?.value] : [a, b.literal?.value];
    if (!field.path || !field.source || typeof number !== 'number' || !Number.isFinite(number)) return undefined;
    if (field.path.some((step) => typeof step === 'number' && step < 0)) return undefined;
    const steps = field.path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${JSON.stringify(step)}`)).join('');
    const path = `strict $${steps} ${flipped ? MIRRORED[op] : op} $n`;
    return definite(
      sql`coalesce(jsonb_path_match(cast(${field.source} as jsonb), cast(${path} as jsonpath), cast(${JSON.stringify({ n: number })} as jsonb), true), false)`,
    );
  }

  /** `a in b`: literal list membership, substring of a string, element of a list, key of a dict. */
  private member(a: Val, b: Val, node: FilterNode): Sql {
    if (b.literal?.items) return or(b.literal.items.map((item) => this.equal(a, item)));
    const contains = (text: Sql) => holds(this.dialect === 'sqlite' ? sql`instr(${text}, ${a.str}) > 0` : sql`strpos(${text}, ${a.str}) > 0`);
    const parts: Sql[] = [];
    if (b.loc) {
      // A field or element: what `in` means depends on its kind, read once.
      const list = j.someElement(b.loc, (element) => this.equal(a, this.elementVal(element)));
      // Every branch is a coalesced comparison or an EXISTS, and byKind's ELSE is false: never NULL.
      parts.push(definite(j.byKind(b.loc, a.str ? { string: contains(j.rawString(b.loc)), list, dict: j.keyIn(b.loc, a.str) } : { list })));
    } else {
      if (a.str && b.str) parts.push(contains(b.str));
      if (a.str && b.literal && b.literal.value !== null && typeof b.literal.value === 'object') {
        parts.push(or(Object.keys(b.literal.value).map((k) => holds(sql`${a.str} = ${this.literal(k, node).str!}`))));
      }
    }
    if (!b.str && !b.loc && !b.literal) throw new FilterUnsupportedError(node.start, '"in" with a right side that is not a string, list, dict or field');
    return or(parts);
  }

  private compareOne(a: Val, op: CompareOp, b: Val, node: FilterNode): Sql {
    switch (op) {
      case '==':
      case 'is':
        return this.equal(a, b);
      case '!=':
      case 'is not':
        return not(this.equal(a, b));
      case 'in':
        return this.member(a, b, node);
      case 'not in':
        return not(this.member(a, b, node));
      default:
        return this.ordered(a, op, b);
    }
  }

  /** Chains (`0 < x < 5`) are the conjunction of their links, as in Python. */
  private compare(node: NodeOf<'compare'>): Sql {
    const values = [this.value(node.left), ...node.comparators.map((c) => this.value(c))];
    return and(node.ops.map((op, i) => this.compareOne(values[i]!, op, values[i + 1]!, node.comparators[i]!)));
  }

  private arith(node: NodeOf<'arith'>): Val {
    const a = this.value(node.left);
    const b = this.value(node.right);
    const out: Val = { none: FALSE };
    if (node.op === '+' && a.str && b.str) out.str = sql`(${a.str} || ${b.str})`;
    if (a.num && b.num) {
      switch (node.op) {
        case '+':
        case '-':
        case '*':
          out.num = sql`(${a.num} ${ARITH[node.op]} ${b.num})`;
          break;
        case '/':
          // True division (SQLite divides integers as integers); division by zero gives no number.
          out.num = sql`(${a.num} * 1.0 / nullif(${b.num}, 0))`;
          break;
        case '//':
          out.num = sql`floor(${a.num} * 1.0 / nullif(${b.num}, 0))`;
          break;
        case '%':
          // Python's modulo takes the divisor's sign.
          out.num = sql`(${a.num} - ${b.num} * floor(${a.num} * 1.0 / nullif(${b.num}, 0)))`;
          break;
        case '**':
          out.num = sql`power(${a.num}, ${b.num})`;
          break;
      }
    }
    if (!out.num && !out.str) throw new FilterUnsupportedError(node.start, `"${node.op}" on values that are not numbers (or strings for "+")`);
    return out;
  }

  /** `meta['k']`, `meta.k`, `items[0]`: a deeper place in the same log; the key must be a literal. */
  private nested(node: NodeOf<'index'> | NodeOf<'attribute'>): Val {
    const alias = this.aliasOf(node.value);
    const base: Val = alias ? { none: FALSE, path: [], source: alias } : this.value(node.value);
    if (!base.path) throw new FilterUnsupportedError(node.start, 'subscripts of a value that is not a field');
    let step: PathStep;
    if (node.type === 'attribute') step = node.name;
    else {
      const key = this.constant(node.index);
      if (!key || (typeof key.value !== 'string' && !(typeof key.value === 'number' && Number.isInteger(key.value)))) {
        throw new FilterUnsupportedError(node.index.start, 'a subscript that is not a literal string or integer');
      }
      step = key.value as PathStep;
    }
    return this.fieldVal([...base.path, step], node, base.source);
  }

  /** `name[0:3]`: string slices with literal non-negative bounds. */
  private slice(node: NodeOf<'slice'>): Val {
    const base = this.value(node.value);
    const bound = (b: FilterNode | null) => {
      if (!b) return undefined;
      const c = this.constant(b);
      if (!c || typeof c.value !== 'number' || !Number.isInteger(c.value) || c.value < 0)
        throw new FilterUnsupportedError(b.start, 'a slice bound that is not a literal integer ≥ 0');
      return c.value;
    };
    const lower = bound(node.lower) ?? 0;
    const upper = bound(node.upper);
    if (!base.str) throw new FilterUnsupportedError(node.start, 'slices of values that are not strings');
    const str = upper === undefined ? sql`substr(${base.str}, ${lower + 1})` : sql`substr(${base.str}, ${lower + 1}, ${Math.max(0, upper - lower)})`;
    return { str, none: FALSE };
  }

  private args(node: NodeOf<'call'> | NodeOf<'method'>, count: number[]): FilterNode[] {
    if (!count.includes(node.args.length)) throw new FilterUnsupportedError(node.start, `${node.name}() with ${node.args.length} arguments`);
    return node.args;
  }

  private call(node: NodeOf<'call'>): Val {
    const pg = this.dialect === 'postgres';
    switch (node.name) {
      case 'len': {
        const [arg] = this.args(node, [1]);
        const v = this.value(arg!);
        if (v.loc) return { num: j.lengthOf(v.loc), none: FALSE };
        if (v.str) return { num: pg ? sql`char_length(${v.str})` : sql`length(${v.str})`, none: FALSE };
        if (v.literal?.items) return this.literal(v.literal.items.length, node);
        throw new FilterUnsupportedError(node.start, 'len() of a value that is not a field, string or list');
      }
      case 'exists': {
        const [arg] = this.args(node, [1]);
        const v = this.value(arg!);
        if (!v.loc) throw new FilterUnsupportedError(arg!.start, 'exists() of something that is not a field');
        return booleanVal(j.exists(v.loc));
      }
      case 'str': {
        const v = this.value(this.args(node, [1])[0]!);
        const parts = [v.str, v.num && (pg ? sql`cast(${v.num} as text)` : sql`cast(${v.num} as text)`)].filter((p): p is Sql => !!p);
        return { str: parts.length === 1 ? parts[0]! : sql`coalesce(${sql.join(parts)})`, none: FALSE };
      }
      case 'int': {
        const v = this.value(this.args(node, [1])[0]!);
        if (!v.num) throw new FilterUnsupportedError(node.start, 'int() of a value that is not a number');
        return { num: pg ? sql`trunc(${v.num})` : sql`cast(${v.num} as integer)`, none: FALSE };
      }
      case 'float': {
        const v = this.value(this.args(node, [1])[0]!);
        if (!v.num) throw new FilterUnsupportedError(node.start, 'float() of a value that is not a number');
        return { num: sql`(${v.num} * 1.0)`, none: FALSE };
      }
      case 'bool':
        return booleanVal(this.truthy(this.value(this.args(node, [1])[0]!)));
      case 'type': {
        const v = this.value(this.args(node, [1])[0]!);
        if (!v.loc) throw new FilterUnsupportedError(node.start, 'type() of something that is not a field');
        return { str: j.typeName(v.loc), none: FALSE };
      }
      case 'isinstance': {
        const [arg, kind] = this.args(node, [2]);
        const v = this.value(arg!);
        const name = this.constant(kind!);
        if (!v.loc) throw new FilterUnsupportedError(node.start, 'isinstance() of something that is not a field');
        if (!name || typeof name.value !== 'string') throw new FilterUnsupportedError(kind!.start, 'isinstance() with a type that is not a string');
        return booleanVal(holds(sql`${j.typeName(v.loc)} = ${this.literal(name.value, node).str!}`));
      }
      default:
        throw new FilterUnsupportedError(node.start, `the function ${node.name}()`);
    }
  }

  private method(node: NodeOf<'method'>): Val {
    const base = this.value(node.value);
    if (node.name === 'get') {
      const [key, fallback] = this.args(node, [1, 2]);
      if (!base.path) throw new FilterUnsupportedError(node.start, '.get() of a value that is not a field');
      const k = this.constant(key!);
      if (!k || typeof k.value !== 'string') throw new FilterUnsupportedError(key!.start, '.get() with a key that is not a literal string');
      const inner = this.fieldVal([...base.path, k.value], node, base.source);
      if (!fallback) return inner;
      const other = this.value(fallback);
      const present = j.exists(inner.loc!);
      const pick = (a?: Sql, b?: Sql) => (a || b ? sql`(case when ${present} then ${a ?? sql`null`} else ${b ?? sql`null`} end)` : undefined);
      return {
        num: pick(inner.num, other.num),
        str: pick(inner.str, other.str),
        bool: pick(inner.bool, other.bool),
        composite: pick(inner.composite, other.composite),
        none: sql`(case when ${present} then ${inner.none} else ${other.none} end)`,
      };
    }
    if (!base.str) throw new FilterUnsupportedError(node.start, `.${node.name}() of a value that is not a string`);
    const s = base.str;
    switch (node.name) {
      case 'lower':
      case 'upper':
        this.args(node, [0]);
        return { str: node.name === 'lower' ? sql`lower(${s})` : sql`upper(${s})`, none: FALSE };
      case 'strip':
        this.args(node, [0]);
        return { str: sql`trim(${s})`, none: FALSE };
      case 'startswith':
      case 'endswith':
      case 'contains': {
        const p = this.value(this.args(node, [1])[0]!).str;
        if (!p) throw new FilterUnsupportedError(node.start, `.${node.name}() of a value that is not a string`);
        if (node.name === 'contains') return booleanVal(this.member({ str: p, none: FALSE }, { str: s, none: FALSE }, node));
        const test =
          node.name === 'startswith'
            ? sql`substr(${s}, 1, length(${p})) = ${p}`
            : sql`(length(${s}) >= length(${p}) and substr(${s}, length(${s}) - length(${p}) + 1) = ${p})`;
        return booleanVal(holds(test));
      }
      default:
        throw new FilterUnsupportedError(node.start, `the method .${node.name}()`);
    }
  }
}
