import type { Principal } from '../../auth/principal.ts';
import { scopeOf } from '../../auth/principal.ts';
import type { Conn } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import type { Deps } from '../../deps.ts';
import { badRequestError, invalidFields, missingField, notFoundError } from '../../domain-errors.ts';
import {
  parseTemplate,
  TEMPLATE_VERSION,
  type ExportTemplateResponse,
  type ImportTemplateResponse,
  type ParsedTemplate,
  type TileContent,
  type TileTemplate,
  type ValidationResult,
} from '../../../shared/tiles.ts';
import { projectInScopeOr404 } from '../projects/service.ts';
import { recordAudit } from '../audit/service.ts';
import {
  checkpointOf,
  contentOfRow,
  findInterface,
  findTab,
  findTabByName,
  findTile,
  findTileByName,
  findTileInTab,
  insertTab,
  insertTile,
  deleteRow,
  tilePositions,
  type TileRef,
} from './repository.ts';
import { place } from './placement.ts';
import { targetOf, tileClash } from './service.ts';
import { issuesAsDetail, sanitizeTemplate, validateTemplate, type TemplateTarget } from './template-service.ts';

// Tiles as templates: exported from one dashboard, imported (checked, maybe fixed) into another.

// ---------------------------------------------------------------------------------------------
// 10. Export

export interface ExportRequest {
  include_metadata: boolean;
  description?: string;
  tags: string[];
  template_name?: string;
  tile_id?: string;
  tab_id?: string;
  tile_name?: string;
  checkpoint: boolean;
}

export async function exportTemplate(deps: Deps, principal: Principal, body: ExportRequest): Promise<ExportTemplateResponse> {
  const scope = scopeOf(principal);
  let tile: TileRef | undefined;
  if (body.tile_id !== undefined) {
    tile = await findTile(deps.db, scope, body.tile_id);
    if (!tile) throw notFoundError('Tile not found.');
  } else if (body.tab_id !== undefined && body.tile_name !== undefined) {
    const tab = await findTab(deps.db, scope, body.tab_id);
    if (!tab) throw notFoundError('Tab not found.');
    tile = await findTileInTab(deps.db, scope, tab.id, body.tile_name.trim());
    if (!tile) throw notFoundError(`Tile ${body.tile_name.trim()} not found in tab ${tab.name}.`);
  } else {
    throw badRequestError('Either tile_id or both tab_id and tile_name must be provided.');
  }

  let content: TileContent = contentOfRow(tile);
  if (body.checkpoint) {
    const saved = checkpointOf(tile);
    if (!saved) throw notFoundError(`Tile ${tile.name} has no checkpoint. Save one first with POST /v0/tile/${tile.id}/checkpoint.`);
    content = saved;
  }

  const template: TileTemplate = {
    name: content.name,
    type: content.type,
    position: content.position,
    context: content.context,
    ...(content.type === 'Table' && content.table_tile ? { table_tile: content.table_tile } : {}),
    ...(content.type === 'Plot' && content.plot_tile ? { plot_tile: content.plot_tile } : {}),
    ...(content.filter !== null ? { filter: content.filter } : {}),
    template_version: TEMPLATE_VERSION,
    description: body.description ?? null,
    tags: body.tags,
    ...(body.include_metadata && tile.created_by ? { created_by: tile.created_by } : {}),
  };
  const exportedAt = deps.now().toISOString();
  const metadata: ExportTemplateResponse['metadata'] = body.include_metadata
    ? {
        exported_at: exportedAt,
        exported_by: principal.userId,
        source_tab: { id: tile.tab_id, name: tile.tab_name, interface: tile.interface_name },
        template_name: body.template_name ?? content.name,
      }
    : { exported_at: exportedAt };
  return { template, metadata, export_stats: { tiles: 1 } };
}

// ---------------------------------------------------------------------------------------------
// 11. Import

export interface ImportRequest {
  project: string;
  template: unknown;
  validate_first: boolean;
  auto_sanitize: boolean;
  overwrite_existing: boolean;
  tab_id?: string;
  interface_id?: string;
  tab_name?: string;
  new_tile_name?: string;
  context_map?: Record<string, string>;
}

/** Where the tile goes: an existing tab, or a tab (maybe to be created) named within an interface. */
type Destination = { kind: 'tab'; tabId: string } | { kind: 'named'; interfaceId: string; interfaceName: string; tabName: string };

function contentOf(t: ParsedTemplate, name: string): TileContent {
  return {
    name,
    type: t.type,
    position: t.position,
    context: t.context,
    table_tile: t.type === 'Table' ? t.table_tile : null,
    plot_tile: t.type === 'Plot' ? t.plot_tile : null,
    filter: t.filter,
  };
}

function rejectInvalid(result: ValidationResult): never {
  const errors = result.issues.filter((i) => i.level === 'error').length;
  throw invalidFields(issuesAsDetail(result), { validation_result: result, errors });
}

/**
 * Applies the caller's context_map: the template's context becomes the project's context it is mapped to.
 * A mapping to a context the project lacks is refused (naming the ones it has); other keys are ignored, so one
 * map can serve several templates.
 */
