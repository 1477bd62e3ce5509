import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../../shared/logs-filter/index.ts';
import { andFilters, fieldRef, groupKey, literal, nextSort, sortFromParam, sortToParam } from './model.ts';

describe('log explorer state', () => {
  it('reads and writes the sort of the URL, the direction after the last colon', () => {
    expect(sortFromParam('score:desc')).toEqual({ field: 'score', direction: 'descending' });
    expect(sortFromParam('a:b:asc')).toEqual({ field: 'a:b', direction: 'ascending' });
    expect(sortFromParam('score')).toBeNull();
    expect(sortFromParam('score:up')).toBeNull();
    expect(sortToParam({ field: 'a:b', direction: 'ascending' })).toBe('a:b:asc');
  });

  it('cycles a header: ascending, descending, then back to newest first', () => {
    expect(nextSort(null, 'n')).toEqual({ field: 'n', direction: 'ascending' });
    expect(nextSort({ field: 'n', direction: 'ascending' }, 'n')).toEqual({ field: 'n', direction: 'descending' });
    expect(nextSort({ field: 'n', direction: 'descending' }, 'n')).toBeNull();
    expect(nextSort({ field: 'n', direction: 'descending' }, 'm')).toEqual({ field: 'm', direction: 'ascending' });
  });

  it('builds group filters the shared parser reads, for awkward names and values', () => {
    for (const [field, value] of [
      ['model', 'gpt "4"\n'],
      ['my-field', 3.5],
      ['and', true],
      ['tags', [1, 'a']],
      ['x', null],
    ] as const) {
      const cond = `${fieldRef(field)} == ${literal(value)}`;
      expect(() => parseFilter(andFilters('score > 1', cond)), cond).not.toThrow();
    }
    expect(fieldRef('my-field')).toBe('`my-field`');
    expect(literal({ a: 1 })).toBeNull();
    expect(andFilters('', ' x == 1 ')).toBe('x == 1');
  });

  it('keys groups as the metric route does (Python str())', () => {
    expect(groupKey(true)).toBe('True');
    expect(groupKey(null)).toBe('null');
    expect(groupKey(1)).toBe('1');
    expect(groupKey('a')).toBe('a');
  });
});
