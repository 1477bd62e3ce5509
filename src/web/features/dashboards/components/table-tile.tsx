import { ScrollArea, Skeleton, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Tile } from '../../../../shared/tiles.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { tileQueries } from '../../../data/tiles.ts';
import { columnsOf } from '../api.ts';

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A Table tile: its context's rows, columns in the tile's column_order (all columns when it is empty). */
export function TableTile({ project, tile }: { project: string; tile: Tile }) {
  const rows = useQuery({ ...tileQueries.rows(project, tile.context!, tile.filter), enabled: tile.context !== null });
  if (rows.isPending) return <Skeleton height={80} aria-label={`Loading rows of ${tile.context}`} />;
  if (rows.isError) return <ErrorAlert error={rows.error} onRetry={() => void rows.refetch()} title="Could not load the rows" />;
  const columns = tile.table_tile && tile.table_tile.column_order.length > 0 ? tile.table_tile.column_order : columnsOf(rows.data.logs);
  if (rows.data.logs.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {tile.filter === null ? `Context ${tile.context} has no rows yet.` : `No rows of ${tile.context} match the tile's filter.`}
      </Text>
    );
  }
  return (
    <ScrollArea.Autosize
      mah={Math.max(2, tile.position.height) * 56 - 60}
      type="auto"
      viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `Scrollable rows of tile ${tile.name}` }}
    >
      <Table striped highlightOnHover withTableBorder stickyHeader fz="sm" aria-label={`Rows of ${tile.context} in tile ${tile.name}`}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.data.logs.map((row) => (
            <Table.Tr key={String(row.id)}>
              {columns.map((c) => (
                <Table.Td key={c}>{formatCell(row.entries?.[c])}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {rows.data.count > rows.data.logs.length && (
        <Text size="xs" c="dimmed" mt={4}>
          Showing the latest {rows.data.logs.length} of {rows.data.count} rows{tile.filter === null ? '' : ' that match'}.
        </Text>
      )}
    </ScrollArea.Autosize>
  );
}
