import { z } from 'zod';
import { isJsonObject, name, opt, text, Timestamp } from './common.ts';
import type { ValidationIssue } from './errors.ts';
import { MAX_FILTER_LENGTH } from './logs-filter/parser.ts';

/** Dashboards lay tiles out on a grid this many columns wide (semantics.md §4). */
export const GRID_COLUMNS = 12;
/** Tallest tile and deepest row a position may name, in grid units. */
export const MAX_TILE_HEIGHT = 48;
export const MAX_GRID_Y = 1000;
export const TEMPLATE_VERSION = '1.0';
/** A template is a small document: anything bigger or deeper is junk, refused before it is looked at. */
export const MAX_TEMPLATE_CHARS = 100_000;
export const MAX_TEMPLATE_DEPTH = 8;
export const MAX_TEMPLATE_COLUMNS = 500;
/** A template has one context; a few entries leave room for clients that map several templates alike. */
export const MAX_CONTEXT_MAP = 20;

/** A tile's filter as the API takes it: the logs API's language, checked by the server when saved. */
const tileFilter = () => z.string().max(MAX_FILTER_LENGTH, `At most ${MAX_FILTER_LENGTH} characters.`);

export const TILE_TYPES = ['Table', 'Plot'] as const;
export const TileTypeSchema = z.enum(TILE_TYPES);
export type TileType = z.infer<typeof TileTypeSchema>;

export const PLOT_TYPES = ['line', 'bar', 'scatter'] as const;
export const PlotTypeSchema = z.enum(PLOT_TYPES);

export const PositionSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type Position = z.infer<typeof PositionSchema>;

export const TableTileSchema = z.object({ table_type: z.string(), column_order: z.array(z.string()) });
export type TableTile = z.infer<typeof TableTileSchema>;

export const PlotTileSchema = z.object({ plot_type: z.string(), x_axis: z.string(), y_axis: z.string() });
export type PlotTile = z.infer<typeof PlotTileSchema>;

// ---------------------------------------------------------------------------------------------
// Entities (extensions: interfaces → tabs → tiles)

