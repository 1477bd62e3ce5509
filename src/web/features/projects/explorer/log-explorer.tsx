import { Badge, Button, Checkbox, Collapse, Group, Paper, Popover, ScrollArea, Select, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconColumns, IconPlus, IconTable } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { Context, Log } from '../../../../shared/projects.ts';
import { confirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { GatedButton } from '../../../components/gated-button.tsx';
import { rowQueries, type Fields } from '../../../data/rows.ts';
import { useDeleteRow } from '../api.ts';
import { RowEditorModal } from '../components/row-editor-modal.tsx';
import { columnsOf, plural } from '../model.ts';
import { FilterBox } from './filter-box.tsx';
import { problemFromError } from '../../../lib/filter-problem.ts';
import { LogsWindow, PAGE_SIZE } from './logs-window.tsx';
import { andFilters, fieldRef, formatMetric, groupKey, isNumericType, literal, loadColumns, saveColumns, sortFromParam, sortToParam, type Sort } from './model.ts';

const DEFAULT_COLUMNS = 12;
const logsCount = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'log' : 'logs'}`;
const MAX_GROUPS = 50;
const SUMMARY = ['count', 'mean', 'min', 'max'] as const;

function ColumnsPicker({ names, fields, chosen, onChange }: { names: string[]; fields: Fields; chosen: string[]; onChange: (columns: string[] | null) => void }) {
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
          Columns ({chosen.length}/{names.length})
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw="min(340px, calc(100vw - 32px))">
        <Checkbox.Group label="Columns to show" value={chosen} onChange={(v) => onChange(names.filter((n) => v.includes(n)))}>
          <ScrollArea.Autosize mah={320} mt="xs" type="auto">
            <Stack gap={6} pr="sm">
              {names.map((n) => (
                <Checkbox
                  key={n}
                  value={n}
                  label={
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" style={{ wordBreak: 'break-all' }}>
                        {n}
                      </Text>
                      <Badge size="xs" variant="light" color="gray" tt="none">
                        {fields[n]?.data_type ?? 'Any'}
                      </Badge>
                      {fields[n]?.mutable === false && (
                        <Badge size="xs" variant="outline" color="gray" tt="none">
                          immutable
                        </Badge>
                      )}
                    </Group>
                  }
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Checkbox.Group>
        <Group mt="sm" gap="xs">
          <Button size="xs" variant="subtle" onClick={() => onChange(names)}>
            All
          </Button>
          <Button size="xs" variant="subtle" onClick={() => onChange(null)}>
            Default
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

/** count/mean/min/max of the numeric columns shown, over the filtered logs (the metric route). */
function Summary({ project, context, filter, columns }: { project: string; context: string; filter: string; columns: string[] }) {
  const count = useQuery(rowQueries.metric(project, context, 'count', columns, filter));
  const mean = useQuery(rowQueries.metric(project, context, 'mean', columns, filter));
  const min = useQuery(rowQueries.metric(project, context, 'min', columns, filter));
  const max = useQuery(rowQueries.metric(project, context, 'max', columns, filter));
  const results = { count, mean, min, max };
  if (columns.length === 0) return null;
  return (
    // Its own horizontal scroll on narrow screens, reachable by keyboard.
    <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Summary">
      <Table miw={Math.max(280, 90 + columns.length * 110)} withTableBorder verticalSpacing={4} fz="sm" aria-label="Summary of numeric columns over the filtered logs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w={90}>
              Summary
            </Table.Th>
            {columns.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {SUMMARY.map((m) => (
            <Table.Tr key={m}>
              <Table.Th scope="row" fw={500}>
                {m}
              </Table.Th>
              {columns.map((c) => (
                <Table.Td key={c} ff="monospace">
                  {results[m].isPending ? <Skeleton height={10} width={40} aria-label="Loading" /> : results[m].isError ? '—' : formatMetric(results[m].data?.[c])}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

interface GroupListProps {
  project: string;
  context: string;
  filter: string;
  field: string;
  metricField: string | null;
  logsWindow: (filter: string, caption: string) => ReactNode;
}

/** The filtered logs grouped by a field's values: each group with its count and one metric, opened on demand. */
function GroupList({ project, context, filter, field, metricField, logsWindow }: GroupListProps) {
  const values = useQuery(rowQueries.groups(project, context, field, filter));
  const counts = useQuery(rowQueries.metric(project, context, 'count', [field], filter, field));
  const means = useQuery(rowQueries.metric(project, context, 'mean', metricField ? [metricField] : [], filter, field));
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const id = useId();
  if (values.isPending) return <Skeleton height={160} aria-label="Loading groups" />;
  if (values.isError) return <ErrorAlert error={values.error} onRetry={() => void values.refetch()} />;
  if (values.data.length === 0) return <Text c="dimmed">No log has a value for {field}.</Text>;
  const countOf = (counts.data?.[field] ?? {}) as Record<string, { count?: number }>;
  const meanOf = (metricField ? (means.data?.[metricField] ?? {}) : {}) as Record<string, { mean?: number }>;
  const shown = values.data.slice(0, MAX_GROUPS);
  return (
    <Stack gap="xs" aria-label={`Groups by ${field}`} role="list">
      {values.data.length > MAX_GROUPS && (
        <Text size="sm" c="dimmed">
          The first {MAX_GROUPS} of {values.data.length} groups; narrow the filter to see others.
        </Text>
      )}
      {shown.map((value, i) => {
        const key = groupKey(value);
        const cond = literal(value);
        const isOpen = open.has(key);
        const n = countOf[key]?.count;
        const mean = meanOf[key]?.mean;
        const panel = `${id}-${i}`;
        return (
          <Paper key={key} withBorder p={0} role="listitem">
            <UnstyledButton
              w="100%"
              p="sm"
              aria-expanded={isOpen}
              aria-controls={panel}
              disabled={cond === null}
              onClick={() =>
                setOpen((prev) => {
                  const next = new Set(prev);
                  if (next.has(key)) next.delete(key);
                  else next.add(key);
                  return next;
                })
              }
            >
              <Group gap="sm" wrap="wrap">
                {isOpen ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
                <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
                  {field} = {typeof value === 'string' ? value : JSON.stringify(value)}
                </Text>
                <Badge variant="light" tt="none">
                  {n === undefined ? '…' : plural(n, 'log')}
                </Badge>
                {metricField && (
                  <Text size="sm" c="dimmed">
                    mean {metricField}: {means.isPending ? '…' : formatMetric(mean)}
                  </Text>
                )}
              </Group>
            </UnstyledButton>
            <Collapse expanded={isOpen} id={panel}>
              {isOpen && cond !== null && (
                <div style={{ padding: '0 8px 8px' }}>{logsWindow(andFilters(filter, `${fieldRef(field)} == ${cond}`), `Logs where ${field} is ${key}`)}</div>
              )}
            </Collapse>
          </Paper>
        );
      })}
    </Stack>
  );
}

/**
 * The context's logs, explored: a filter (in the URL), sorting by column headers (in the URL), grouping
 * by a field with counts and a mean, columns chosen from the context's fields (remembered for the tab),
 * a summary of the numeric columns, and each log opened to see and edit it. Reads go through the logs
 * API, paged by the server and rendered as a virtual list.
 */
export function LogExplorer({ project, context, cannotWrite }: { project: string; context: Context; cannotWrite: string | null }) {
  const [params, setParams] = useSearchParams();
  const filter = params.get('filter') ?? '';
  const sort = sortFromParam(params.get('sort'));
  const groupBy = params.get('group') || null;
  const groupMetric = params.get('metric') || null;
  const setParam = useCallback(
    (name: string, value: string | null) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const applyFilter = useCallback((f: string) => setParam('filter', f.trim() ? f : null), [setParam]);
  const onSort = (s: Sort | null) => setParam('sort', s ? sortToParam(s) : null);

  const fields = useQuery(rowQueries.fields(project, context.name));
  const sorting = sort ? { [sort.field]: sort.direction } : null;
  const first = useQuery(rowQueries.query(project, context.name, { filter, sorting, offset: 0, limit: PAGE_SIZE }));
  const [stored, setStored] = useState(() => loadColumns(project, context.name));
  // The one column order of a context (as on the History tab): unique keys, counters, then the fields in order.
  const { unique_keys, auto_counting } = context;
  const names = useMemo(
    () => columnsOf([], [...unique_keys, ...Object.keys(auto_counting), ...Object.keys(fields.data ?? {})]),
    [fields.data, unique_keys, auto_counting],
  );
  const columns = (stored ?? names.slice(0, DEFAULT_COLUMNS)).filter((c) => names.includes(c));
  const types = Object.fromEntries(Object.entries(fields.data ?? {}).map(([n, f]) => [n, f.data_type]));
  const numeric = columns.filter((c) => isNumericType(types[c]));
  const allNumeric = names.filter((c) => isNumericType(types[c]));

  const [editing, setEditing] = useState<Log | null | undefined>(undefined);
  const remove = useDeleteRow(project, context.name);
  const onDelete = (row: Log) =>
    confirmDelete({
      title: `Delete row ${row.id}?`,
      message: context.is_versioned
        ? 'The row is removed now; committed versions still have it, so a rollback can bring it back.'
        : 'The row is removed for good: this context is not versioned.',
      confirmLabel: 'Delete row',
      onConfirm: () => remove.mutate(row.id),
    });

  const problem = problemFromError(first.error, filter);
  const logsWindow = (f: string, caption: string, maxHeight = 560) => (
    <LogsWindow
      key={`${f}\u0000${params.get('sort') ?? ''}`}
      project={project}
      context={context.name}
      filter={f}
      sort={sort}
      onSort={onSort}
      columns={columns}
      types={types}
      caption={caption}
      maxHeight={maxHeight}
      onOpen={(log) => setEditing(log)}
      onDelete={onDelete}
      disabledReason={cannotWrite}
    />
  );

  const addButton = (
    <GatedButton reason={cannotWrite} icon={<IconPlus size={16} aria-hidden />} onClick={() => setEditing(null)}>
      Add row
    </GatedButton>
  );
  const editor = (
    <RowEditorModal
      project={project}
      context={context}
      columns={names}
      fieldInfo={fields.data}
      readOnlyReason={cannotWrite}
      row={editing ?? null}
      opened={editing !== undefined}
      onClose={() => setEditing(undefined)}
    />
  );

  if (fields.isPending || (first.isPending && !first.data)) return <Skeleton height={240} aria-label="Loading rows" />;
  if (fields.isError) return <ErrorAlert error={fields.error} onRetry={() => void fields.refetch()} />;
  if (first.isError && !problem) return <ErrorAlert error={first.error} onRetry={() => void first.refetch()} />;
  if (!filter && first.data?.count === 0)
    return (
      <>
        <EmptyState
          icon={<IconTable size={24} />}
          title="No rows yet"
          description="Rows arrive from your assistants and scripts through the API, or add one here."
          action={addButton}
        />
        {editor}
      </>
    );

  const count = first.data?.count;
  return (
    <Stack gap="sm">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <FilterBox value={filter} onApply={applyFilter} serverProblem={problem} />
        <Group gap="sm" align="flex-end" wrap="wrap" mt={{ base: 0, sm: 25 }}>
          <ColumnsPicker
            names={names}
            fields={fields.data}
            chosen={columns}
            onChange={(c) => {
              setStored(c);
              saveColumns(project, context.name, c);
            }}
          />
          {addButton}
        </Group>
      </Group>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select label="Group by" placeholder="No grouping" data={names} value={groupBy} onChange={(v) => setParam('group', v)} clearable searchable w={200} size="sm" />
        {groupBy && allNumeric.length > 0 && (
          <Select
            label="Mean per group of"
            placeholder="No metric"
            data={allNumeric}
            value={groupMetric}
            onChange={(v) => setParam('metric', v)}
            clearable
            w={200}
            size="sm"
          />
        )}
        <Text size="sm" c="dimmed" aria-live="polite" role="status" ml="auto">
          {problem ? 'The filter has an error' : count === undefined ? '' : filter ? `${logsCount(count)} match` : logsCount(count)}
          {first.isFetching && first.data ? ' · updating…' : ''}
        </Text>
      </Group>
      {!problem && <Summary project={project} context={context.name} filter={filter} columns={numeric} />}
      {problem ? null : count === 0 ? (
        <Text c="dimmed">No log matches this filter.</Text>
      ) : groupBy ? (
        <GroupList
          project={project}
          context={context.name}
          filter={filter}
          field={groupBy}
          metricField={groupMetric && allNumeric.includes(groupMetric) ? groupMetric : null}
          logsWindow={(f, caption) => logsWindow(f, caption, 360)}
        />
      ) : (
        logsWindow(filter, `Rows of ${context.name}`)
      )}
      {editor}
    </Stack>
  );
}
