import { z } from 'zod';
import { InfoString, text } from '../common.ts';
import { inScope, operation } from '../operation.ts';
import {
  CreateInterfaceInput,
  CreateTabInput,
  CreateTileInput,
  ExportTemplateInput,
  ExportTemplateResponse,
  ImportTemplateInput,
  ImportTemplateResponse,
  InterfaceInfoSchema,
  InterfaceListSchema,
  TabInfoSchema,
  TileInfoSchema,
  UpdateTileInput,
} from '../tiles.ts';

// Dashboards of a project: interfaces hold tabs, tabs hold tiles; tiles travel as templates.

const ProjectParams = z.object({ project_name: text(255) });
/** Interfaces, tabs and tiles are named by their UUID. */
const IdParams = z.object({ id: text(100) });

export const exportTileTemplate = operation({
  method: 'POST',
  path: '/v0/tile/export_template',
  operationId: 'exportTileTemplate',
  summary: 'Export a dashboard tile as a reusable template',
  description:
    'Select the tile by tile_id, or by tab_id and tile_name. checkpoint:true exports the saved checkpoint copy. ' +
    'include_metadata:false leaves only exported_at in metadata and omits created_by from the template.',
  tag: 'tiles',
  access: inScope('project:read'),
  body: ExportTemplateInput,
  response: ExportTemplateResponse,
  errors: [400, 403, 404, 422],
});

export const importTileTemplate = operation({
  method: 'POST',
  path: '/v0/tile/import_template',
  operationId: 'importTileTemplate',
  summary: 'Import a tile template into a tab',
  description:
    'Target: tab_id, or interface_id + tab_name (the tab is created when missing). validate_first checks the template ' +
    'against the project (context, columns, 12-column grid); auto_sanitize fixes what it can, one warning per fix. ' +
    'context_map renames the template\'s context to one the project has (e.g. {"Tasks": "Todo"}, with a warning); a value naming ' +
    "a context the project lacks is 422. A name clash is 409 unless overwrite_existing. The tile keeps the template's position " +
    'when that spot of the tab is free, and otherwise goes to the first free spot of its size (top row first, then leftmost), ' +
    'with a warning. 422 bodies of a failed validation carry validation_result.',
  tag: 'tiles',
  access: inScope('project:write'),
  body: ImportTemplateInput,
  response: ImportTemplateResponse,
  errors: [403, 404, 409, 422],
  idempotent: true,
});

export const listInterfaces = operation({
  method: 'GET',
  path: '/v0/project/{project_name}/interfaces',
  operationId: 'listInterfaces',
  summary: "A project's interfaces with their tabs and tiles, in one call",
  tag: 'tiles',
  extension: true,
  access: inScope('project:read'),
  params: ProjectParams,
  response: InterfaceListSchema,
  errors: [403, 404],
});

export const createInterface = operation({
  method: 'POST',
  path: '/v0/project/{project_name}/interfaces',
  operationId: 'createInterface',
  summary: 'Create an interface (dashboard) in a project',
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: ProjectParams,
  body: CreateInterfaceInput,
  response: InterfaceInfoSchema,
  status: 201,
  errors: [403, 404, 409, 422],
});

export const deleteInterface = operation({
  method: 'DELETE',
  path: '/v0/interface/{id}',
  operationId: 'deleteInterface',
  summary: 'Delete an interface with its tabs and tiles',
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: IdParams,
  response: InfoString,
  errors: [403, 404],
});

export const createTab = operation({
  method: 'POST',
  path: '/v0/interface/{id}/tabs',
  operationId: 'createTab',
  summary: 'Add a tab to an interface (placed last)',
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: IdParams,
  body: CreateTabInput,
  response: TabInfoSchema,
  status: 201,
  errors: [403, 404, 409, 422],
});

export const deleteTab = operation({
  method: 'DELETE',
  path: '/v0/tab/{id}',
  operationId: 'deleteTab',
  summary: 'Delete a tab with its tiles',
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: IdParams,
  response: InfoString,
  errors: [403, 404],
});

export const createTile = operation({
  method: 'POST',
  path: '/v0/tab/{id}/tiles',
  operationId: 'createTile',
  summary: 'Add a tile to a tab',
  description:
    'The tile is checked like an imported template: its context and columns must exist and it must fit the 12-column grid. ' +
    'position.x and position.y may be left out: the tile goes to the first free spot of its size (top row first, then leftmost). ' +
    'A given spot that other tiles of the tab cover is replaced the same way; the response has the final position.',
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: IdParams,
  body: CreateTileInput,
  response: TileInfoSchema,
  status: 201,
  errors: [403, 404, 409, 422],
});

export const updateTile = operation({
  method: 'PATCH',
  path: '/v0/tile/{id}',
  operationId: 'updateTile',
  summary: 'Move, resize, rename or reconfigure a tile (omitted fields are unchanged)',
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: IdParams,
  body: UpdateTileInput,
  response: TileInfoSchema,
  errors: [403, 404, 409, 422],
});

export const deleteTile = operation({
  method: 'DELETE',
  path: '/v0/tile/{id}',
  operationId: 'deleteTile',
  summary: 'Delete a tile',
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: IdParams,
  response: InfoString,
  errors: [403, 404],
});

export const checkpointTile = operation({
  method: 'POST',
  path: '/v0/tile/{id}/checkpoint',
  operationId: 'checkpointTile',
  summary: "Save the tile's current state as its checkpoint (replaces an older one)",
  tag: 'tiles',
  extension: true,
  access: inScope('project:write'),
  params: IdParams,
  response: TileInfoSchema,
  errors: [403, 404],
});
