import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Collapse,
  Group,
  NativeSelect,
  Paper,
  Popover,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconChevronDown, IconChevronRight, IconColumns, IconPlus, IconTable, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
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
import {
  andFilters,
  fieldRef,
  formatMetric,
  groupKey,
  ID_SORT,
  sortingOf,
  isNumericType,
  literal,
  loadColumns,
  missingCond,
  moveSort,
  nullCond,
  saveColumns,
  sortsFromParams,
  sortToParam,
  type Direction,
  type Sort,
} from './model.ts';

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

const sortLabel = (field: string) => (field === ID_SORT ? 'id' : field);

/**
 * The sort keys in priority order, changed without a mouse: add a key, set its direction, move it up or
 * down, remove it. The same state as the column headers (shift+click adds a key there).
 */
function SortMenu({ names, sort, onChange }: { names: string[]; sort: Sort[]; onChange: (sort: Sort[]) => void }) {
  const choices = [ID_SORT, ...names.filter((n) => n !== ID_SORT)].filter((n) => !sort.some((s) => s.field === n)).map((n) => ({ value: n, label: sortLabel(n) }));
  // Keyboard users keep their place: after a change (once the URL has it), focus goes to the same
  // control of the moved key, or to a neighbour's remove button, or to "Add a sort key".
  const dropdown = useRef<HTMLDivElement>(null);
  const addInput = useRef<HTMLInputElement>(null);
  const refocus = useRef<{ target: string; when: string } | null>(null);
  const current = JSON.stringify(sort);
  useEffect(() => {
    const want = refocus.current;
    if (!want || want.when !== current) return;
    refocus.current = null;
    const el = want.target === 'add' ? addInput.current : dropdown.current?.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(want.target)}"]`);
    el?.focus();
  }, [current]);
  const change = (next: Sort[], target: string) => {
    refocus.current = { target, when: JSON.stringify(next) };
    onChange(next);
  };
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconArrowsSort size={16} aria-hidden />}>
          Sort{sort.length ? ` (${sort.length})` : ''}
        </Button>
      </Popover.Target>
      <Popover.Dropdown w="min(380px, calc(100vw - 32px))" ref={dropdown}>
        <Text fw={600} size="sm" id="sort-keys-title">
          Sort keys, first one first
        </Text>
        {sort.length === 0 ? (
          <Text size="sm" c="dimmed" mt={4}>
            None: newest logs first.
          </Text>
        ) : (
          <Stack gap={6} mt="xs" component="ol" aria-labelledby="sort-keys-title" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {sort.map((s, i) => {
              const label = sortLabel(s.field);
              return (
                <Group key={s.field} component="li" gap={6} wrap="nowrap">
                  <Text size="sm" fw={700} w={16} ta="right" aria-hidden>
                    {i + 1}
                  </Text>
                  <Text size="sm" style={{ flex: 1, minWidth: 0, wordBreak: 'break-all' }}>
                    {label}
                  </Text>
                  <NativeSelect
                    size="xs"
                    aria-label={`Direction of ${label}`}
                    value={s.direction}
                    data={[
                      { value: 'ascending', label: 'Ascending' },
                      { value: 'descending', label: 'Descending' },
                    ]}
                    onChange={(e) => onChange(sort.map((t) => (t.field === s.field ? { field: t.field, direction: e.currentTarget.value as Direction } : t)))}
                  />
                  {(['up', 'down'] as const).map((way) => {
                    // At the edge the button stays focusable (aria-disabled) so focus is not lost after a move.
                    const edge = way === 'up' ? i === 0 : i === sort.length - 1;
                    return (
                      <ActionIcon
                        key={way}
                        variant="subtle"
                        aria-label={`Move ${label} ${way}`}
                        aria-disabled={edge || undefined}
                        data-disabled={edge || undefined}
                        data-focus-key={`${way}:${s.field}`}
                        onClick={() => !edge && change(moveSort(sort, s.field, way === 'up' ? -1 : 1), `${way}:${s.field}`)}
                      >
                        {way === 'up' ? <IconArrowUp size={16} aria-hidden /> : <IconArrowDown size={16} aria-hidden />}
                      </ActionIcon>
                    );
                  })}
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${label}`}
                    data-focus-key={`remove:${s.field}`}
                    onClick={() => {
                      const neighbour = sort[i + 1] ?? sort[i - 1];
                      change(
                        sort.filter((t) => t.field !== s.field),
                        neighbour ? `remove:${neighbour.field}` : 'add',
                      );
                    }}
                  >
                    <IconX size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              );
            })}
          </Stack>
        )}
        <Group mt="sm" gap="xs" align="flex-end" wrap="nowrap">
          <Select
            label="Add a sort key"
            placeholder="Field"
            data={choices}
            value={null}
            onChange={(v) => v && change([...sort, { field: v, direction: 'ascending' }], 'add')}
            ref={addInput}
            searchable
            size="xs"
            style={{ flex: 1 }}
            comboboxProps={{ withinPortal: false }}
          />
          <Button size="xs" variant="subtle" disabled={sort.length === 0} onClick={() => onChange([])}>
            Newest first
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

interface GroupItem {
  /** Tells groups apart by their JSON value (1 and "1" are two groups). */
  id: string;
  label: ReactNode;
  /** The group's own condition (ANDed with the explorer's filter). */
  cond: string | null;
  caption: string;
  /** Count and mean from the per-group metric, or undefined when this group must ask for its own. */
  shared?: { count: number | undefined; mean: number | undefined };
}

/** One group: its count and mean, opened on demand to show its logs. */
function GroupRow(props: {
  item: GroupItem;
  panel: string;
  isOpen: boolean;
  onToggle: () => void;
  project: string;
  context: string;
  filter: string;
  metricField: string | null;
  metricPending: boolean;
  logsWindow: GroupListProps['logsWindow'];
}) {
  const { item, panel, isOpen, onToggle, project, context, filter, metricField, metricPending, logsWindow } = props;
  const groupFilter = item.cond === null ? '' : andFilters(filter, item.cond);
  const own = !item.shared && item.cond !== null;
  const count = useQuery({ ...rowQueries.query(project, context, { filter: groupFilter, limit: 1 }), enabled: own });
  const mean = useQuery({ ...rowQueries.metric(project, context, 'mean', metricField ? [metricField] : [], groupFilter), enabled: own && !!metricField });
  const n = item.shared ? item.shared.count : count.data?.count;
  const m = item.shared ? item.shared.mean : (mean.data?.[metricField ?? ''] as number | undefined);
  const meanPending = item.shared ? metricPending : mean.isPending;
  return (
    <Paper withBorder p={0} role="listitem">
      <UnstyledButton w="100%" p="sm" aria-expanded={isOpen} aria-controls={panel} disabled={item.cond === null} onClick={onToggle}>
        <Group gap="sm" wrap="wrap">
          {isOpen ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
          {item.label}
          <Badge variant="light" tt="none">
            {n === undefined ? (count.isError ? '—' : '…') : plural(n, 'log')}
          </Badge>
          {metricField && (
            <Text size="sm" c="dimmed">
              mean {metricField}: {meanPending ? '…' : formatMetric(m)}
            </Text>
          )}
        </Group>
      </UnstyledButton>
      <Collapse expanded={isOpen} id={panel}>
        {isOpen && item.cond !== null && <div style={{ padding: '0 8px 8px' }}>{logsWindow(groupFilter, item.caption)}</div>}
      </Collapse>
    </Paper>
  );
}

const valueText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The filtered logs grouped by a field's values (strings, numbers, lists and dicts alike, compared by
 * their JSON value), then a group of stored nulls and one of the logs without the field, "(no value)":
 * each with its count and one metric, opened on demand.
 */
function GroupList({ project, context, filter, field, metricField, logsWindow }: GroupListProps) {
  const values = useQuery(rowQueries.groups(project, context, field, filter));
  const counts = useQuery(rowQueries.metric(project, context, 'count', [field], filter, field));
  const means = useQuery(rowQueries.metric(project, context, 'mean', metricField ? [metricField] : [], filter, field));
  const ref = fieldRef(field);
  const noValue = missingCond(field);
  const isNull = nullCond(field);
  const missing = useQuery(rowQueries.query(project, context, { filter: andFilters(filter, noValue), limit: 1 }));
  const nulls = useQuery(rowQueries.query(project, context, { filter: andFilters(filter, isNull), limit: 1 }));
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const id = useId();
  if (values.isPending || missing.isPending || nulls.isPending) return <Skeleton height={160} aria-label="Loading groups" />;
  const failed = [values, missing, nulls].find((q) => q.isError);
  if (failed) return <ErrorAlert error={failed.error} onRetry={() => void Promise.all([values.refetch(), missing.refetch(), nulls.refetch()])} />;
  const countOf = (counts.data?.[field] ?? {}) as Record<string, { count?: number }>;
  const meanOf = (metricField ? (means.data?.[metricField] ?? {}) : {}) as Record<string, { mean?: number }>;
  const shown = values.data!.slice(0, MAX_GROUPS);
  // The metric route keys groups by Python's str(): 1 and "1" share a key, so such groups count themselves.
  const keys = values.data!.map(groupKey);
  const items: GroupItem[] = shown.map((value, i) => {
    const key = keys[i]!;
    const shared = keys.indexOf(key) === keys.lastIndexOf(key);
    return {
      id: `v${JSON.stringify(value)}`,
      label: (
        <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
          {field} = {valueText(value)}
        </Text>
      ),
      cond: literal(value) === null ? null : `${ref} == ${literal(value)}`,
      caption: `Logs where ${field} is ${valueText(value)}`,
      shared: shared ? { count: countOf[key]?.count, mean: meanOf[key]?.mean } : undefined,
    };
  });
  const special = (count: number | undefined, item: Omit<GroupItem, 'label'>, text: string, hint: string): GroupItem[] =>
    count
      ? [
          {
            ...item,
            label: (
              <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
                {text}{' '}
                <Text span size="sm" c="dimmed" fw={400}>
                  {hint}
                </Text>
              </Text>
            ),
          },
        ]
      : [];
  items.push(
    ...special(nulls.data!.count, { id: 'null', cond: isNull, caption: `Logs where ${field} is null` }, `${field} = null`, '(stored as null)'),
    ...special(missing.data!.count, { id: 'missing', cond: noValue, caption: `Logs without ${field}` }, '(no value)', `logs without ${field}`),
  );
  if (items.length === 0) return <Text c="dimmed">No log matches this filter.</Text>;
  return (
    <Stack gap="xs" aria-label={`Groups by ${field}`} role="list">
      {values.data!.length > MAX_GROUPS && (
        <Text size="sm" c="dimmed">
          The first {MAX_GROUPS} of {values.data!.length} values; narrow the filter to see others.
        </Text>
      )}
      {items.map((item, i) => (
        <GroupRow
          key={item.id}
          item={item}
          panel={`${id}-${i}`}
          isOpen={open.has(item.id)}
          onToggle={() =>
            setOpen((prev) => {
              const next = new Set(prev);
              if (next.has(item.id)) next.delete(item.id);
              else next.add(item.id);
              return next;
            })
          }
          project={project}
          context={context}
          filter={filter}
          metricField={metricField}
          metricPending={means.isPending}
          logsWindow={logsWindow}
        />
      ))}
    </Stack>
  );
}

/**
 * The context's logs, explored: a filter (in the URL), sorting by several keys (column headers, shift+click
 * or the Sort menu; in the URL), grouping by a field with counts and a mean (dict and list values, nulls
 * and logs without the field are groups too), columns chosen from the context's fields (remembered for the tab),
 * a summary of the numeric columns, and each log opened to see and edit it. Reads go through the logs
 * API, paged by the server and rendered as a virtual list.
 */
export function LogExplorer({ project, context, cannotWrite }: { project: string; context: Context; cannotWrite: string | null }) {
  const [params, setParams] = useSearchParams();
  const filter = params.get('filter') ?? '';
  // `sort=a:asc&sort=b:desc`: priority in order (a single `sort=score:desc` is the old form).
  const sortParams = params.getAll('sort');
  const sort = sortsFromParams(sortParams);
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
  const onSort = useCallback(
    (next: Sort[]) =>
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev);
          p.delete('sort');
          for (const s of next) p.append('sort', sortToParam(s));
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );

  const fields = useQuery(rowQueries.fields(project, context.name));
  const first = useQuery(rowQueries.query(project, context.name, { filter, sorting: sortingOf(sort), offset: 0, limit: PAGE_SIZE }));
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
      key={`${f}\u0000${sortParams.join('\u0000')}`}
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
          <SortMenu names={names} sort={sort} onChange={onSort} />
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
