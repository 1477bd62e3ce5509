import { Group, Skeleton, Stack, Table, TextInput, VisuallyHidden } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorAlert } from './error-alert.tsx';

/** The pieces every list page and panel is made of, so that they all search, load, fail and act alike. */

/** The filter field above a list. */
export function SearchInput({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maw={360}
    />
  );
}

/** Grey bars where the rows will be. With `label`, screen readers hear that the list is loading. */
export function ListSkeleton({ rows, height, label }: { rows: number; height: number; label?: string }) {
  return (
    <Stack gap="sm" aria-busy={label ? 'true' : undefined} aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} radius="md" />
      ))}
    </Stack>
  );
}

/**
 * A list's states in one place: `loading` while the query is pending, the error with a retry when it
 * failed, `empty` (what belongs here and how to add the first one) when it holds nothing, else the list.
 */
export function QueryList<T>({
  query,
  loading,
  empty,
  errorTitle,
  children,
}: {
  query: UseQueryResult<T[]>;
  loading: ReactNode;
  empty: ReactNode;
  errorTitle?: string;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return loading;
  if (query.isError) return <ErrorAlert error={query.error} onRetry={() => void query.refetch()} title={errorTitle} />;
  if (query.data.length === 0) return empty;
  return children(query.data);
}

/** A table's column heads; with `actions`, a last column (named for screen readers) for each row's buttons. */
export function TableHead({ columns, actions = false }: { columns: readonly ReactNode[]; actions?: boolean }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c, i) => (
          <Table.Th key={i}>{c}</Table.Th>
        ))}
        {actions && (
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        )}
      </Table.Tr>
    </Table.Thead>
  );
}

/**
 * A table's box that scrolls sideways below `minWidth`. A native one (`type="native"`): Mantine's default
 * ScrollArea measured its content on a timer after mount, a forced layout on every list's first screen. The
 * browser scrolls it to a focused row action (Chromium and Firefox also let the keyboard reach the box itself
 * when nothing in it takes the focus). It is positioned, as ScrollArea's root was: the visually hidden labels
 * in a table's cells are absolutely positioned, and without a positioned box around them they escaped its
 * clip and made a narrow window scroll sideways to the table's full width.
 */
export function TableScroll({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" style={NATIVE_SCROLL}>
      {children}
    </Table.ScrollContainer>
  );
}

const NATIVE_SCROLL = { position: 'relative' } as const;

/** A list as a striped table that scrolls sideways below `minWidth` (TableScroll); the rows are the children. */
export function ListTable({
  columns,
  actions,
  minWidth,
  label,
  caption,
  children,
}: {
  columns: readonly ReactNode[];
  actions?: boolean;
  minWidth: number;
  /** The table's accessible name where no heading or caption names it. */
  label?: string;
  caption?: string;
  children: ReactNode;
}) {
  return (
    <TableScroll minWidth={minWidth}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-label={label}>
        {caption && <Table.Caption>{caption}</Table.Caption>}
        <TableHead columns={columns} actions={actions} />
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </TableScroll>
  );
}

/** A row's action buttons, in the last column, side by side at its end. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Table.Td>
      <Group gap={4} wrap="nowrap" justify="flex-end">
        {children}
      </Group>
    </Table.Td>
  );
}