function mapContext(t: ParsedTemplate, map: Record<string, string> | undefined, target: TemplateTarget): { template: ParsedTemplate; warning?: string } {
  const problems = Object.entries(map ?? {})
    .filter(([, to]) => !target.contexts.has(to))
    .map(([from, to]) => ({
      type: 'value_error',
      loc: ['body', 'context_map', from],
      msg: `Context '${to}' does not exist in project '${target.project}'. Map '${from}' to one of: ${
        [...target.contexts.keys()]
          .sort()
          .map((c) => `'${c}'`)
          .join(', ') || '(none)'
      }.`,
    }));
  if (problems.length > 0) throw invalidFields(problems);
  const to = t.context === null ? undefined : map?.[t.context];
  if (to === undefined || to === t.context) return { template: t };
  return { template: { ...t, context: to }, warning: `Mapped context '${t.context}' to '${to}' of project ${target.project}.` };
}

/** Imports a template; `beforeCommit` runs last in the import's transaction with the response. */
export async function importTemplate(
  deps: Deps,
  principal: Principal,
  body: ImportRequest,
  beforeCommit?: (tx: Conn, response: ImportTemplateResponse) => Promise<void>,
): Promise<ImportTemplateResponse> {
  const scope = scopeOf(principal);
  const project = await projectInScopeOr404(deps.db, scope, body.project);

  // Destination first: a template for nowhere is a malformed request whatever it holds.
  let destination: Destination;
  if (body.tab_id !== undefined) {
    const tab = await findTab(deps.db, scope, body.tab_id);
    if (!tab || tab.project_id !== project.id) throw notFoundError(`Tab not found in project ${project.name}.`);
    destination = { kind: 'tab', tabId: tab.id };
  } else if (body.interface_id !== undefined && body.tab_name !== undefined) {
    const iface = await findInterface(deps.db, scope, body.interface_id);
    if (!iface || iface.project_id !== project.id) throw notFoundError(`Interface not found in project ${project.name}.`);
    destination = { kind: 'named', interfaceId: iface.id, interfaceName: iface.name, tabName: body.tab_name };
  } else {
    throw missingField(['body', 'tab_id'], 'Either tab_id or both interface_id and tab_name must be provided.');
  }

  const parsed = parseTemplate(body.template);
  if (!parsed.ok) throw invalidFields(parsed.issues);

  const target = await targetOf(deps.db, project.id, project.name);
  const warnings: string[] = [];
  const mapped = mapContext(parsed.template, body.context_map, target);
  if (mapped.warning) warnings.push(mapped.warning);
  let validation: ValidationResult | null = null;
  let template = mapped.template;
  if (body.validate_first) {
    validation = validateTemplate(template, parsed.unknownKeys, target);
    if (!validation.valid && !body.auto_sanitize) rejectInvalid(validation);
  }
  if (body.auto_sanitize) {
    const fixed = sanitizeTemplate(template, parsed.unknownKeys, target);
    template = fixed.template;
    warnings.push(...fixed.warnings);
    // What sanitizing cannot fix (a context the project lacks, a plot axis) still stops a validated import.
    if (body.validate_first && !fixed.remaining.valid) rejectInvalid({ valid: false, issues: validation!.issues });
  }

  const tileName = body.new_tile_name ?? template.name;
  const wanted = contentOf(template, tileName);

  // One retry: a concurrent import may create the same tab between our read and our insert.
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.db.transaction().execute(async (tx) => {
        const extra: string[] = [];
        let tabId: string;
        if (destination.kind === 'tab') tabId = destination.tabId;
        else {
          const existing = await findTabByName(tx, destination.interfaceId, destination.tabName);
          if (existing) tabId = existing.id;
          else {
            tabId = (await insertTab(tx, destination.interfaceId, destination.tabName, deps.now())).id;
            extra.push(`Tab ${destination.tabName} did not exist in interface ${destination.interfaceName} and was created.`);
          }
        }
        const clash = await findTileByName(tx, tabId, tileName);
        if (clash) {
          if (!body.overwrite_existing) throw tileClash(tileName);
          await deleteRow(tx, 'tiles', clash.id);
          extra.push(`Replaced the existing tile ${tileName} (id ${clash.id}).`);
        }
        // The template's spot may be taken in this tab: the tile goes to the first free one instead of on top.
        const position = place(wanted.position, await tilePositions(tx, tabId));
        const content = { ...wanted, position };
        if (position !== wanted.position) {
          const from = wanted.position;
          extra.push(`Placed the tile at x ${position.x}, y ${position.y}: its spot at x ${from.x}, y ${from.y} is taken by other tiles of the tab.`);
        }
        const row = await insertTile(tx, tabId, content, principal.userId, deps.now());
        const response: ImportTemplateResponse = {
          success: true,
          validation_result: validation,
          import_stats: { tiles: 1 },
          created_ids: { tile_id: row.id, tab_id: tabId },
          warnings: [...extra, ...warnings],
        };
        const target = { type: 'tile', id: row.id, label: `${project.name}: ${tileName}` };
        await recordAudit(tx, { workspace: scope, actor: principal, action: 'template.imported', target, at: deps.now() });
        await beforeCommit?.(tx, response);
        return response;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (attempt >= 1) throw tileClash(tileName);
    }
  }
}
