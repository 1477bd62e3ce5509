import { Badge, Group, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMemo } from 'react';
import type { Commit } from '../../../../shared/projects.ts';
import { layoutGraph, plural, shortHash } from '../model.ts';

export const COMMIT_ROW = 64;
const LANE = 18;
const LANE_COLORS = ['blue', 'grape', 'teal', 'orange', 'pink', 'cyan', 'lime', 'indigo'];
const laneColor = (lane: number) => `var(--mantine-color-${LANE_COLORS[lane % LANE_COLORS.length]}-6)`;

export const formatTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The commit DAG, newest first: a drawing of the lanes (decorative) beside a list of commits that says
 * in words what the drawing shows (HEAD, where branches start, which commit each one follows).
 */
export function CommitGraph({ commits, selected, onSelect }: { commits: Commit[]; selected: string | null; onSelect: (hash: string) => void }) {
  const graph = useMemo(() => layoutGraph(commits), [commits]);
  const width = graph.lanes * LANE + 12;
  const x = (lane: number) => 12 + lane * LANE;
  const y = (row: number) => row * COMMIT_ROW + COMMIT_ROW / 2;
  return (
    <div style={{ position: 'relative' }}>
      <svg width={width} height={commits.length * COMMIT_ROW} style={{ position: 'absolute', left: 0, top: 0 }} aria-hidden focusable="false" data-testid="commit-graph">
        {graph.edges.map(({ from, to }) => {
          const d =
            from.lane === to.lane
              ? `M ${x(from.lane)} ${y(from.row)} L ${x(to.lane)} ${y(to.row)}`
              : `M ${x(from.lane)} ${y(from.row)} L ${x(from.lane)} ${y(to.row) - COMMIT_ROW / 2} L ${x(to.lane)} ${y(to.row)}`;
          return <path key={`${from.commit.commit_hash}-${to.commit.commit_hash}`} d={d} stroke={laneColor(from.lane)} strokeWidth={2} fill="none" />;
        })}
        {graph.nodes.map((n) =>
          n.commit.is_head ? (
            <g key={n.commit.commit_hash}>
              <circle cx={x(n.lane)} cy={y(n.row)} r={8} fill="var(--mantine-color-body)" stroke={laneColor(n.lane)} strokeWidth={3} />
              <circle cx={x(n.lane)} cy={y(n.row)} r={3.5} fill={laneColor(n.lane)} />
            </g>
          ) : (
            <circle key={n.commit.commit_hash} cx={x(n.lane)} cy={y(n.row)} r={5.5} fill={laneColor(n.lane)} stroke="var(--mantine-color-body)" strokeWidth={2} />
          ),
        )}
      </svg>
      <ul aria-label="Commits, newest first" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {graph.nodes.map(({ commit: c }) => {
          const isSelected = c.commit_hash === selected;
          const branches = c.next_commit_hashes.length;
          return (
            <li key={c.commit_hash} style={{ height: COMMIT_ROW }}>
              <UnstyledButton
                onClick={() => onSelect(c.commit_hash)}
                aria-current={isSelected ? 'true' : undefined}
                aria-label={`${c.commit_message || 'No message'}, commit ${shortHash(c.commit_hash)}${c.is_head ? ', HEAD' : ''}`}
                aria-describedby={`commit-meta-${c.commit_hash}`}
                h={COMMIT_ROW - 4}
                w="100%"
                style={{
                  padding: `0 8px 0 ${width + 4}px`,
                  borderRadius: 'var(--mantine-radius-sm)',
                  background: isSelected ? 'var(--mantine-color-default-hover)' : undefined,
                  outlineOffset: -2,
                  borderLeft: isSelected ? '3px solid var(--mantine-primary-color-filled)' : '3px solid transparent',
                }}
              >
                <Stack gap={2}>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" fw={500} truncate="end" style={{ minWidth: 0 }}>
                      {c.commit_message || 'No message'}
                    </Text>
                    {c.is_head && (
                      <Badge size="xs" color="teal.9" variant="filled" style={{ flexShrink: 0 }}>
                        HEAD
                      </Badge>
                    )}
                    {branches > 1 && (
                      <Badge size="xs" color="violet" variant="light" style={{ flexShrink: 0 }}>
                        {branches} branches
                      </Badge>
                    )}
                  </Group>
                  <Group gap={8} wrap="nowrap" id={`commit-meta-${c.commit_hash}`}>
                    <Text component="span" size="xs" ff="monospace" fw={600}>
                      {shortHash(c.commit_hash)}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {formatTime(c.created_at)} · {plural(c.row_count, 'row')}
                      {c.prev_commit_hash ? ` · after ${shortHash(c.prev_commit_hash)}` : ' · first commit'}
                      {branches > 1 && <VisuallyHidden> · branches into {branches} lines</VisuallyHidden>}
                    </Text>
                  </Group>
                </Stack>
              </UnstyledButton>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
