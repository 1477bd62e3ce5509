import { Group, Modal, MultiSelect, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { GRID_COLUMNS, MAX_TILE_HEIGHT, PLOT_TYPES, type Tab, type Tile, type TileType } from '../../../../shared/tiles.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { contextQueries } from '../../../data/contexts.ts';
import { tileQueries } from '../../../data/tiles.ts';
import { columnsOf, useCreateTile, useUpdateTile } from '../api.ts';
import { FilterInput } from '../../../components/filter-input.tsx';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';
import { filterProblem } from '../../../lib/filter-problem.ts';

/** The server's word on a filter that parses but does not run (a function it lacks): the position its message names. */
function serverFilterProblem(message: string, filter: string) {
  const at = /position (\d+)/.exec(message);
  return { message, position: Math.min(at ? Number(at[1]) : 0, filter.length) };
}

const num = (v: number | string, fallback: number) => (typeof v === 'number' ? v : Number.parseFloat(v) || fallback);

/** Adding a tile to a tab, or editing one: the same fields, checked by the server like an import. */
export type TileModalTarget = { kind: 'add'; tab: Tab } | { kind: 'edit'; tile: Tile };

interface Fields {
  name: string;
  type: TileType;
  context: string | null;
  columnOrder: string[];
  plotType: string;
  xAxis: string | null;
  yAxis: string | null;
  width: number;
  height: number;
  filter: string;
}

const blank: Fields = { name: '', type: 'Table', context: null, columnOrder: [], plotType: 'line', xAxis: null, yAxis: null, width: 6, height: 4, filter: '' };

function fieldsOf(tile: Tile): Fields {
  return {
    name: tile.name,
    type: tile.type,
    context: tile.context,
    columnOrder: tile.table_tile?.column_order ?? [],
    plotType: tile.plot_tile?.plot_type ?? 'line',
    xAxis: tile.plot_tile?.x_axis ?? null,
    yAxis: tile.plot_tile?.y_axis ?? null,
    width: tile.position.width,
    height: tile.position.height,
    filter: tile.filter ?? '',
  };
}

/**
 * Adds a tile (the server puts it in the first free spot of its size) or edits one in place: name, context,
 * columns or plot fields. Where an edited tile sits is the Move / resize dialog's job.
 */
export function TileModal({ target, onClose, project }: { target: TileModalTarget | null; onClose: () => void; project: string }) {
  const opened = target !== null;
  const [f, setFields] = useState<Fields>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // Each opening starts from the tile being edited, or empty (state adjusted while rendering, not in an effect).
  const [shown, setShown] = useState<TileModalTarget | null>(null);
  if (target !== shown) {
    setShown(target);
    setFields(target?.kind === 'edit' ? fieldsOf(target.tile) : blank);
    setErrors({});
    setFormError(null);
  }
  const set = (changes: Partial<Fields>) => setFields((prev) => ({ ...prev, ...changes }));

  const contexts = useQuery({ ...contextQueries.list(project), enabled: opened });
  const rows = useQuery({ ...tileQueries.rows(project, f.context ?? '', null), enabled: opened && f.context !== null });
  const columns = rows.data ? columnsOf(rows.data.logs) : [];
  const filterSyntax = filterProblem(f.filter);
  const create = useCreateTile(project);
  const update = useUpdateTile(project);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!target) return;
    const local: Record<string, string> = {};
    if (!f.name.trim()) local.name = 'Enter a name.';
    if (!f.context) local.context = 'Choose a context.';
    if (f.type === 'Plot' && !f.xAxis) local['plot_tile.x_axis'] = 'Choose the x axis.';
    if (f.type === 'Plot' && !f.yAxis) local['plot_tile.y_axis'] = 'Choose the y axis.';
    setErrors(local);
    if (Object.keys(local).length > 0 || filterSyntax) return;
    const content = {
      name: f.name.trim(),
      context: f.context,
      // An empty filter removes an edited tile's filter (the API reads "" as none).
      filter: f.filter.trim(),
      ...(f.type === 'Table'
        ? { table_tile: { table_type: target.kind === 'edit' ? (target.tile.table_tile?.table_type ?? 'default') : 'default', column_order: f.columnOrder } }
        : { plot_tile: { plot_type: f.plotType, x_axis: f.xAxis!, y_axis: f.yAxis! } }),
    };
    try {
      if (target.kind === 'add') {
        await create.mutateAsync({ tabId: target.tab.id, input: { ...content, type: f.type, position: { width: f.width, height: f.height } } });
      } else {
        await update.mutateAsync({ tileId: target.tile.id, input: content });
      }
      onClose();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) {
        setErrors(err.fieldErrors);
        setFormError(err.detail);
      } else setFormError(errorMessage(err));
    }
  };

  const contextOptions = (contexts.data ?? []).map((c) => c.name);
  // An edited tile may name columns its context no longer has: keep them choosable so they can be removed.
  const columnOptions = [...new Set([...columns, ...f.columnOrder])];
  const axisOptions = [...new Set([...columns, ...[f.xAxis, f.yAxis].filter((a) => a !== null)])];
  const title = !target ? '' : target.kind === 'add' ? `Add a tile to ${target.tab.name}` : `Edit tile ${target.tile.name}`;
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Tile name"
            required
            value={f.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
            error={errors.name}
            maxLength={255}
            data-autofocus
          />
          {target?.kind === 'add' && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="tile-type-label">
                Type
              </Text>
              <SegmentedControl aria-labelledby="tile-type-label" value={f.type} onChange={(v) => set({ type: v as TileType })} data={['Table', 'Plot']} />
            </Stack>
          )}
          <Select
            label="Context"
            required
            data={contextOptions}
            value={f.context}
            onChange={(v) => set({ context: v, columnOrder: [], xAxis: null, yAxis: null })}
            searchable
            error={errors.context ?? (contexts.isError ? errorMessage(contexts.error) : undefined)}
            placeholder={contexts.isPending ? 'Loading contexts…' : contextOptions.length === 0 ? 'This project has no contexts' : 'Choose a context'}
            nothingFoundMessage="No context with that name"
          />
          {f.type === 'Table' ? (
            <MultiSelect
              label="Columns, in order"
              description="Leave empty to show every column."
              data={columnOptions}
              value={f.columnOrder}
              onChange={(v) => set({ columnOrder: v })}
              disabled={!f.context}
              error={errors['table_tile.column_order']}
              searchable
            />
          ) : (
            <Group grow>
              <Select label="Plot type" data={[...PLOT_TYPES]} value={f.plotType} onChange={(v) => set({ plotType: v ?? 'line' })} allowDeselect={false} />
              <Select
                label="X axis"
                required
                data={axisOptions}
                value={f.xAxis}
                onChange={(v) => set({ xAxis: v })}
                disabled={!f.context}
                error={errors['plot_tile.x_axis']}
              />
              <Select
                label="Y axis"
                required
                data={axisOptions}
                value={f.yAxis}
                onChange={(v) => set({ yAxis: v })}
                disabled={!f.context}
                error={errors['plot_tile.y_axis']}
              />
            </Group>
          )}
          <FilterInput
            label="Show only the rows where"
            description="Optional, in the logs filter language: priority >= 2 and status != 'done'. Leave empty to show every row."
            value={f.filter}
            onChange={(filter) => {
              set({ filter });
              if (errors.filter) setErrors((prev) => ({ ...prev, filter: '' }));
            }}
            problem={filterSyntax ?? (errors.filter ? serverFilterProblem(errors.filter, f.filter) : null)}
          />
          {target?.kind === 'add' && (
            <>
              <Group grow>
                <NumberInput label="Width" min={1} max={GRID_COLUMNS} value={f.width} onChange={(v) => set({ width: num(v, 6) })} error={errors['position.width']} />
                <NumberInput
                  label="Height"
                  min={1}
                  max={MAX_TILE_HEIGHT}
                  value={f.height}
                  onChange={(v) => set({ height: num(v, 4) })}
                  error={errors['position.height']}
                />
              </Group>
              <Text size="sm" c="dimmed">
                The tile goes to the first free spot of the {GRID_COLUMNS}-column grid where it fits; move it afterwards from its menu.
              </Text>
            </>
          )}
          <ModalFormFooter
            error={formError}
            onCancel={onClose}
            submitLabel={target?.kind === 'edit' ? 'Save tile' : 'Add tile'}
            submitting={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
