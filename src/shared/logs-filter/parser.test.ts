import { describe, expect, it } from 'vitest';
import { FilterSyntaxError, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter, type FilterNode } from './index.ts';

/** The tree without positions, in a compact Python-like form, to assert structure and precedence. */
function show(node: FilterNode | null): string {
  if (!node) return '<all>';
  switch (node.type) {
    case 'field':
      return node.name;
    case 'literal':
      return JSON.stringify(node.value);
    case 'list':
      return `[${node.items.map(show).join(', ')}]`;
    case 'dict':
      return `{${node.entries.map(([k, v]) => `${show(k)}: ${show(v)}`).join(', ')}}`;
    case 'not':
      return `(not ${show(node.operand)})`;
    case 'negate':
      return `(${node.op}${show(node.operand)})`;
    case 'bool':
      return `(${node.operands.map(show).join(` ${node.op} `)})`;
    case 'compare':
      return `(${show(node.left)}${node.ops.map((op, i) => ` ${op} ${show(node.comparators[i]!)}`).join('')})`;
    case 'arith':
      return `(${show(node.left)} ${node.op} ${show(node.right)})`;
    case 'index':
      return `${show(node.value)}[${show(node.index)}]`;
    case 'slice':
      return `${show(node.value)}[${node.lower ? show(node.lower) : ''}:${node.upper ? show(node.upper) : ''}]`;
    case 'attribute':
      return `${show(node.value)}.${node.name}`;
    case 'call':
      return `${node.name}(${node.args.map(show).join(', ')})`;
    case 'method':
      return `${show(node.value)}.${node.name}(${node.args.map(show).join(', ')})`;
  }
}

function syntaxError(text: string): FilterSyntaxError {
  try {
    parseFilter(text);
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error;
    throw error;
  }
  throw new Error(`${text} parsed`);
}

describe('filter parser', () => {
  it('parses the examples of the contract with Python precedence', () => {
    expect(show(parseFilter("(temperature > 0.7 and (len(system_msg) < 80 or 'no' in reply))"))).toBe(
      '((temperature > 0.7) and ((len(system_msg) < 80) or ("no" in reply)))',
    );
    expect(show(parseFilter("'travel' in system_prompt and score < 0.4"))).toBe('(("travel" in system_prompt) and (score < 0.4))');
    expect(show(parseFilter('score < 0.4 or score > 0.9 and not x'))).toBe('((score < 0.4) or ((score > 0.9) and (not x)))');
    expect(show(parseFilter('system_prompt == "It\'s sunny"'))).toBe('(system_prompt == "It\'s sunny")');
    expect(show(parseFilter('trace != None'))).toBe('(trace != null)');
    expect(show(parseFilter('x not in [1, 2, 3]'))).toBe('(x not in [1, 2, 3])');
    expect(show(parseFilter('`Business time` >= 3'))).toBe('(Business time >= 3)');
    expect(show(parseFilter("meta['user'] == 'ann' and len(tags) > 2"))).toBe('((meta["user"] == "ann") and (len(tags) > 2))');
    expect(show(parseFilter('0 < x <= 5'))).toBe('(0 < x <= 5)');
    expect(show(parseFilter('x is not None and y is None'))).toBe('((x is not null) and (y is null))');
    expect(show(parseFilter("(a) and (b == 'c')"))).toBe('(a and (b == "c"))');
  });

  it('parses arithmetic, unary minus, power, postfixes and literals', () => {
    expect(show(parseFilter('-x + 2 * y ** 2 // 3 % 4 - -1'))).toBe('(((-x) + (((2 * (y ** 2)) // 3) % 4)) - -1)');
    expect(show(parseFilter('-2 ** 2'))).toBe('(-(2 ** 2))');
    expect(show(parseFilter("d.get('k', 0) + items[0] + name[0:3] + name[:2] + meta.user.id"))).toBe(
      '((((d.get("k", 0) + items[0]) + name[0:3]) + name[:2]) + meta.user.id)',
    );
    expect(show(parseFilter("x == {'a': [1, 2.5, .5, 0., 1e3], \"b\": (1, 2), 'c': ()}"))).toBe('(x == {"a": [1, 2.5, 0.5, 0, 1000], "b": [1, 2], "c": []})');
    expect(show(parseFilter("s == 'a\\'b\\n\\x41\\u00e9' 'c'"))).toBe('(s == "a\'b\\nAéc")');
    expect(show(parseFilter('`a\\`b` == True'))).toBe('(a`b == true)');
    expect(show(parseFilter("'`x`' in y"))).toBe('("`x`" in y)');
  });

  it('keeps the span of every node', () => {
    const node = parseFilter('  score >  0.5 ');
    expect(node).toMatchObject({ type: 'compare', start: 2, end: 14, left: { start: 2, end: 7 }, comparators: [{ start: 11, end: 14 }] });
  });

  it('an empty filter matches everything', () => {
    expect(parseFilter('')).toBeNull();
    expect(parseFilter('   ')).toBeNull();
  });

  it('reports the position and what was expected', () => {
    expect(syntaxError('score >')).toMatchObject({ position: 7, expected: expect.stringContaining('a value') });
    expect(syntaxError('score > 0.5 and')).toMatchObject({ position: 15 });
    expect(syntaxError('(a == 1')).toMatchObject({ position: 7, expected: '"," or ")"' });
    expect(syntaxError("x == 'abc")).toMatchObject({ position: 5, expected: "a closing ' for the string that starts here" });
    expect(syntaxError('x = 1')).toMatchObject({ position: 2, expected: expect.stringContaining('"=="') });
    expect(syntaxError('a b')).toMatchObject({ position: 2, expected: expect.stringContaining('the end of the expression') });
    expect(syntaxError('x == 1 $')).toMatchObject({ position: 7 });
    expect(syntaxError('`` == 1')).toMatchObject({ position: 0 });
    expect(syntaxError('f(1, 2')).toMatchObject({ position: 6, expected: '")" closing the arguments' });
    expect(syntaxError('x[1')).toMatchObject({ position: 3 });
    expect(syntaxError('x.1')).toMatchObject({ position: 1 });
    expect(syntaxError('1abc')).toMatchObject({ position: 1 });
    expect(syntaxError('score >').message).toBe(
      'Invalid filter expression: expected a value (a field, number, string, True, False, None, a list or a parenthesized expression) at position 7, found the end of the expression.',
    );
  });

  it('bounds length and depth', () => {
    expect(syntaxError('x'.repeat(MAX_FILTER_LENGTH + 1)).expected).toContain('characters');
    expect(syntaxError(`${'('.repeat(MAX_FILTER_DEPTH + 1)}x${')'.repeat(MAX_FILTER_DEPTH + 1)}`).expected).toContain('nesting');
    expect(syntaxError(`${'not '.repeat(MAX_FILTER_DEPTH + 1)}x`).expected).toContain('nesting');
    expect(syntaxError(`${'-'.repeat(MAX_FILTER_DEPTH + 1)}x`).expected).toContain('nesting');
    expect(syntaxError(`x${'[0]'.repeat(MAX_FILTER_DEPTH + 1)}`).expected).toContain('nesting');
    expect(show(parseFilter(`${'('.repeat(10)}x${')'.repeat(10)}`))).toBe('x');
  });
});
