import { describe, expect, it } from 'vitest';
import { parseTemplate, type ParsedTemplate } from '../../../shared/tiles.ts';
import { fitPosition, sanitizeTemplate, validateTemplate, type TemplateTarget } from './template-service.ts';

const target: TemplateTarget = {
  project: 'demo',
  contexts: new Map([
    ['Tasks', ['title', 'status', 'priority']],
    ['Metrics', ['day', 'value']],
  ]),
};

function parsed(raw: unknown) {
  const r = parseTemplate(raw);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r;
}

const table = (extra: Record<string, unknown> = {}) => ({
  name: 'Tasks table',
  type: 'Table',
  position: { x: 0, y: 0, width: 6, height: 4 },
  context: 'Tasks',
  table_tile: { table_type: 'default', column_order: ['title', 'status'] },
  ...extra,
});

describe('parseTemplate (structural rules → 422)', () => {
  it('accepts an exported template and reads column_order from a JSON string', () => {
    const r = parsed(table({ table_tile: { table_type: 'default', column_order: '["status","title"]' } }));
    expect(r.template.table_tile).toEqual({ table_type: 'default', column_order: ['status', 'title'] });
    expect(r.unknownKeys).toEqual([]);
  });

  it('requires a name and a numeric position, naming each field', () => {
    const r = parseTemplate({ position: '{"x":0}' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.loc.join('.'))).toEqual(['body.template.name', 'body.template.position']);
    const s = parseTemplate(table({ position: { x: '1', y: 0, width: 2, height: 2 } }));
    expect(s.ok).toBe(false);
    if (!s.ok) expect(s.issues[0]).toMatchObject({ loc: ['body', 'template', 'position', 'x'], type: 'float_type' });
  });

  it('refuses non-objects, an unknown type and a column_order that is not a list of names', () => {
    expect(parseTemplate([]).ok).toBe(false);
    expect(parseTemplate('x').ok).toBe(false);
    const bad = parseTemplate(table({ type: 'Chart', table_tile: { column_order: '{"a":1}' } }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.map((i) => i.loc.slice(2).join('.'))).toEqual(['type', 'table_tile.column_order']);
  });

  it('refuses deep or huge junk without recursing (a 1 MB chain of nested arrays)', () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const r = parseTemplate(table({ junk: deep }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0].msg).toMatch(/nested too deeply/);
    const wide = parseTemplate(table({ junk: 'x'.repeat(200_000) }));
    expect(wide.ok).toBe(false);
    if (!wide.ok) expect(wide.issues[0].msg).toMatch(/too large/);
  });

  it('reports unknown keys at every level instead of refusing them', () => {
    const r = parsed(table({ color: 'red', position: { x: 0, y: 0, width: 2, height: 2, z: 1 } }));
    expect(r.unknownKeys).toEqual(['color', 'position.z']);
  });

  it('infers Plot from a plot_tile when type is absent', () => {
    const r = parsed({ name: 'p', position: { x: 0, y: 0, width: 4, height: 3 }, plot_tile: { plot_type: 'bar', x_axis: 'day', y_axis: 'value' } });
    expect(r.template.type).toBe('Plot');
  });
});

describe('validateTemplate (against the target project)', () => {
  it('passes a template that fits the project', () => {
    const r = parsed(table());
    expect(validateTemplate(r.template, r.unknownKeys, target)).toEqual({ valid: true, issues: [] });
  });

  it('finds unknown columns, a missing context, off-grid positions and unknown keys', () => {
    const r = parsed(table({ extra: 1, position: { x: 10, y: -1, width: 4, height: 2.5 }, table_tile: { column_order: ['title', 'nope'] } }));
    const result = validateTemplate(r.template, r.unknownKeys, target);
    expect(result.valid).toBe(false);
    expect(result.issues.map((i) => [i.level, i.component])).toEqual([
      ['warning', 'extra'],
      ['error', 'position.x'],
      ['error', 'position.y'],
      ['error', 'position.height'],
      ['error', 'table_tile.column_order'],
    ]);
    expect(result.issues.every((i) => i.suggested_fix)).toBe(true);
    const missing = parsed(table({ context: 'Ghost' }));
    const m = validateTemplate(missing.template, [], target);
    expect(m.issues).toEqual([expect.objectContaining({ level: 'error', component: 'context', message: "Context 'Ghost' does not exist in project 'demo'." })]);
  });

  it('checks plot axes against the context columns', () => {
    const r = parsed({
      name: 'p',
      type: 'Plot',
      context: 'Metrics',
      position: { x: 0, y: 0, width: 4, height: 3 },
      plot_tile: { plot_type: 'pie', x_axis: 'day', y_axis: 'cost' },
    });
    const result = validateTemplate(r.template, [], target);
    expect(result.issues.map((i) => i.component)).toEqual(['plot_tile.plot_type', 'plot_tile.y_axis']);
  });
});

describe('sanitizeTemplate', () => {
  it('fixes what it can with one warning per fix and leaves a valid template', () => {
    const r = parsed(table({ extra: 1, position: { x: 11, y: 0, width: 3, height: 2 }, table_tile: { column_order: ['title', 'nope', 'status', 'title', 'gone'] } }));
    const { template, warnings, remaining } = sanitizeTemplate(r.template, r.unknownKeys, target);
    expect(template.table_tile!.column_order).toEqual(['title', 'status']);
    expect(template.position).toEqual({ x: 9, y: 0, width: 3, height: 2 });
    expect(warnings).toEqual([
      "Dropped unknown key 'extra'.",
      'Clamped position.x from 11 to 9 to fit the 12-column grid.',
      "Dropped unknown column 'nope' from column_order.",
      "Removed duplicate column 'title' from column_order.",
      "Dropped unknown column 'gone' from column_order.",
    ]);
    expect(remaining).toEqual({ valid: true, issues: [] });
    // The input is not changed.
    expect(r.template.table_tile!.column_order).toHaveLength(5);
  });

  it('cannot invent a missing context: the error remains', () => {
    const r = parsed(table({ context: 'Ghost' }));
    const { warnings, remaining } = sanitizeTemplate(r.template, [], target);
    expect(warnings).toEqual([]);
    expect(remaining.valid).toBe(false);
  });

  it('adds a table_tile with every column when a Table template has none', () => {
    const t: ParsedTemplate = { ...parsed(table()).template, table_tile: null };
    const { template, warnings } = sanitizeTemplate(t, [], target);
    expect(template.table_tile).toEqual({ table_type: 'default', column_order: ['title', 'status', 'priority'] });
    expect(warnings).toHaveLength(1);
  });
});

describe('fitPosition', () => {
  it('keeps tiles inside 12 columns', () => {
    expect(fitPosition({ x: -3, y: 2.4, width: 40, height: 0 })).toEqual({ x: 0, y: 2, width: 12, height: 1 });
    expect(fitPosition({ x: 8, y: 0, width: 6, height: 3 })).toEqual({ x: 6, y: 0, width: 6, height: 3 });
  });
});
