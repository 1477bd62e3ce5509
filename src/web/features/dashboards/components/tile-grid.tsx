import { ActionIcon, Badge, Code, Group, Menu, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowsMove, IconDotsVertical, IconFileExport, IconFlag, IconPencil, IconTrash } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef } from 'react';
import type { Tile } from '../../../../shared/tiles.ts';
import { GRID_COLUMNS } from '../../../../shared/tiles.ts';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { useCheckpointTile, useDeleteTile } from '../api.ts';
import { TableTile } from './table-tile.tsx';
import classes from './tile-grid.module.css';

// The chart code is only downloaded when a tab shows a plot.
const PlotTile = lazy(() => import('./plot-tile.tsx'));

const ROW_HEIGHT = 56;

function TileCard({
  project,
  tile,
  highlighted,
  cannotWrite,
  onExport,
  onMove,
  onEdit,
}: {
  project: string;
  tile: Tile;
  highlighted: boolean;
  cannotWrite: string | null;
  onExport: (t: Tile) => void;
  onMove: (t: Tile) => void;
  onEdit: (t: Tile) => void;
}) {
  const checkpoint = useCheckpointTile(project);
  const remove = useDeleteTile(project);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [highlighted]);
  const { x, y, width, height } = tile.position;
  const col = Math.min(Math.max(0, Math.round(x)), GRID_COLUMNS - 1);
  const span = Math.min(Math.max(1, Math.round(width)), GRID_COLUMNS - col);
  return (
    <Paper
      ref={ref}
      component="section"
      aria-label={`Tile ${tile.name}`}
      withBorder
      radius="md"
      p="sm"
      className={classes.tile}
      data-highlighted={highlighted || undefined}
      style={{
        gridColumn: `${col + 1} / span ${span}`,
        gridRow: `${Math.max(0, Math.round(y)) + 1} / span ${Math.max(1, Math.round(height))}`,
        minHeight: Math.max(1, Math.round(height)) * ROW_HEIGHT,
      }}
    >
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Text component="h3" fw={600} size="sm" m={0} truncate>
              {tile.name}
            </Text>
            <Badge size="sm" variant="light">
              {tile.type}
            </Badge>
            {tile.has_checkpoint && (
              <Tooltip label={`Checkpoint saved ${tile.checkpoint_at ? new Date(tile.checkpoint_at).toLocaleString() : ''}`}>
                <Badge size="sm" variant="outline" color="gray" leftSection={<IconFlag size={10} aria-hidden />}>
                  checkpoint
                </Badge>
              </Tooltip>
            )}
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions for tile ${tile.name}`}>
                <IconDotsVertical size={16} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconFileExport size={14} aria-hidden />} onClick={() => onExport(tile)}>
                Export template
              </Menu.Item>
              <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} disabled={cannotWrite !== null} onClick={() => onEdit(tile)}>
                Edit tile
              </Menu.Item>
              <Menu.Item leftSection={<IconArrowsMove size={14} aria-hidden />} disabled={cannotWrite !== null} onClick={() => onMove(tile)}>
                Move / resize
              </Menu.Item>
              <Menu.Item leftSection={<IconFlag size={14} aria-hidden />} disabled={cannotWrite !== null} onClick={() => checkpoint.mutate(tile)}>
                Save checkpoint
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={14} aria-hidden />}
                disabled={cannotWrite !== null}
                onClick={() =>
                  confirmDelete({
                    title: `Delete tile ${tile.name}?`,
                    message: 'The tile and its checkpoint are deleted. Its context and rows stay.',
                    confirmLabel: 'Delete tile',
                    onConfirm: () => remove.mutate(tile),
                  })
                }
              >
                Delete tile
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        {tile.context === null ? (
          <Text size="sm" c="dimmed">
            This tile has no context.
          </Text>
        ) : tile.type === 'Table' ? (
          <TableTile project={project} tile={tile} />
        ) : (
          <Suspense fallback={<Skeleton height={Math.max(1, tile.position.height) * ROW_HEIGHT - 60} />}>
            <PlotTile project={project} tile={tile} />
          </Suspense>
        )}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {tile.context ?? 'no context'}
          {tile.filter !== null && (
            <>
              {' · where '}
              <Code fz="xs">{tile.filter}</Code>
            </>
          )}{' '}
          · x {tile.position.x}, y {tile.position.y}, {tile.position.width}×{tile.position.height}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Tiles drawn where their positions put them on the 12-column grid (stacked on narrow screens). */
export function TileGrid({
  project,
  tiles,
  highlight,
  cannotWrite,
  onExport,
  onMove,
  onEdit,
}: {
  project: string;
  tiles: Tile[];
  highlight: string | null;
  cannotWrite: string | null;
  onExport: (t: Tile) => void;
  onMove: (t: Tile) => void;
  onEdit: (t: Tile) => void;
}) {
  return (
    <div className={classes.grid} style={{ gridAutoRows: `minmax(${ROW_HEIGHT}px, auto)` }}>
      {tiles.map((tile) => (
        <TileCard
          key={tile.id}
          project={project}
          tile={tile}
          highlighted={tile.id === highlight}
          cannotWrite={cannotWrite}
          onExport={onExport}
          onMove={onMove}
          onEdit={onEdit}
        />
      ))}
    </div>
  );
}
