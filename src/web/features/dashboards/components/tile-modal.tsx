import { Group, Modal, MultiSelect, NumberInput, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { GRID_COLUMNS, MAX_TILE_HEIGHT, PLOT_TYPES, type Tab, type TileType } from '../../../../shared/tiles.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { contextQueries } from '../../../data/contexts.ts';
import { tileQueries } from '../../../data/tiles.ts';
import { columnsOf, useCreateTile } from '../api.ts';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';

/** Alert titles in the text colour: the light variants' tinted titles fail WCAG AA contrast. */

const num = (v: number | string, fallback: number) => (typeof v === 'number' ? v : Number.parseFloat(v) || fallback);

/** Adds a tile below the tab's last one; the server checks context, columns and grid like an import. */
export function AddTileModal({ opened, onClose, project, tab }: { opened: boolean; onClose: () => void; project: string; tab: Tab }) {
  const contexts = useQuery({ ...contextQueries.list(project), enabled: opened });
  const [name, setName] = useState('');
  const [type, setType] = useState<TileType>('Table');
  const [context, setContext] = useState<string | null>(null);
  const [columnOrder, setColumnOrder] = useState<string[]>([]);
  const [plotType, setPlotType] = useState<string>('line');
  const [xAxis, setXAxis] = useState<string | null>(null);
  const [yAxis, setYAxis] = useState<string | null>(null);
  const [x, setX] = useState(0);
  const [width, setWidth] = useState(6);
  const [height, setHeight] = useState(4);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const rows = useQuery({ ...tileQueries.rows(project, context ?? ''), enabled: opened && context !== null });
  const columns = rows.data ? columnsOf(rows.data.logs) : [];
  const create = useCreateTile(project);

  const reset = () => {
    setName('');
    setContext(null);
    setColumnOrder([]);
    setXAxis(null);
    setYAxis(null);
    setErrors({});
    setFormError(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Enter a name.';
    if (!context) local.context = 'Choose a context.';
    if (type === 'Plot' && !xAxis) local['plot_tile.x_axis'] = 'Choose the x axis.';
    if (type === 'Plot' && !yAxis) local['plot_tile.y_axis'] = 'Choose the y axis.';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const bottom = tab.tiles.reduce((m, t) => Math.max(m, t.position.y + t.position.height), 0);
    try {
      await create.mutateAsync({
        tabId: tab.id,
        input: {
          name: name.trim(),
          type,
          context,
          position: { x, y: bottom, width, height },
          ...(type === 'Table'
            ? { table_tile: { table_type: 'default', column_order: columnOrder } }
            : { plot_tile: { plot_type: plotType, x_axis: xAxis!, y_axis: yAxis! } }),
        },
      });
      close();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) {
        setErrors(err.fieldErrors);
        setFormError(err.detail);
      } else setFormError(errorMessage(err));
    }
  };

  const contextOptions = (contexts.data ?? []).map((c) => c.name);
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={opened} onClose={close} title={`Add a tile to ${tab.name}`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Tile name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} maxLength={255} data-autofocus />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="tile-type-label">
              Type
            </Text>
            <SegmentedControl aria-labelledby="tile-type-label" value={type} onChange={(v) => setType(v as TileType)} data={['Table', 'Plot']} />
          </Stack>
          <Select
            label="Context"
            required
            data={contextOptions}
            value={context}
            onChange={(v) => {
              setContext(v);
              setColumnOrder([]);
              setXAxis(null);
              setYAxis(null);
            }}
            searchable
            error={errors.context ?? (contexts.isError ? errorMessage(contexts.error) : undefined)}
            placeholder={contexts.isPending ? 'Loading contexts…' : contextOptions.length === 0 ? 'This project has no contexts' : 'Choose a context'}
            nothingFoundMessage="No context with that name"
          />
          {type === 'Table' ? (
            <MultiSelect
              label="Columns, in order"
              description="Leave empty to show every column."
              data={columns}
              value={columnOrder}
              onChange={setColumnOrder}
              disabled={!context}
              error={errors['table_tile.column_order']}
              searchable
            />
          ) : (
            <Group grow>
              <Select label="Plot type" data={[...PLOT_TYPES]} value={plotType} onChange={(v) => setPlotType(v ?? 'line')} allowDeselect={false} />
              <Select label="X axis" required data={columns} value={xAxis} onChange={setXAxis} disabled={!context} error={errors['plot_tile.x_axis']} />
              <Select label="Y axis" required data={columns} value={yAxis} onChange={setYAxis} disabled={!context} error={errors['plot_tile.y_axis']} />
            </Group>
          )}
          <Group grow>
            <NumberInput label="Column (x)" min={0} max={GRID_COLUMNS - 1} value={x} onChange={(v) => setX(num(v, 0))} error={errors['position.x']} />
            <NumberInput label="Width" min={1} max={GRID_COLUMNS} value={width} onChange={(v) => setWidth(num(v, 6))} error={errors['position.width']} />
            <NumberInput label="Height" min={1} max={MAX_TILE_HEIGHT} value={height} onChange={(v) => setHeight(num(v, 4))} error={errors['position.height']} />
          </Group>
          <ModalFormFooter error={formError} onCancel={close} submitLabel="Add tile" submitting={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
