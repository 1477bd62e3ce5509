import {
  GRID_COLUMNS,
  MAX_GRID_Y,
  MAX_TILE_HEIGHT,
  PLOT_TYPES,
  TEMPLATE_VERSION,
  type ParsedTemplate,
  type Position,
  type TemplateIssue,
  type TileType,
  type ValidationResult,
} from '../../../shared/tiles.ts';
import { filterProblem } from '../logs/filter-check.ts';

/** What a template is checked against: the target project's contexts and their columns. */
export interface TemplateTarget {
  project: string;
  contexts: ReadonlyMap<string, readonly string[]>;
}

/** One problem found in a template, and how to fix it when it can be fixed without guessing. */
interface Finding {
  issue: TemplateIssue;
  /** Applies the fix to the template (mutating it) and returns the warning that reports it. */
  fix?: (t: ParsedTemplate) => string;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Where a position must move to fit the grid: integers, 1–12 wide, inside the 12 columns. */
export function fitPosition(p: Position): Position {
  const width = clamp(Math.round(p.width), 1, GRID_COLUMNS);
  return {
    x: clamp(Math.round(p.x), 0, GRID_COLUMNS - width),
    y: clamp(Math.round(p.y), 0, MAX_GRID_Y),
    width,
    height: clamp(Math.round(p.height), 1, MAX_TILE_HEIGHT),
  };
}

const list = (names: readonly string[]) => (names.length === 0 ? '(none)' : names.map((n) => `'${n}'`).join(', '));

/** The other tile type's part, which this type ignores: a warning, dropped when sanitizing. */
function unusedPart(type: TileType, part: 'table_tile' | 'plot_tile'): Finding {
  return {
    issue: { level: 'warning', component: part, message: `A ${type} tile does not use ${part}; it is ignored.`, suggested_fix: `Remove ${part} from the template.` },
    fix: (tpl) => {
      tpl[part] = null;
      return `Dropped ${part}, which a ${type} tile does not use.`;
    },
  };
}

function findingsOf(t: ParsedTemplate, unknownKeys: readonly string[], target: TemplateTarget): Finding[] {
  const out: Finding[] = [];

  for (const key of unknownKeys) {
    out.push({
      issue: {
        level: 'warning',
        component: key,
        message: `Unknown key '${key}' is not part of a tile template and is ignored.`,
        suggested_fix: `Remove '${key}' from the template.`,
      },
      fix: () => `Dropped unknown key '${key}'.`,
    });
  }

  if (t.template_version !== null && t.template_version !== TEMPLATE_VERSION) {
    out.push({
      issue: {
        level: 'warning',
        component: 'template_version',
        message: `Template version ${t.template_version} is not ${TEMPLATE_VERSION}; fields this server does not know are ignored.`,
        suggested_fix: `Export the tile again from a service that writes version ${TEMPLATE_VERSION}.`,
      },
    });
  }

  const fitted = fitPosition(t.position);
  for (const k of ['width', 'x', 'y', 'height'] as const) {
    if (fitted[k] === t.position[k]) continue;
    const from = t.position[k];
    const to = fitted[k];
    const rule =
      k === 'width'
        ? `width must be a whole number from 1 to ${GRID_COLUMNS}`
        : k === 'x'
          ? `x must be a whole number with x + width at most ${GRID_COLUMNS}`
          : k === 'y'
            ? `y must be a whole number from 0 to ${MAX_GRID_Y}`
            : `height must be a whole number from 1 to ${MAX_TILE_HEIGHT}`;
    out.push({
      issue: {
        level: 'error',
        component: `position.${k}`,
        message: `position.${k} is ${from}, which does not fit the ${GRID_COLUMNS}-column grid: ${rule}.`,
        suggested_fix: `Set position.${k} to ${to}.`,
      },
      fix: (tpl) => {
        tpl.position = { ...tpl.position, [k]: to };
        return `Clamped position.${k} from ${from} to ${to} to fit the ${GRID_COLUMNS}-column grid.`;
      },
    });
  }

  const known = [...target.contexts.keys()].sort();
  const columns = t.context === null ? undefined : target.contexts.get(t.context);
  if (t.context === null) {
    out.push({
      issue: {
        level: 'error',
        component: 'context',
        message: 'The template names no context, so the tile would have no data.',
        suggested_fix: `Set context to one of the contexts of project '${target.project}': ${list(known)}.`,
      },
    });
  } else if (!columns) {
    out.push({
      issue: {
        level: 'error',
        component: 'context',
        message: `Context '${t.context}' does not exist in project '${target.project}'.`,
        suggested_fix: `Create context '${t.context}' in project '${target.project}', or map it to one of: ${list(known)} (context_map).`,
      },
    });
  }

  const filterError = t.filter === null ? null : filterProblem(t.filter);
  if (filterError) {
    out.push({
      issue: {
        level: 'error',
        component: 'filter',
        message: `The filter does not run: ${filterError.message}`,
        suggested_fix: `Fix the filter at position ${filterError.position} (expected ${filterError.expected}), or remove it to show every log.`,
      },
      fix: (tpl) => {
        tpl.filter = null;
        return `Dropped the filter '${t.filter}', which does not run (${filterError.message}); the tile shows every log of its context.`;
      },
    });
  }

  if (t.type === 'Table') {
    if (t.plot_tile) out.push(unusedPart('Table', 'plot_tile'));
    if (!t.table_tile) {
      out.push({
        issue: {
          level: 'error',
          component: 'table_tile',
          message: 'A Table tile needs table_tile with its column_order.',
          suggested_fix: columns ? `Add table_tile with column_order ${JSON.stringify(columns)}.` : 'Add table_tile with table_type and column_order.',
        },
        fix: columns
          ? (tpl) => {
              tpl.table_tile = { table_type: 'default', column_order: [...columns] };
              return `Added table_tile showing every column of context '${t.context}'.`;
            }
          : undefined,
      });
    } else {
      const seen = new Set<string>();
      const reported = new Set<string>();
      for (const column of t.table_tile.column_order) {
        if (seen.has(column)) {
          // One finding per duplicated known column; unknown ones are dropped whole below.
          if (reported.has(column) || (columns && !columns.includes(column))) continue;
          reported.add(column);
          out.push({
            issue: {
              level: 'warning',
              component: 'table_tile.column_order',
              message: `Column '${column}' appears more than once in column_order.`,
              suggested_fix: `Keep one '${column}'.`,
            },
            fix: (tpl) => {
              const order = tpl.table_tile!.column_order;
              tpl.table_tile!.column_order = order.filter((c, i) => c !== column || order.indexOf(c) === i);
              return `Removed duplicate column '${column}' from column_order.`;
            },
          });
          continue;
        }
        seen.add(column);
        if (columns && !columns.includes(column)) {
          out.push({
            issue: {
              level: 'error',
              component: 'table_tile.column_order',
              message: `Column '${column}' does not exist in context '${t.context}'.`,
              suggested_fix: `Remove '${column}' from column_order, or use one of: ${list(columns)}.`,
            },
            fix: (tpl) => {
              tpl.table_tile!.column_order = tpl.table_tile!.column_order.filter((c) => c !== column);
              return `Dropped unknown column '${column}' from column_order.`;
            },
          });
        }
      }
    }
  } else {
    if (t.table_tile) out.push(unusedPart('Plot', 'table_tile'));
    if (!t.plot_tile) {
      out.push({
        issue: {
          level: 'error',
          component: 'plot_tile',
          message: 'A Plot tile needs plot_tile with plot_type, x_axis and y_axis.',
          suggested_fix: `Add plot_tile, e.g. {"plot_type":"line","x_axis":"<column>","y_axis":"<column>"}.`,
        },
      });
    } else {
      const plotType = t.plot_tile.plot_type;
      if (!(PLOT_TYPES as readonly string[]).includes(plotType)) {
        out.push({
          issue: {
            level: 'error',
            component: 'plot_tile.plot_type',
            message: `Plot type '${plotType}' is not supported (${PLOT_TYPES.join(', ')}).`,
            suggested_fix: "Set plot_type to 'line'.",
          },
          fix: (tpl) => {
            tpl.plot_tile = { ...tpl.plot_tile!, plot_type: 'line' };
            return `Replaced unsupported plot type '${plotType}' with 'line'.`;
          },
        });
      }
      if (columns) {
        for (const axis of ['x_axis', 'y_axis'] as const) {
          const column = t.plot_tile[axis];
          if (!columns.includes(column)) {
            out.push({
              issue: {
                level: 'error',
                component: `plot_tile.${axis}`,
                message: `Column '${column}' does not exist in context '${t.context}'.`,
                suggested_fix: `Set ${axis} to one of: ${list(columns)}.`,
              },
            });
          }
        }
      }
    }
  }
  return out;
}

/** Checks a template against the target project without changing anything. */
export function validateTemplate(t: ParsedTemplate, unknownKeys: readonly string[], target: TemplateTarget): ValidationResult {
  const issues = findingsOf(t, unknownKeys, target).map((f) => f.issue);
  return { valid: !issues.some((i) => i.level === 'error'), issues };
}

/**
 * Fixes what can be fixed without guessing (unknown columns and keys dropped, position clamped to the grid,
 * duplicate columns removed), one warning per fix. Returns a new template and what is still wrong.
 */
export function sanitizeTemplate(
  t: ParsedTemplate,
  unknownKeys: readonly string[],
  target: TemplateTarget,
): { template: ParsedTemplate; warnings: string[]; remaining: ValidationResult } {
  const copy: ParsedTemplate = structuredClone(t);
  const warnings: string[] = [];
  for (const finding of findingsOf(t, unknownKeys, target)) {
    if (finding.fix) warnings.push(finding.fix(copy));
  }
  return { template: copy, warnings, remaining: validateTemplate(copy, [], target) };
}

/** Issues as FastAPI-style 422 items, so clients that read `detail` see every problem. */
export function issuesAsDetail(result: ValidationResult) {
  return result.issues
    .filter((i) => i.level === 'error')
    .map((i) => ({
      type: 'template_invalid',
      loc: ['body', 'template', ...i.component.split('.')],
      msg: i.suggested_fix ? `${i.message} ${i.suggested_fix}` : i.message,
    }));
}
