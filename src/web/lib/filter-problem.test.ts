import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { caretLine, filterProblem, positionText, problemFromError } from './filter-problem.ts';

describe('filter problems in the filter box', () => {
  it('accepts good filters and the empty filter', () => {
    expect(filterProblem('')).toBeNull();
    expect(filterProblem('score > 0.5 and status == "ok"')).toBeNull();
    expect(filterProblem('   ')).toBeNull();
  });

  it('points at the token where the parser stops', () => {
    const text = 'score > > 1';
    const problem = filterProblem(text);
    expect(problem).not.toBeNull();
    expect(problem!.position).toBe(8);
    expect(problem!.message).toMatch(/position 8/);
    expect(caretLine(text, problem!.position)).toBe('        ^');
    expect(positionText(text, problem!.position)).toBe('at character 9, after “score >”');
  });

  it('points at the start of an unclosed string, and at the end for a missing operand', () => {
    expect(filterProblem('name == "abc')!.position).toBe(8);
    const text = 'score >';
    const end = filterProblem(text)!;
    expect(end.position).toBe(text.length);
    expect(caretLine(text, end.position)).toBe('       ^');
    expect(positionText(text, end.position)).toBe('at the end of the filter');
  });

  it('keeps tabs so the caret lines up, and never points past the end', () => {
    expect(caretLine('\tx ==', 5)).toBe('\t    ^');
    expect(caretLine('ab', 99)).toBe('  ^');
  });

  it('reads the position of a server 422 the same way', () => {
    const body = {
      detail: [
        {
          type: 'filter_syntax',
          loc: ['query', 'filter'],
          msg: 'Invalid filter expression: nope is not supported (at position 3).',
          ctx: { position: 3, expected: 'x' },
        },
      ],
    };
    const error = new ApiError(422, 'filter: nope', { filter: 'nope' }, body);
    expect(problemFromError(error, 'x < nope(1)')).toEqual({ message: body.detail[0]!.msg, position: 3 });
    expect(problemFromError(new ApiError(404, 'Context not found'), 'x')).toBeNull();
    expect(problemFromError(new ApiError(422, 'limit', {}, { detail: [{ loc: ['query', 'limit'], msg: 'too big' }] }), 'x')).toBeNull();
  });
});
