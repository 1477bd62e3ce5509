import { ActionIcon, Group, Skeleton, Table, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import type { Log } from '../../../../shared/projects.ts';
import { rowQueries } from '../../../data/rows.ts';
import { formatValue } from '../model.ts';
import { clickSort, ID_SORT, sortingOf, type Sort } from './model.ts';

/** Logs per request: the server pages (offset/limit), the table renders only the lines in view. */
export const PAGE_SIZE = 100;
// A line: 8 px padding, a 28 px action icon, 8 px padding and a 1 px border (rows must not grow past it).
const ROW_HEIGHT = 45;
const OVERSCAN = 10;

export interface WindowProps {
  project: string;
  context: string;
  filter: string;
  /** Sort keys in priority order (none: newest first). */
  sort: Sort[];
  onSort: (sort: Sort[]) => void;
  columns: string[];
  types: Record<string, string>;
  caption: string;
  maxHeight: number;
  onOpen: (log: Log) => void;
  onDelete?: (log: Log) => void;
  disabledReason?: string | null;
}

interface SortHeaderProps {
  column: string;
  label: string;
  type: string | undefined;
  sort: Sort[];
  onSort: (s: Sort[]) => void;
  width?: number;
}

/** A column header that sorts by it; shift+click adds it as a further key. The primary key has aria-sort. */
function SortHeader({ column, label, type, sort, onSort, width }: SortHeaderProps) {
  const index = sort.findIndex((s) => s.field === column);
  const mine = index >= 0 ? sort[index]!.direction : undefined;
  const Icon = mine === 'ascending' ? IconArrowUp : mine === 'descending' ? IconArrowDown : IconArrowsSort;
  const several = sort.length > 1 && mine !== undefined;
  return (
    <Table.Th scope="col" aria-sort={index === 0 ? mine : undefined} w={width} style={{ whiteSpace: 'nowrap' }}>
      <UnstyledButton
        // Shift+click must not select the header's text.
        onMouseDown={(e) => {
          if (e.shiftKey) e.preventDefault();
        }}
        onClick={(e) => onSort(clickSort(sort, column, e.shiftKey))}
        fw={700}
        fz="sm"
        title={`${type ? `${label} (${type})` : label}: click to sort by it, shift+click to add it as a further sort key`}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, maxWidth: 220 }}
      >
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{label}</span>
        <Icon size={14} aria-hidden style={{ flexShrink: 0, opacity: mine ? 1 : 0.45 }} />
        {several && (
          <>
            <Text span fz={11} fw={700} c="blue" aria-hidden data-testid="sort-priority">
              {index + 1}
            </Text>
            <VisuallyHidden>
              , sort key {index + 1} of {sort.length}, {mine}
            </VisuallyHidden>
          </>
        )}
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * Logs of a filter as a table that fetches pages of PAGE_SIZE around what is in view and renders only
 * those lines (spacer rows keep the scroll height), so 100 000 logs scroll smoothly. Column headers sort
 * (server-side), shift+click adds further keys; a row opens on click or Enter.
 */
export function LogsWindow(props: WindowProps) {
  const { project, context, filter, sort, onSort, columns, types, caption, maxHeight, onOpen, onDelete, disabledReason } = props;
  const [scrollTop, setScrollTop] = useState(0);
  const [count, setCount] = useState<number | null>(null);
  const header = ROW_HEIGHT + 4;
  const viewport = maxHeight - header;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count ?? PAGE_SIZE, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);
  const pageIndexes: number[] = [];
  for (let p = Math.floor(first / PAGE_SIZE); p <= Math.floor(Math.max(first, last - 1) / PAGE_SIZE); p += 1) pageIndexes.push(p);
  if (!pageIndexes.includes(0)) pageIndexes.unshift(0); // the count and errors come from the first page
  const pages = useQueries({
    queries: pageIndexes.map((p) => ({
      ...rowQueries.query(project, context, { filter, sorting: sortingOf(sort), offset: p * PAGE_SIZE, limit: PAGE_SIZE }),
      placeholderData: undefined, // another page's rows must not stand in for these
    })),
  });
  const firstPage = pages[0]!;
  const known = firstPage.data?.count;
  if (known !== undefined && known !== count) setCount(known); // adjusted while rendering

  const byIndex = new Map<number, Log>();
  pages.forEach((q, i) => q.data?.logs.forEach((log, j) => byIndex.set(pageIndexes[i]! * PAGE_SIZE + j, log)));

  if (firstPage.isError && count === null) return null; // the explorer says what is wrong with the filter
  if (firstPage.isPending && count === null) return <Skeleton height={Math.min(maxHeight, 240)} aria-label="Loading logs" />;
  const total = count ?? 0;
  if (total === 0) return null;

  const actions = !!onDelete;
  const height = Math.min(maxHeight, header + total * ROW_HEIGHT + 2);
  const lines = [];
  for (let index = first; index < Math.min(last, total); index += 1) {
    const log = byIndex.get(index);
    if (!log) {
      lines.push(
        <Table.Tr key={`loading-${index}`} aria-rowindex={index + 2} style={{ height: ROW_HEIGHT }}>
          <Table.Td colSpan={columns.length + 1 + (actions ? 1 : 0)}>
            <Skeleton height={12} width="60%" aria-label="Loading" />
          </Table.Td>
        </Table.Tr>,
      );
      continue;
    }
    lines.push(
      <Table.Tr
        key={log.id}
        aria-rowindex={index + 2}
        tabIndex={0}
        aria-label={`Log ${log.id}`}
        onClick={() => onOpen(log)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && e.target === e.currentTarget) onOpen(log);
        }}
        style={{ height: ROW_HEIGHT, cursor: 'pointer' }}
      >
        <Table.Td>
          <Text size="sm" c="dimmed" ff="monospace">
            {log.id}
          </Text>
        </Table.Td>
        {columns.map((c) => {
          const value = log.entries[c];
          const text = formatValue(value);
          return (
            <Table.Td key={c} style={{ maxWidth: 260, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={text.length > 30 ? text : undefined}>
              {value === undefined ? (
                <Text span size="sm" c="dimmed" aria-label="empty">
                  —
                </Text>
              ) : (
                <Text span size="sm" ff={typeof value === 'string' ? undefined : 'monospace'}>
                  {text}
                </Text>
              )}
            </Table.Td>
          );
        })}
        {actions && (
          <Table.Td onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
            <Group gap={4} wrap="nowrap">
              <Tooltip label={disabledReason ?? `Edit row ${log.id}`} withArrow>
                <ActionIcon variant="subtle" aria-label={`Edit row ${log.id}`} disabled={!!disabledReason} onClick={() => onOpen(log)}>
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={disabledReason ?? `Delete row ${log.id}`} withArrow>
                <ActionIcon variant="subtle" color="red" aria-label={`Delete row ${log.id}`} disabled={!!disabledReason} onClick={() => onDelete(log)}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Table.Td>
        )}
      </Table.Tr>,
    );
  }
  const above = first * ROW_HEIGHT;
  const below = Math.max(0, (total - Math.min(last, total)) * ROW_HEIGHT);
  return (
    <div style={{ height, overflow: 'auto', position: 'relative' }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} data-testid="logs-window">
      <Table stickyHeader highlightOnHover verticalSpacing={8} withTableBorder aria-rowcount={total + 1} style={{ minWidth: Math.max(320, 80 + columns.length * 140) }}>
        <VisuallyHidden component="caption">{caption}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <SortHeader column={ID_SORT} label="id" type={undefined} sort={sort} onSort={onSort} width={80} />
            {columns.map((c) => (
              <SortHeader key={c} column={c} label={c} type={types[c]} sort={sort} onSort={onSort} />
            ))}
            {actions && (
              <Table.Th scope="col" w={90}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {above > 0 && <tr aria-hidden style={{ height: above }} />}
          {lines}
          {below > 0 && <tr aria-hidden style={{ height: below }} />}
        </Table.Tbody>
      </Table>
    </div>
  );
}
