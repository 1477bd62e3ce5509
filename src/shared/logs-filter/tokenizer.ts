import { FilterSyntaxError } from './errors.ts';

// Splits a filter (a subset of Python expression syntax, logs-api.md §11) into tokens, each with its
// position in the text so that parse errors can point at it.

export type TokenKind = 'name' | 'field' | 'number' | 'string' | 'op' | 'keyword' | 'end';

export interface Token {
  kind: TokenKind;
  /** The operator or keyword itself, the name, the decoded string, or the number's source text. */
  text: string;
  /** 0-based offset of the token's first character; its end is exclusive. */
  start: number;
  end: number;
}

export const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'True', 'False', 'None']);

// Longest first, so that `**` is not read as two `*`.
const OPERATORS = ['**', '//', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '[', ']', '{', '}', ',', ':', '.'];

const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_]/u;
const DIGIT = /[0-9]/;
const NUMBER = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v' };

function readString(text: string, start: number): Token {
  const quote = text[start]!;
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === quote) return { kind: 'string', text: value, start, end: i + 1 };
    if (c === '\n') break;
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break;
    const hex = next === 'x' ? 2 : next === 'u' ? 4 : 0;
    if (hex) {
      const digits = text.slice(i + 2, i + 2 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) throw new FilterSyntaxError(i, `${hex} hexadecimal digits after \\${next}`);
      value += String.fromCharCode(parseInt(digits, 16));
      i += 2 + hex;
    } else {
      // Python keeps an unknown escape as written (backslash included).
      value += ESCAPES[next] ?? `\\${next}`;
      i += 2;
    }
  }
  throw new FilterSyntaxError(start, `a closing ${quote} for the string that starts here`);
}

/** `` `Business time` ``: a field name that is not an identifier; `` \` `` is a backtick inside it. */
function readBacktickName(text: string, start: number): Token {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '`') {
      if (value === '') throw new FilterSyntaxError(start, 'a field name between the backticks');
      return { kind: 'field', text: value, start, end: i + 1 };
    }
    if (c === '\\' && i + 1 < text.length) {
      value += text[i + 1];
      i += 2;
    } else {
      value += c;
      i++;
    }
  }
  throw new FilterSyntaxError(start, 'a closing ` for the field name that starts here');
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    let token: Token | undefined;
    if (c === "'" || c === '"') token = readString(text, i);
    else if (c === '`') token = readBacktickName(text, i);
    else if (DIGIT.test(c) || (c === '.' && DIGIT.test(text[i + 1] ?? ''))) {
      const match = NUMBER.exec(text.slice(i))![0];
      token = { kind: 'number', text: match, start: i, end: i + match.length };
      if (NAME_START.test(text[token.end] ?? '')) throw new FilterSyntaxError(token.end, 'an operator or the end of the expression after a number');
    } else if (NAME_START.test(c)) {
      let end = i + 1;
      while (end < text.length && NAME_PART.test(text[end]!)) end++;
      const name = text.slice(i, end);
      token = { kind: KEYWORDS.has(name) ? 'keyword' : 'name', text: name, start: i, end };
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i));
      if (!op) throw new FilterSyntaxError(i, c === '=' ? '"==" to compare ("=" alone is not an operator)' : `an operand or operator, not ${JSON.stringify(c)}`);
      token = { kind: 'op', text: op, start: i, end: i + op.length };
    }
    tokens.push(token);
    i = token.end;
  }
  tokens.push({ kind: 'end', text: '', start: text.length, end: text.length });
  return tokens;
}
