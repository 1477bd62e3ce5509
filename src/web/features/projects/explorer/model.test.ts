import { describe, expect, it } from 'vitest';
import { sortingText } from '../../../data/rows.ts';
import { parseFilter } from '../../../../shared/logs-filter/index.ts';
import {
  andFilters,
  clickSort,
  fieldRef,
  groupKey,
  ID_SORT,
  literal,
  missingCond,
  moveSort,
  nullCond,
  sortFromParam,
  sortingOf,
  sortsFromParams,
  sortToParam,
  type Sort,
} from './model.ts';

describe('log explorer state', () => {
  it('reads and writes the sort of the URL, the direction after the last colon', () => {
    expect(sortFromParam('score:desc')).toEqual({ field: 'score', direction: 'descending' });
    expect(sortFromParam('a:b:asc')).toEqual({ field: 'a:b', direction: 'ascending' });
    expect(sortFromParam('score')).toBeNull();
    expect(sortFromParam('score:up')).toBeNull();
    expect(sortToParam({ field: 'a:b', direction: 'ascending' })).toBe('a:b:asc');
  });

  it('cycles a header alone: ascending, descending, then back to newest first; other keys are dropped', () => {
    expect(clickSort([], 'n', false)).toEqual([{ field: 'n', direction: 'ascending' }]);
    expect(clickSort([{ field: 'n', direction: 'ascending' }], 'n', false)).toEqual([{ field: 'n', direction: 'descending' }]);
    expect(clickSort([{ field: 'n', direction: 'descending' }], 'n', false)).toEqual([]);
    expect(clickSort([{ field: 'n', direction: 'descending' }], 'm', false)).toEqual([{ field: 'm', direction: 'ascending' }]);
    const two: Sort[] = [
      { field: 'a', direction: 'ascending' },
      { field: 'b', direction: 'descending' },
    ];
    expect(clickSort(two, 'b', false)).toEqual([{ field: 'b', direction: 'ascending' }]);
    expect(clickSort(two, 'a', false)).toEqual([{ field: 'a', direction: 'ascending' }]);
  });

  it('adds secondary keys with shift: appended, cycled in place, removed after descending', () => {
    const one: Sort[] = [{ field: 'a', direction: 'descending' }];
    const two = clickSort(one, 'b', true);
    expect(two).toEqual([...one, { field: 'b', direction: 'ascending' }]);
    expect(clickSort(two, 'b', true)).toEqual([...one, { field: 'b', direction: 'descending' }]);
    expect(clickSort(clickSort(two, 'b', true), 'b', true)).toEqual(one);
    expect(clickSort(two, 'a', true)).toEqual([{ field: 'b', direction: 'ascending' }]); // a was descending: it leaves
    expect(moveSort(two, 'b', -1).map((s) => s.field)).toEqual(['b', 'a']);
    expect(moveSort(two, 'b', 1)).toEqual(two);
    expect(moveSort(two, 'zz', 1)).toEqual(two);
  });

  it('keeps old single-key URLs, reads several keys in order and drops bad or repeated ones', () => {
    expect(sortsFromParams(['score:desc'])).toEqual([{ field: 'score', direction: 'descending' }]);
    expect(sortsFromParams(['a:asc', 'bad', 'b:c:desc', 'a:desc'])).toEqual([
      { field: 'a', direction: 'ascending' },
      { field: 'b:c', direction: 'descending' },
    ]);
    expect(sortsFromParams([])).toEqual([]);
  });

  it('writes sorting with its priority as key order, integer-like names included', () => {
    const json = sortingText([
      { field: 'b', direction: 'descending' },
      { field: '2', direction: 'ascending' },
      { field: 'log_id', direction: 'ascending' },
    ]);
    expect(json).toBe('{"b": "descending", "2": "ascending", "log_id": "ascending"}');
    expect(JSON.parse(json!)).toEqual({ b: 'descending', 2: 'ascending', log_id: 'ascending' });
    expect(sortingText([])).toBeUndefined();
    expect(sortingText({ a: 'ascending' })).toBe('{"a": "ascending"}');
  });

  it('names sort keys as the filter language does, so fields with any name sort by their values', () => {
    const sort: Sort[] = [
      { field: 'score', direction: 'descending' },
      { field: 'my score', direction: 'ascending' },
      { field: '2', direction: 'ascending' },
      { field: 'class', direction: 'ascending' },
      { field: ID_SORT, direction: 'descending' },
    ];
    const keys = sortingOf(sort).map((s) => s.field);
    expect(keys).toEqual(['score', '`my score`', '`2`', 'class', 'log_id']);
    for (const [i, key] of keys.slice(0, 4).entries()) expect(parseFilter(key)).toMatchObject({ type: 'field', name: sort[i]!.field });
  });

  it('builds group filters the shared parser reads, for awkward names and values', () => {
    for (const [field, value] of [
      ['model', 'gpt "4"\n'],
      ['my-field', 3.5],
      ['and', true],
      ['tags', [1, 'a']],
      ['x', null],
      ['meta', { k: 'v "q"', n: [1, { deep: null }], t: true }],
      ['meta', {}],
    ] as const) {
      const cond = `${fieldRef(field)} == ${literal(value)}`;
      expect(() => parseFilter(andFilters('score > 1', cond)), cond).not.toThrow();
      for (const other of [nullCond(field), missingCond(field)]) expect(() => parseFilter(andFilters('score > 1', other)), other).not.toThrow();
    }
    expect(fieldRef('my-field')).toBe('`my-field`');
    expect(literal({ a: 1, 'b c': 'x' })).toBe('{"a": 1, "b c": "x"}');
    expect(literal({ a: Infinity })).toBeNull();
    expect(andFilters('', ' x == 1 ')).toBe('x == 1');
    expect(missingCond('my-field')).toBe('not exists(`my-field`)');
    expect(nullCond('meta')).toBe('exists(meta) and meta is None');
  });

  it('keys groups as the metric route does (Python str())', () => {
    expect(groupKey(true)).toBe('True');
    expect(groupKey(null)).toBe('null');
    expect(groupKey(1)).toBe('1');
    expect(groupKey('a')).toBe('a');
  });
});