export const TileSchema = z.object({
  id: z.string(),
  tab_id: z.string(),
  name: z.string(),
  type: TileTypeSchema,
  position: PositionSchema,
  context: z.string().nullable(),
  table_tile: TableTileSchema.nullable(),
  plot_tile: PlotTileSchema.nullable(),
  /** Extension: which of the context's logs the tile shows (the logs API's filter language); null = all. */
  filter: z.string().nullable(),
  created_by: z.string().nullable(),
  has_checkpoint: z.boolean(),
  checkpoint_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Tile = z.infer<typeof TileSchema>;

export const TabSchema = z.object({
  id: z.string(),
  interface_id: z.string(),
  name: z.string(),
  order: z.number().int(),
  created_at: Timestamp,
  tiles: z.array(TileSchema),
});
export type Tab = z.infer<typeof TabSchema>;

export const InterfaceSchema = z.object({
  id: z.string(),
  project: z.string(),
  name: z.string(),
  created_at: Timestamp,
  tabs: z.array(TabSchema),
});
export type Interface = z.infer<typeof InterfaceSchema>;

export const InterfaceListSchema = z.object({ info: z.array(InterfaceSchema) });
export const InterfaceInfoSchema = z.object({ info: InterfaceSchema });
export const TabInfoSchema = z.object({ info: TabSchema });
export const TileInfoSchema = z.object({ info: TileSchema });

export const CreateInterfaceInput = z.object({ name: name(100) });
export const CreateTabInput = z.object({ name: name(100) });

/** Where a new tile goes: x and y may be left out, and the server places it in the first free spot. */
export const NewTilePositionSchema = z.object({ x: opt(z.number()), y: opt(z.number()), width: z.number(), height: z.number() });

/** POST /v0/tab/{id}/tiles: a tile is created from the same fields a template carries. */
export const CreateTileInput = z.object({
  name: name(255),
  type: opt(TileTypeSchema),
  position: NewTilePositionSchema,
  context: opt(text(255)),
  table_tile: opt(z.object({ table_type: opt(text(50)), column_order: z.array(text(255)).max(MAX_TEMPLATE_COLUMNS) })),
  plot_tile: opt(z.object({ plot_type: text(20), x_axis: text(255), y_axis: text(255) })),
  filter: opt(tileFilter()),
});
export type CreateTileInput = z.input<typeof CreateTileInput>;

/** PATCH /v0/tile/{id}: omitted = unchanged. */
export const UpdateTileInput = z.object({
  name: opt(name(255)),
  position: opt(PositionSchema),
  context: opt(text(255)),
  table_tile: opt(z.object({ table_type: opt(text(50)), column_order: z.array(text(255)).max(MAX_TEMPLATE_COLUMNS) })),
  plot_tile: opt(z.object({ plot_type: text(20), x_axis: text(255), y_axis: text(255) })),
  /** An empty text removes the filter. */
  filter: opt(tileFilter()),
});
export type UpdateTileInput = z.input<typeof UpdateTileInput>;

// ---------------------------------------------------------------------------------------------
// Templates (operations 10 and 11)

export const TileTemplateSchema = z.object({
  name: z.string(),
  type: TileTypeSchema,
  position: PositionSchema,
  context: z.string().nullable(),
  table_tile: TableTileSchema.optional(),
  plot_tile: PlotTileSchema.optional(),
  filter: z.string().optional(),
  template_version: z.string(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  created_by: z.string().optional(),
});
export type TileTemplate = z.infer<typeof TileTemplateSchema>;

/** 10. POST /v0/tile/export_template */
export const ExportTemplateInput = z.object({
  include_metadata: opt(z.boolean()).transform((v) => v ?? true),
  description: opt(text(2000)),
  tags: opt(z.array(name(100)).max(50, 'At most 50 tags.')).transform((v) => v ?? []),
  template_name: opt(name(255)),
  tile_id: opt(text(100)),
  tab_id: opt(text(100)),
  tile_name: opt(text(255)),
  checkpoint: opt(z.boolean()).transform((v) => v ?? false),
});
export type ExportTemplateInput = z.input<typeof ExportTemplateInput>;

export const ExportTemplateResponse = z.object({
  template: TileTemplateSchema,
  metadata: z.object({
    exported_at: Timestamp,
    exported_by: z.string().optional(),
    source_tab: z.object({ id: z.string(), name: z.string(), interface: z.string() }).optional(),
    template_name: z.string().optional(),
  }),
  export_stats: z.object({ tiles: z.number().int() }),
});
export type ExportTemplateResponse = z.infer<typeof ExportTemplateResponse>;

/** 11. POST /v0/tile/import_template. `template` is checked by parseTemplate (its loc stays under body.template). */
export const ImportTemplateInput = z.object({
  project: name(255),
  template: z
    .unknown()
    .refine((v) => v !== undefined, 'Field required')
    .describe('A tile template as export_template returns it (an object with name and a numeric position); column_order may be a JSON-encoded string.'),
  validate_first: opt(z.boolean()).transform((v) => v ?? true),
  auto_sanitize: opt(z.boolean()).transform((v) => v ?? true),
  overwrite_existing: opt(z.boolean()).transform((v) => v ?? false),
  tab_id: opt(text(100)),
  interface_id: opt(text(100)),
  tab_name: opt(name(100)),
  new_tile_name: opt(name(255)),
  context_map: opt(
    z
      .record(text(255), text(255))
      .refine((m) => Object.keys(m).length <= MAX_CONTEXT_MAP, `At most ${MAX_CONTEXT_MAP} entries.`)
      .describe('The template\'s context → a context of the target project to use instead, e.g. {"Tasks": "Todo"}.'),
  ),
});
export type ImportTemplateInput = z.input<typeof ImportTemplateInput>;

export const ValidationLevelSchema = z.enum(['error', 'warning']);
export const TemplateIssueSchema = z.object({
  level: ValidationLevelSchema,
  component: z.string(),
  message: z.string(),
  suggested_fix: z.string().nullable(),
});
export type TemplateIssue = z.infer<typeof TemplateIssueSchema>;

export const ValidationResultSchema = z.object({ valid: z.boolean(), issues: z.array(TemplateIssueSchema) });
export type ValidationResult = z.infer<typeof ValidationResultSchema>;

export const ImportTemplateResponse = z.object({
  success: z.boolean(),
  /** null when validate_first was false. */
  validation_result: ValidationResultSchema.nullable(),
  import_stats: z.object({ tiles: z.number().int() }),
  created_ids: z.object({ tile_id: z.string(), tab_id: z.string() }),
  warnings: z.array(z.string()),
});
export type ImportTemplateResponse = z.infer<typeof ImportTemplateResponse>;

/** Body of the 422 when validation finds errors and auto_sanitize is off (or cannot fix them). */
export const ImportValidationErrorSchema = z.object({
  detail: z.array(z.object({ type: z.string(), loc: z.array(z.union([z.string(), z.number()])), msg: z.string() })),
  validation_result: ValidationResultSchema,
});

// ---------------------------------------------------------------------------------------------
// Structural check of a template, shared by the server (→ 422) and the import dialog (checked before sending).

/** What a tile holds besides its place: the part a checkpoint saves and a template carries. */
export interface TileContent {
  name: string;
  type: TileType;
  position: Position;
  context: string | null;
  table_tile: { table_type: string; column_order: string[] } | null;
  plot_tile: { plot_type: string; x_axis: string; y_axis: string } | null;
  /** Which logs of the context the tile shows (the logs API's filter language); null shows them all. */
  filter: string | null;
}

/** A template after the structural check: known fields only, in their canonical types. */
export interface ParsedTemplate extends TileContent {
  description: string | null;
  tags: string[];
  template_version: string | null;
}

export type ParseTemplateResult = { ok: true; template: ParsedTemplate; unknownKeys: string[] } | { ok: false; issues: ValidationIssue[] };

const TOP_KEYS = new Set(['name', 'type', 'position', 'context', 'table_tile', 'plot_tile', 'filter', 'template_version', 'description', 'tags', 'created_by']);
const TABLE_KEYS = new Set(['table_type', 'column_order']);
const PLOT_KEYS = new Set(['plot_type', 'x_axis', 'y_axis']);
const POSITION_KEYS = ['x', 'y', 'width', 'height'] as const;

const hasNul = (s: string) => s.includes('\u0000');

/**
 * Measures a JSON value without recursion (a 1 MB chain of nested arrays must not overflow the stack):
 * stops as soon as it is too deep or too big.
 */
export function measureJson(value: unknown, maxChars: number, maxDepth: number): 'ok' | 'too_deep' | 'too_large' {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  let chars = 0;
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (d > maxDepth) return 'too_deep';
    if (typeof v === 'string') chars += v.length + 2;
    else if (Array.isArray(v)) {
      chars += 2 + v.length;
      if (chars > maxChars) return 'too_large';
      for (const item of v) stack.push({ v: item, d: d + 1 });
    } else if (isJsonObject(v)) {
      const keys = Object.keys(v);
      chars += 2;
      for (const k of keys) {
        chars += k.length + 4;
        if (chars > maxChars) return 'too_large';
        stack.push({ v: v[k], d: d + 1 });
      }
    } else chars += 5;
    if (chars > maxChars) return 'too_large';
  }
  return 'ok';
}

/**
 * The structural rules of a template (semantics.md §4, 11): an object with a `name` and a numeric
 * `position`; known fields in their types; `column_order` as an array or a JSON-encoded array of strings.
 * `loc` is the path under `prefix` (the server uses ['body','template']). Unknown keys are reported, not refused:
 * validation turns them into warnings and sanitizing drops them.
 */
export function parseTemplate(raw: unknown, prefix: (string | number)[] = ['body', 'template']): ParseTemplateResult {
  const issues: ValidationIssue[] = [];
  const fail = (path: (string | number)[], msg: string, type = 'value_error') => issues.push({ type, loc: [...prefix, ...path], msg });
  if (!isJsonObject(raw)) {
    fail([], raw === undefined ? 'Field required' : 'Template must be a JSON object.', raw === undefined ? 'missing' : 'dict_type');
    return { ok: false, issues };
  }
  const size = measureJson(raw, MAX_TEMPLATE_CHARS, MAX_TEMPLATE_DEPTH);
  if (size !== 'ok') {
    fail(
      [],
      size === 'too_deep' ? `Template is nested too deeply (at most ${MAX_TEMPLATE_DEPTH} levels).` : `Template is too large (at most ${MAX_TEMPLATE_CHARS / 1000} KB).`,
    );
    return { ok: false, issues };
  }
  const unknownKeys: string[] = [];
  for (const k of Object.keys(raw)) if (!TOP_KEYS.has(k)) unknownKeys.push(k);

  // name
  let tileName = '';
  if (raw.name === undefined || raw.name === null) fail(['name'], 'Field required', 'missing');
  else if (typeof raw.name !== 'string') fail(['name'], 'Input should be a valid string', 'string_type');
  else {
    tileName = raw.name.trim();
    if (tileName === '') fail(['name'], 'Must not be empty.', 'string_too_short');
    else if (tileName.length > 255) fail(['name'], 'Must be at most 255 characters.', 'string_too_long');
    else if (hasNul(tileName)) fail(['name'], 'Must not contain NUL characters.');
  }

  // position
  const position = { x: 0, y: 0, width: 0, height: 0 };
  if (raw.position === undefined || raw.position === null) fail(['position'], 'Field required', 'missing');
  else if (!isJsonObject(raw.position)) fail(['position'], 'Position must be an object with numeric x, y, width and height.', 'dict_type');
  else {
    for (const k of POSITION_KEYS) {
      const v = raw.position[k];
      if (v === undefined || v === null) fail(['position', k], 'Field required', 'missing');
      else if (typeof v !== 'number' || !Number.isFinite(v)) fail(['position', k], 'Input should be a valid number', 'float_type');
      else if (Math.abs(v) > 1_000_000) fail(['position', k], 'Must be between -1000000 and 1000000.', 'less_than_equal');
      else position[k] = v;
    }
    for (const k of Object.keys(raw.position)) if (!(POSITION_KEYS as readonly string[]).includes(k)) unknownKeys.push(`position.${k}`);
  }

  // type
  let type: TileType = isJsonObject(raw.plot_tile) && !isJsonObject(raw.table_tile) ? 'Plot' : 'Table';
  if (raw.type !== undefined && raw.type !== null) {
    if (raw.type === 'Table' || raw.type === 'Plot') type = raw.type;
    else fail(['type'], "Must be 'Table' or 'Plot'.", 'enum');
  }

  // context
  let context: string | null = null;
  if (raw.context !== undefined && raw.context !== null) {
    if (typeof raw.context !== 'string') fail(['context'], 'Input should be a valid string', 'string_type');
    else if (raw.context.length > 255) fail(['context'], 'Must be at most 255 characters.', 'string_too_long');
    else if (hasNul(raw.context)) fail(['context'], 'Must not contain NUL characters.');
    else context = raw.context.trim() || null;
  }

  // filter: its syntax is checked with the other findings (an invalid filter can be dropped by sanitizing)
  let filter: string | null = null;
  if (raw.filter !== undefined && raw.filter !== null) {
    if (typeof raw.filter !== 'string') fail(['filter'], 'Input should be a valid string', 'string_type');
    else if (raw.filter.length > MAX_FILTER_LENGTH) fail(['filter'], `Must be at most ${MAX_FILTER_LENGTH} characters.`, 'string_too_long');
    else if (hasNul(raw.filter)) fail(['filter'], 'Must not contain NUL characters.');
    else filter = raw.filter.trim() || null;
  }

  // table_tile
  let tableTile: ParsedTemplate['table_tile'] = null;
  if (raw.table_tile !== undefined && raw.table_tile !== null) {
    if (!isJsonObject(raw.table_tile)) fail(['table_tile'], 'table_tile must be an object.', 'dict_type');
    else {
      const t = raw.table_tile;
      let tableType = 'default';
      if (t.table_type !== undefined && t.table_type !== null) {
        if (typeof t.table_type !== 'string' || t.table_type.length > 50 || hasNul(t.table_type)) {
          fail(['table_tile', 'table_type'], 'Must be a string of at most 50 characters.', 'string_type');
        } else tableType = t.table_type;
      }
      let order: unknown = t.column_order ?? [];
      if (typeof order === 'string') {
        // The real console stores column_order as a JSON-encoded string.
        try {
          order = JSON.parse(order);
        } catch {
          order = undefined;
        }
      }
      const columns: string[] = [];
      if (!Array.isArray(order) || !order.every((c) => typeof c === 'string')) {
        fail(['table_tile', 'column_order'], 'column_order must be an array of column names (or a JSON string of one).', 'list_type');
      } else if (order.length > MAX_TEMPLATE_COLUMNS) {
        fail(['table_tile', 'column_order'], `At most ${MAX_TEMPLATE_COLUMNS} columns.`, 'too_long');
      } else {
        for (const c of order as string[]) {
          if (c.length > 255 || hasNul(c)) fail(['table_tile', 'column_order'], 'Column names are at most 255 characters, without NUL.');
          else columns.push(c);
        }
      }
      for (const k of Object.keys(t)) if (!TABLE_KEYS.has(k)) unknownKeys.push(`table_tile.${k}`);
      tableTile = { table_type: tableType, column_order: columns };
    }
  }

  // plot_tile
  let plotTile: ParsedTemplate['plot_tile'] = null;
  if (raw.plot_tile !== undefined && raw.plot_tile !== null) {
    if (!isJsonObject(raw.plot_tile)) fail(['plot_tile'], 'plot_tile must be an object.', 'dict_type');
    else {
      const p = raw.plot_tile;
      const field = (k: 'plot_type' | 'x_axis' | 'y_axis') => {
        const v = p[k];
        if (v === undefined || v === null) {
          fail(['plot_tile', k], 'Field required', 'missing');
          return '';
        }
        if (typeof v !== 'string' || v.length > 255 || hasNul(v)) {
          fail(['plot_tile', k], 'Must be a string of at most 255 characters.', 'string_type');
          return '';
        }
        return v;
      };
      plotTile = { plot_type: field('plot_type'), x_axis: field('x_axis'), y_axis: field('y_axis') };
      for (const k of Object.keys(p)) if (!PLOT_KEYS.has(k)) unknownKeys.push(`plot_tile.${k}`);
    }
  }

  // description, tags, version
  let description: string | null = null;
  if (raw.description !== undefined && raw.description !== null) {
    if (typeof raw.description !== 'string' || raw.description.length > 2000 || hasNul(raw.description)) {
      fail(['description'], 'Must be a string of at most 2000 characters.', 'string_type');
    } else description = raw.description;
  }
  const tags: string[] = [];
  if (raw.tags !== undefined && raw.tags !== null) {
    if (!Array.isArray(raw.tags) || raw.tags.length > 50 || !raw.tags.every((s) => typeof s === 'string' && s.length <= 100 && !hasNul(s))) {
      fail(['tags'], 'Must be an array of at most 50 strings of at most 100 characters.', 'list_type');
    } else tags.push(...(raw.tags as string[]));
  }
  let version: string | null = null;
  if (raw.template_version !== undefined && raw.template_version !== null) {
    if (typeof raw.template_version !== 'string' || raw.template_version.length > 20) {
      fail(['template_version'], 'Must be a version string such as "1.0".', 'string_type');
    } else version = raw.template_version;
  }

  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    unknownKeys,
    template: {
      name: tileName,
      type,
      position,
      context,
      table_tile: tableTile,
      plot_tile: plotTile,
      filter,
      description,
      tags,
      template_version: version,
    },
  };
}
