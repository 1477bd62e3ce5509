import { Alert, Anchor, Badge, Button, Code, Grid, Group, Pagination, Paper, Skeleton, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp, IconGitCommit } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Commit, Context } from '../../../../shared/projects.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { commitQueries } from '../../../data/commits.ts';
import { DIFF_ROW_LIMIT, rowQueries } from '../../../data/rows.ts';
import { contextColumns, diffRows, diffSummary, formatValue, plural, shortHash } from '../model.ts';
import { CommitGraph, formatTime } from './commit-graph.tsx';
import { PermissionGate } from '../../../components/permission-gate.tsx';
import { RollbackModal } from './rollback-modal.tsx';
import { RowsTable } from './rows-table.tsx';

const PAGE = 20;

/** Whether `hash` descends from `ancestor` (following prev links). */
function descendsFrom(byHash: Map<string, Commit>, hash: string, ancestor: string): boolean {
  let at = byHash.get(hash)?.prev_commit_hash ?? null;
  while (at) {
    if (at === ancestor) return true;
    at = byHash.get(at)?.prev_commit_hash ?? null;
  }
  return false;
}

function CommitRows({ project, context, commit }: { project: string; context: Context; commit: Commit }) {
  const [page, setPage] = useState(1);
  // Another commit starts at its first page (state adjusted while rendering, not in an effect).
  const [pageOf, setPageOf] = useState(commit.commit_hash);
  if (pageOf !== commit.commit_hash) {
    setPageOf(commit.commit_hash);
    setPage(1);
  }
  const rows = useQuery(rowQueries.page(project, context.name, commit.commit_hash, (page - 1) * PAGE, PAGE));
  if (rows.isPending) return <Skeleton height={120} />;
  if (rows.isError) return <ErrorAlert error={rows.error} onRetry={() => void rows.refetch()} />;
  if (rows.data.count === 0) return <Text size="sm">No rows at this commit.</Text>;
  const pages = Math.ceil(rows.data.count / PAGE);
  return (
    <Stack gap="xs">
      <RowsTable rows={rows.data.logs} columns={contextColumns(context, rows.data.logs)} caption={`Rows at commit ${shortHash(commit.commit_hash)} (read-only)`} />
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" getControlProps={(c) => ({ 'aria-label': `${c} page` })} />}
    </Stack>
  );
}

