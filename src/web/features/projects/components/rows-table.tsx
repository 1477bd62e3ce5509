import { ActionIcon, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { TableScroll } from '../../../components/list-kit.tsx';
import type { Log } from '../../../../shared/projects.ts';
import { formatValue } from '../model.ts';

/** Rows as a table: id, then one column per entry name; edit/delete when `onEdit`/`onDelete` are given. */
export function RowsTable({
  rows,
  columns,
  caption,
  onEdit,
  onDelete,
  disabledReason,
}: {
  rows: Log[];
  columns: string[];
  caption: string;
  onEdit?: (row: Log) => void;
  onDelete?: (row: Log) => void;
  disabledReason?: string | null;
}) {
  const actions = !!(onEdit || onDelete);
  return (
    <TableScroll minWidth={Math.max(480, columns.length * 140)}>
      <Table striped highlightOnHover verticalSpacing="xs" withTableBorder>
        <VisuallyHidden component="caption">{caption}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={70}>
              id
            </Table.Th>
            {columns.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
            {actions && (
              <Table.Th scope="col" w={90}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                <Text size="sm" c="dimmed" ff="monospace">
                  {row.id}
                </Text>
              </Table.Td>
              {columns.map((c) => {
                const value = row.entries[c];
                const text = formatValue(value);
                return (
                  <Table.Td key={c} style={{ maxWidth: 320 }}>
                    {value === undefined ? (
                      <Text size="sm" c="dimmed" aria-label="empty">
                        —
                      </Text>
                    ) : (
                      <Text size="sm" lineClamp={2} title={text.length > 60 ? text : undefined} ff={typeof value === 'string' ? undefined : 'monospace'}>
                        {text}
                      </Text>
                    )}
                  </Table.Td>
                );
              })}
              {actions && (
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {onEdit && (
                      <Tooltip label={disabledReason ?? `Edit row ${row.id}`} withArrow>
                        <ActionIcon variant="subtle" aria-label={`Edit row ${row.id}`} disabled={!!disabledReason} onClick={() => onEdit(row)}>
                          <IconPencil size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    {onDelete && (
                      <Tooltip label={disabledReason ?? `Delete row ${row.id}`} withArrow>
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete row ${row.id}`} disabled={!!disabledReason} onClick={() => onDelete(row)}>
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}
