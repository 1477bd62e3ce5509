import type { ArithOp, CompareOp, FilterNode } from './ast.ts';
import { FilterSyntaxError } from './errors.ts';
import { tokenize, type Token } from './tokenizer.ts';

// A recursive-descent parser for the grammar of logs-api.md §11.1, with Python's precedence:
// or < and < not < comparisons (chained) < + - < * / // % < unary - + < ** < postfix ([], [:], .name, calls).

/** Longer filters are refused before tokenizing: the work per request stays bounded. */
export const MAX_FILTER_LENGTH = 8192;
/** Deeper nesting (brackets, `not not …`, chained postfixes) is refused: the recursion stays bounded. */
export const MAX_FILTER_DEPTH = 48;

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private get token(): Token {
    return this.tokens[this.i]!;
  }

  private peek(offset = 1): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)]!;
  }

  private is(text: string, token = this.token): boolean {
    return (token.kind === 'op' || token.kind === 'keyword') && token.text === text;
  }

  private take(text: string): boolean {
    if (!this.is(text)) return false;
    this.i++;
    return true;
  }

  private expect(text: string, what = `"${text}"`): Token {
    const token = this.token;
    if (!this.is(text)) throw this.error(what);
    this.i++;
    return token;
  }

  private error(expected: string): FilterSyntaxError {
    const found = this.token.kind === 'end' ? 'the end of the expression' : `"${this.token.kind === 'string' ? JSON.stringify(this.token.text) : this.token.text}"`;
    return new FilterSyntaxError(this.token.start, expected, `Invalid filter expression: expected ${expected} at position ${this.token.start}, found ${found}.`);
  }

  /** Every recursive rule enters here, so depth is counted in one place. */
  private nested<T>(start: number, parse: () => T): T {
    if (++this.depth > MAX_FILTER_DEPTH) throw new FilterSyntaxError(start, `at most ${MAX_FILTER_DEPTH} levels of nesting`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  parseAll(): FilterNode {
    const node = this.expression();
    if (this.token.kind !== 'end') throw this.error('an operator ("and", "or", a comparison) or the end of the expression');
    return node;
  }

  expression(): FilterNode {
    return this.nested(this.token.start, () => this.boolean('or', () => this.boolean('and', () => this.not())));
  }

  private boolean(op: 'and' | 'or', operand: () => FilterNode): FilterNode {
    const first = operand();
    const operands = [first];
    while (this.take(op)) operands.push(operand());
    if (operands.length === 1) return first;
    return { type: 'bool', op, operands, start: first.start, end: operands.at(-1)!.end };
  }

  private not(): FilterNode {
    const start = this.token.start;
    if (this.take('not')) {
      const operand = this.nested(start, () => this.not());
      return { type: 'not', operand, start, end: operand.end };
    }
    return this.comparison();
  }

  private compareOp(): CompareOp | null {
    const t = this.token;
    if (t.kind === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.text)) {
      this.i++;
      return t.text as CompareOp;
    }
    if (this.is('in')) {
      this.i++;
      return 'in';
    }
    if (this.is('not') && this.is('in', this.peek())) {
      this.i += 2;
      return 'not in';
    }
    if (this.is('is')) {
      this.i++;
      return this.take('not') ? 'is not' : 'is';
    }
    return null;
  }

  private comparison(): FilterNode {
    const left = this.arith();
    const ops: CompareOp[] = [];
    const comparators: FilterNode[] = [];
    for (let op = this.compareOp(); op; op = this.compareOp()) {
      ops.push(op);
      comparators.push(this.arith());
    }
    if (ops.length === 0) return left;
    return { type: 'compare', left, ops, comparators, start: left.start, end: comparators.at(-1)!.end };
  }

  private binary(ops: ArithOp[], operand: () => FilterNode): FilterNode {
    let left = operand();
    while (this.token.kind === 'op' && (ops as string[]).includes(this.token.text)) {
      const op = this.token.text as ArithOp;
      this.i++;
      const right = operand();
      left = { type: 'arith', op, left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private arith(): FilterNode {
    return this.binary(['+', '-'], () => this.binary(['*', '/', '//', '%'], () => this.factor()));
  }

  private factor(): FilterNode {
    const start = this.token.start;
    if (this.is('-') || this.is('+')) {
      const op = this.token.text as '-' | '+';
      this.i++;
      const operand = this.nested(start, () => this.factor());
      // A negative number is a literal, so that `x > -1` compares with a constant.
      if (operand.type === 'literal' && typeof operand.value === 'number') return { ...operand, value: op === '-' ? -operand.value : operand.value, start };
      return { type: 'negate', op, operand, start, end: operand.end };
    }
    const base = this.postfix();
    if (this.take('**')) {
      const exponent = this.nested(start, () => this.factor());
      return { type: 'arith', op: '**', left: base, right: exponent, start, end: exponent.end };
    }
    return base;
  }

  private args(): FilterNode[] {
    const args: FilterNode[] = [];
    if (!this.is(')')) {
      do {
        if (this.is(')')) break;
        args.push(this.expression());
      } while (this.take(','));
    }
    return args;
  }

  private postfix(): FilterNode {
    let node = this.atom();
    let links = 0;
    for (;;) {
      if (++links > MAX_FILTER_DEPTH) throw new FilterSyntaxError(this.token.start, `at most ${MAX_FILTER_DEPTH} levels of nesting`);
      if (this.take('[')) {
        const lower = this.is(':') ? null : this.expression();
        if (this.take(':')) {
          const upper = this.is(']') ? null : this.expression();
          const end = this.expect(']', '"]" closing the slice').end;
          node = { type: 'slice', value: node, lower, upper, start: node.start, end };
        } else {
          const end = this.expect(']', '"]" closing the subscript').end;
          node = { type: 'index', value: node, index: lower!, start: node.start, end };
        }
      } else if (this.take('.')) {
        const name = this.token;
        if (name.kind !== 'name' && name.kind !== 'keyword') throw this.error('a name after "."');
        this.i++;
        if (this.take('(')) {
          const args = this.args();
          const end = this.expect(')', '")" closing the arguments').end;
          node = { type: 'method', value: node, name: name.text, args, start: node.start, end };
        } else node = { type: 'attribute', value: node, name: name.text, start: node.start, end: name.end };
      } else return node;
    }
  }

  private atom(): FilterNode {
    const t = this.token;
    const { start, end } = t;
    switch (t.kind) {
      case 'number':
        this.i++;
        return { type: 'literal', value: Number(t.text), start, end };
      case 'string': {
        this.i++;
        // Adjacent literals concatenate, as in Python.
        let value = t.text;
        let last = end;
        while (this.token.kind === 'string') {
          value += this.token.text;
          last = this.token.end;
          this.i++;
        }
        return { type: 'literal', value, start, end: last };
      }
      case 'field':
        this.i++;
        return { type: 'field', name: t.text, start, end };
      case 'name':
        this.i++;
        if (this.take('(')) {
          const args = this.args();
          const close = this.expect(')', '")" closing the arguments');
          return { type: 'call', name: t.text, args, start, end: close.end };
        }
        return { type: 'field', name: t.text, start, end };
      case 'keyword':
        if (t.text === 'True' || t.text === 'False' || t.text === 'None') {
          this.i++;
          return { type: 'literal', value: t.text === 'None' ? null : t.text === 'True', start, end };
        }
        break;
      case 'op':
        if (t.text === '(' || t.text === '[') return this.nested(start, () => this.sequence(t.text === '(' ? ')' : ']'));
        if (t.text === '{') return this.nested(start, () => this.dict());
        break;
    }
    throw this.error('a value (a field, number, string, True, False, None, a list or a parenthesized expression)');
  }

  /** `( expr )` is grouping; `(a, b)`, `()` and `[…]` are sequences (compared as lists). */
  private sequence(close: ')' | ']'): FilterNode {
    const start = this.token.start;
    this.i++;
    const items: FilterNode[] = [];
    let comma = false;
    while (!this.is(close)) {
      items.push(this.expression());
      if (!this.take(',')) break;
      comma = true;
    }
    const end = this.expect(close, `"," or "${close}"`).end;
    if (close === ')' && items.length === 1 && !comma) return { ...items[0]!, start, end };
    return { type: 'list', items, start, end };
  }

  private dict(): FilterNode {
    const start = this.token.start;
    this.i++;
    const entries: [FilterNode, FilterNode][] = [];
    while (!this.is('}')) {
      const key = this.expression();
      this.expect(':', '":" after a dictionary key');
      entries.push([key, this.expression()]);
      if (!this.take(',')) break;
    }
    const end = this.expect('}', '"," or "}"').end;
    return { type: 'dict', entries, start, end };
  }
}

/**
 * Parses a filter into its tree; null for an empty (or blank) filter, which matches everything.
 * Throws FilterSyntaxError with the position and what was expected there.
 */
export function parseFilter(text: string): FilterNode | null {
  if (text.length > MAX_FILTER_LENGTH) throw new FilterSyntaxError(MAX_FILTER_LENGTH, `at most ${MAX_FILTER_LENGTH} characters`);
  const tokens = tokenize(text);
  if (tokens.length === 1) return null;
  return new Parser(tokens).parseAll();
}
