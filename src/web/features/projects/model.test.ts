import { describe, expect, it } from 'vitest';
import type { Commit, Context, Log } from '../../../shared/projects.ts';
import { contextTree, diffRows, layoutGraph, parseValue } from './model.ts';

const commit = (hash: string, prev: string | null): Commit => ({
  commit_hash: hash,
  commit_message: hash,
  created_at: '2026-01-01T00:00:00Z',
  type: 'context',
  prev_commit_hash: prev,
  next_commit_hash: [],
  next_commit_hashes: [],
  row_count: 0,
  is_head: false,
});
const ctx = (name: string) => ({ name }) as Context;
const log = (id: number, entries: Record<string, unknown>): Log => ({ id, entries, created_at: '', updated_at: '' });

describe('projects model', () => {
  it('lays a branch out in its own lane and keeps the main line in one', () => {
    // Newest first: D (on A), C → B → A.
    const g = layoutGraph([commit('D', 'A'), commit('C', 'B'), commit('B', 'A'), commit('A', null)]);
    const lane = Object.fromEntries(g.nodes.map((n) => [n.commit.commit_hash, n.lane]));
    expect(lane).toEqual({ D: 0, C: 1, B: 1, A: 0 });
    expect(g.lanes).toBe(2);
    expect(g.edges.map((e) => `${e.from.commit.commit_hash}>${e.to.commit.commit_hash}`)).toEqual(['D>A', 'C>B', 'B>A']);
  });

  it('groups contexts by "/" and hides the insides of closed folders', () => {
    const all = [ctx('runs/2024/a'), ctx('runs/b'), ctx('top'), ctx('runs/2024/c')];
    expect(contextTree(all, new Set()).map((l) => `${l.depth}:${l.label}`)).toEqual(['0:runs', '1:2024', '2:a', '2:c', '1:b', '0:top']);
    const closed = contextTree(all, new Set(['runs/2024/']));
    expect(closed.map((l) => l.label)).toEqual(['runs', '2024', 'b', 'top']);
    expect(closed[1]).toMatchObject({ kind: 'folder', count: 2, open: false });
  });

  // How fast belongs in the benchmarks: a time limit in a unit test measures the machine as much as the code.
  it('flattens 10 000 contexts, with every folder open and with every folder closed', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ctx(`group-${i % 50}/run-${i}`));
    expect(contextTree(many, new Set())).toHaveLength(10_050);
    expect(contextTree(many, new Set(Array.from({ length: 50 }, (_, g) => `group-${g}/`)))).toHaveLength(50);
  });

  it('diffs rows by id', () => {
    const d = diffRows([log(1, { v: 1 }), log(2, { v: 2 })], [log(1, { v: 1 }), log(3, { v: 3 })]);
    expect([d.added.map((r) => r.id), d.removed.map((r) => r.id), d.changed.length]).toEqual([[3], [2], 0]);
    expect(diffRows([log(1, { v: 1 })], [log(1, { v: 9 })]).changed).toHaveLength(1);
  });

  it('reads typed values by the column type, keeping text as text', () => {
    expect(parseValue('12', 'int', undefined)).toEqual({ value: 12 });
    expect(parseValue('1.5', 'int', undefined)).toEqual({ error: 'Enter a whole number.' });
    expect(parseValue('12', 'str', undefined)).toEqual({ value: '12' });
    expect(parseValue('12', undefined, 'x')).toEqual({ value: '12' });
    expect(parseValue('12', undefined, undefined)).toEqual({ value: 12 });
    expect(parseValue('hello', undefined, undefined)).toEqual({ value: 'hello' });
  });
});