function CommitChanges({ project, context, commit }: { project: string; context: Context; commit: Commit }) {
  const at = useQuery(rowQueries.every(project, context.name, commit.commit_hash));
  const before = useQuery({ ...rowQueries.every(project, context.name, commit.prev_commit_hash ?? 'none'), enabled: !!commit.prev_commit_hash });
  const diff = useMemo(() => {
    if (!at.data || (commit.prev_commit_hash && !before.data)) return null;
    return diffRows(commit.prev_commit_hash ? before.data! : [], at.data);
  }, [at.data, before.data, commit.prev_commit_hash]);
  if (at.isPending || (commit.prev_commit_hash && before.isPending)) return <Skeleton height={80} />;
  if (at.isError || before.isError) return <ErrorAlert error={at.error ?? before.error} />;
  if (at.data === null || (commit.prev_commit_hash && before.data === null))
    return <Text size="sm">Too many rows to compare here (over {DIFF_ROW_LIMIT.toLocaleString()}).</Text>;
  if (!diff) return null;
  const lines = [
    ...diff.added.map((r) => ({ kind: 'Added', color: 'blue', id: r.id, text: JSON.stringify(r.entries) })),
    ...diff.changed.map(({ before: b, after }) => ({
      kind: 'Changed',
      color: 'grape',
      id: after.id,
      text: Object.keys({ ...b.entries, ...after.entries })
        .filter((k) => JSON.stringify(b.entries[k]) !== JSON.stringify(after.entries[k]))
        .map((k) => `${k}: ${formatValue(b.entries[k]) || '∅'} → ${formatValue(after.entries[k]) || '∅'}`)
        .join(', '),
    })),
    ...diff.removed.map((r) => ({ kind: 'Removed', color: 'red', id: r.id, text: JSON.stringify(r.entries) })),
  ].sort((a, b) => a.id - b.id);
  return (
    <Stack gap="xs">
      <Text size="sm">
        {commit.prev_commit_hash ? `Against ${shortHash(commit.prev_commit_hash)}: ` : 'First commit: '}
        {diffSummary(diff)}.
      </Text>
      {lines.length > 0 && (
        <Table withTableBorder verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w={100}>
                Change
              </Table.Th>
              <Table.Th scope="col" w={60}>
                Row
              </Table.Th>
              <Table.Th scope="col">Values</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.slice(0, 100).map((l) => (
              <Table.Tr key={`${l.kind}-${l.id}`}>
                <Table.Td>
                  <Badge size="sm" variant="light" color={l.color}>
                    {l.kind}
                  </Badge>
                </Table.Td>
                <Table.Td ff="monospace">{l.id}</Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" lineClamp={2}>
                    {l.text}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {lines.length > 100 && (
        <Text size="xs" c="dimmed">
          Showing the first 100 of {lines.length} changes.
        </Text>
      )}
    </Stack>
  );
}

/** The History tab: the commit graph, and for the chosen commit its rows, its changes and a rollback. */
export function HistoryPanel({ project, context, cannotWrite }: { project: string; context: Context; cannotWrite: string | null }) {
  const commits = useQuery(commitQueries.list(project, context.name));
  const [selected, setSelected] = useState<string | null>(null);
  const [rollingTo, setRollingTo] = useState<Commit | null>(null);
  const byHash = useMemo(() => new Map((commits.data ?? []).map((c) => [c.commit_hash, c])), [commits.data]);
  const head = commits.data?.find((c) => c.is_head) ?? null;
  const chosen = (selected && byHash.get(selected)) || head || commits.data?.[0] || null;

  if (commits.isPending) return <Skeleton height={240} />;
  if (commits.isError) return <ErrorAlert error={commits.error} onRetry={() => void commits.refetch()} />;
  if (commits.data.length === 0)
    return (
      <EmptyState
        icon={<IconGitCommit size={24} />}
        title="No commits yet"
        description="Commit the rows to save a version you can come back to. Each commit records only what changed."
      />
    );

  const forward = !!(chosen && head && descendsFrom(byHash, chosen.commit_hash, head.commit_hash));
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder p="xs" radius="md">
          <Title order={2} size="h5" mb="xs" px={4}>
            Commit graph
          </Title>
          <Text size="xs" c="dimmed" px={4} mb="xs">
            {plural(commits.data.length, 'commit')} · HEAD {head ? <Code>{shortHash(head.commit_hash)}</Code> : 'none'}
            {context.uncommitted_changes > 0 && ` · ${plural(context.uncommitted_changes, 'uncommitted change')}`}
          </Text>
          <div style={{ maxHeight: 560, overflowY: 'auto' }}>
            <CommitGraph commits={commits.data} selected={chosen?.commit_hash ?? null} onSelect={setSelected} />
          </div>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        {chosen && (
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="commit-details-title">
            <Stack gap="sm">
              <Group justify="space-between" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Title order={2} size="h4" id="commit-details-title">
                      {chosen.commit_message || 'No message'}
                    </Title>
                    {chosen.is_head && (
                      <Badge color="teal.9" variant="filled">
                        HEAD
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                    <Code>{chosen.commit_hash}</Code>
                  </Text>
                  <Text size="sm" c="dimmed">
                    {formatTime(chosen.created_at)} · {plural(chosen.row_count, 'row')}
                  </Text>
                  <Text size="sm">
                    {chosen.prev_commit_hash ? (
                      <>
                        Follows{' '}
                        <Anchor component="button" type="button" onClick={() => setSelected(chosen.prev_commit_hash)}>
                          {shortHash(chosen.prev_commit_hash)}
                        </Anchor>
                      </>
                    ) : (
                      'First commit'
                    )}
                    {chosen.next_commit_hashes.length > 0 && (
                      <>
                        {' · '}
                        {chosen.next_commit_hashes.length > 1 ? 'Branches into ' : 'Followed by '}
                        {chosen.next_commit_hashes.map((h, i) => (
                          <span key={h}>
                            {i > 0 && ', '}
                            <Anchor component="button" type="button" onClick={() => setSelected(h)}>
                              {shortHash(h)}
                            </Anchor>
                          </span>
                        ))}
                      </>
                    )}
                  </Text>
                </Stack>
                {(!chosen.is_head || context.uncommitted_changes > 0) && (
                  <PermissionGate reason={cannotWrite}>
                    <Button
                      variant="light"
                      disabled={!!cannotWrite}
                      leftSection={forward ? <IconArrowForwardUp size={16} aria-hidden /> : <IconArrowBackUp size={16} aria-hidden />}
                      onClick={() => setRollingTo(chosen)}
                    >
                      {chosen.is_head ? 'Restore this commit' : forward ? 'Roll forward to this commit' : 'Roll back to this commit'}
                    </Button>
                  </PermissionGate>
                )}
              </Group>
              {chosen.is_head && context.uncommitted_changes > 0 && (
                <Alert color="yellow" variant="light">
                  The current rows have {plural(context.uncommitted_changes, 'uncommitted change')} since this commit.
                </Alert>
              )}
              <Tabs defaultValue="rows" keepMounted={false}>
                <Tabs.List>
                  <Tabs.Tab value="rows">Rows at this commit</Tabs.Tab>
                  <Tabs.Tab value="changes">Changes in this commit</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="rows" pt="sm">
                  <CommitRows project={project} context={context} commit={chosen} />
                </Tabs.Panel>
                <Tabs.Panel value="changes" pt="sm">
                  <CommitChanges project={project} context={context} commit={chosen} />
                </Tabs.Panel>
              </Tabs>
            </Stack>
          </Paper>
        )}
      </Grid.Col>
      <RollbackModal
        project={project}
        context={context}
        target={rollingTo}
        forward={!!(rollingTo && head && descendsFrom(byHash, rollingTo.commit_hash, head.commit_hash))}
        onClose={() => setRollingTo(null)}
        onDone={(hash) => setSelected(hash)}
      />
    </Grid>
  );
}
