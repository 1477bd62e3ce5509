import { Box, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { GRID_COLUMNS, MAX_TILE_HEIGHT, type Position, type Tile } from '../../../../shared/tiles.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useUpdateTile } from '../api.ts';
import { ModalFormFooter } from '../../../components/modal-form-footer.tsx';

/** Alert titles in the text colour: the light variants' tinted titles fail WCAG AA contrast. */

const num = (v: number | string) => (typeof v === 'number' ? v : Number.parseFloat(v));

/** Moves and resizes a tile with numbers (keyboard-friendly), previewing where it lands on the 12 columns. */
export function PositionModal({ project, tile, onClose }: { project: string; tile: Tile | null; onClose: () => void }) {
  const [pos, setPos] = useState<Position>({ x: 0, y: 0, width: 1, height: 1 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const update = useUpdateTile(project);
  // Another tile starts from its own position (state adjusted while rendering, not in an effect).
  const [shownTile, setShownTile] = useState<Tile | null>(null);
  if (tile !== shownTile) {
    setShownTile(tile);
    if (tile) {
      setPos(tile.position);
      setErrors({});
      setFormError(null);
    }
  }

  const set = (k: keyof Position) => (v: number | string) => setPos((p) => ({ ...p, [k]: num(v) }));
  const fits = Number.isInteger(pos.x) && Number.isInteger(pos.width) && pos.x >= 0 && pos.width >= 1 && pos.x + pos.width <= GRID_COLUMNS;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!tile) return;
    try {
      await update.mutateAsync({ tileId: tile.id, input: { position: pos } });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) setErrors(err.fieldErrors);
      setFormError(errorMessage(err));
    }
  };

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={tile !== null} onClose={onClose} title={tile ? `Move or resize ${tile.name}` : ''}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Group grow>
            <NumberInput label="Column (x)" min={0} max={GRID_COLUMNS - 1} value={pos.x} onChange={set('x')} error={errors['position.x']} data-autofocus />
            <NumberInput label="Row (y)" min={0} value={pos.y} onChange={set('y')} error={errors['position.y']} />
          </Group>
          <Group grow>
            <NumberInput label="Width" min={1} max={GRID_COLUMNS} value={pos.width} onChange={set('width')} error={errors['position.width']} />
            <NumberInput label="Height" min={1} max={MAX_TILE_HEIGHT} value={pos.height} onChange={set('height')} error={errors['position.height']} />
          </Group>
          <Box aria-hidden style={{ display: 'grid', gridTemplateColumns: `repeat(${GRID_COLUMNS}, 1fr)`, gap: 2 }}>
            {Array.from({ length: GRID_COLUMNS }, (_, i) => (
              <Box key={i} h={14} bg={fits && i >= pos.x && i < pos.x + pos.width ? 'blue.6' : 'gray.3'} style={{ borderRadius: 2 }} />
            ))}
          </Box>
          <Text size="sm" c={fits ? 'dimmed' : 'red.9'}>
            {fits ? `Columns ${pos.x + 1}–${pos.x + pos.width} of ${GRID_COLUMNS}.` : `x + width must stay within ${GRID_COLUMNS} columns.`}
          </Text>
          <ModalFormFooter error={formError} onCancel={onClose} submitLabel="Save position" submitting={update.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
