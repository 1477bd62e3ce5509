import { describe, expect, it } from 'vitest';
import { pointsOf } from './plot-data.ts';
import { checkTemplateText, templateFileName } from './template-file.ts';

describe('checkTemplateText (the import dialog checks before sending)', () => {
  const template = { name: 'T', position: { x: 0, y: 0, width: 4, height: 2 }, context: 'Tasks', table_tile: { column_order: '["a"]' } };

  it('accepts a bare template and a downloaded export, unwrapping its template', () => {
    expect(checkTemplateText(JSON.stringify(template))).toMatchObject({ template, problems: [] });
    const wrapped = checkTemplateText(JSON.stringify({ template, metadata: { exported_at: 'now' }, export_stats: { tiles: 1 } }));
    expect(wrapped.template).toEqual(template);
    expect(wrapped.parsed?.table_tile?.column_order).toEqual(['a']);
  });

  it('names what is wrong, field by field, and says when it is not JSON at all', () => {
    expect(checkTemplateText('')).toEqual({ template: null, problems: [] });
    expect(checkTemplateText('{nope').problems[0]).toMatch(/^This is not valid JSON/);
    expect(checkTemplateText('{"position":"top"}').problems).toEqual([
      'name: Field required',
      'position: Position must be an object with numeric x, y, width and height.',
    ]);
  });
});

describe('templateFileName', () => {
  it('is <name>.tile.json without characters file systems refuse', () => {
    expect(templateFileName('Open tasks')).toBe('Open tasks.tile.json');
    expect(templateFileName('a/b:c')).toBe('a_b_c.tile.json');
    expect(templateFileName('  ')).toBe('tile.tile.json');
  });
});

describe('pointsOf (plot data)', () => {
  const rows = [
    { id: 1, entries: { day: '2026-01-03', v: 3, name: 'c' } },
    { id: 2, entries: { day: '2026-01-01', v: 1, name: 'a' } },
    { id: 3, entries: { day: '2026-01-02', v: 'x', name: 'b' } },
  ];
  it('sorts by a numeric or date x and skips rows without a numeric y', () => {
    const { points, numericX } = pointsOf(rows, 'day', 'v');
    expect(numericX).toBe(true);
    expect(points.map((p) => p.y)).toEqual([1, 3]);
  });
  it('keeps row order for a categorical x', () => {
    const { points, numericX } = pointsOf(rows, 'name', 'v');
    expect(numericX).toBe(false);
    expect(points.map((p) => p.label)).toEqual(['c', 'a']);
  });
});
