import type { Commit, Context, Log } from '../../../shared/projects.ts';

// ---- Context tree ---------------------------------------------------------------------------

/** One visible line of the context tree: a folder (a `/` group) or a context. */
export type TreeLine =
  { kind: 'folder'; path: string; label: string; depth: number; count: number; open: boolean } | { kind: 'context'; context: Context; label: string; depth: number };

interface Folder {
  folders: Map<string, Folder>;
  contexts: { label: string; context: Context }[];
  count: number;
}

const newFolder = (): Folder => ({ folders: new Map(), contexts: [], count: 0 });

/**
 * Groups contexts by the `/` in their names and flattens the tree into the lines to show, skipping
 * the insides of closed folders. Folders come before contexts, both by name.
 */
export function contextTree(contexts: Context[], closed: ReadonlySet<string>): TreeLine[] {
  const root = newFolder();
  for (const context of contexts) {
    const parts = context.name.split('/');
    const label = parts.pop()!;
    let folder = root;
    folder.count += 1;
    for (const part of parts) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = newFolder()));
      next.count += 1;
      folder = next;
    }
    folder.contexts.push({ label: label || context.name, context });
  }
  const lines: TreeLine[] = [];
  const walk = (folder: Folder, prefix: string, depth: number) => {
    for (const name of [...folder.folders.keys()].sort()) {
      const child = folder.folders.get(name)!;
      const path = `${prefix}${name}/`;
      const open = !closed.has(path);
      lines.push({ kind: 'folder', path, label: name, depth, count: child.count, open });
      if (open) walk(child, path, depth + 1);
    }
    for (const { label, context } of folder.contexts) lines.push({ kind: 'context', context, label, depth });
  };
  walk(root, '', 0);
  return lines;
}

// ---- Row values -----------------------------------------------------------------------------

/** How a cell shows a value: text as is, everything else as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The text a row editor starts with for a value (strings unquoted, the rest as JSON). */
export const editText = formatValue;

/**
 * Reads what was typed into a row editor. A declared column type decides; otherwise a value that was
 * text stays text, and a new value is JSON when it parses as JSON (numbers, true/false, null, objects)
 * and text otherwise. Returns an error message when the text does not fit the declared type.
 */
export function parseValue(text: string, type: string | undefined, previous: unknown): { value: unknown } | { error: string } {
  const trimmed = text.trim();
  switch (type) {
    case 'str':
    case 'datetime':
    case 'date':
    case 'time':
      return { value: text };
    case 'int':
    case 'float': {
      const n = Number(trimmed);
      if (trimmed === '' || !Number.isFinite(n)) return { error: 'Enter a number.' };
      if (type === 'int' && !Number.isInteger(n)) return { error: 'Enter a whole number.' };
      return { value: n };
    }
    case 'bool':
      if (trimmed === 'true' || trimmed === 'false') return { value: trimmed === 'true' };
      return { error: 'Enter true or false.' };
    case 'dict':
    case 'list':
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (type === 'list' ? Array.isArray(parsed) : parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return { value: parsed };
      } catch {
        /* falls through */
      }
      return { error: type === 'list' ? 'Enter a JSON list, e.g. [1, 2].' : 'Enter a JSON object, e.g. {"a": 1}.' };
  }
  if (typeof previous === 'string') return { value: text };
  try {
    return { value: JSON.parse(trimmed) as unknown };
  } catch {
    return { value: text };
  }
}

/** Columns of some rows, first seen first, after the ones named up front. */
export function columnsOf(rows: Pick<Log, 'entries'>[], first: string[] = []): string[] {
  const seen = new Set(first);
  for (const row of rows) for (const key of Object.keys(row.entries ?? {})) seen.add(key);
  return [...seen];
}

/** The one column order of a context's rows wherever they are shown: its declared fields (unique keys, then counters), then first appearance. */
export const contextColumns = (context: Pick<Context, 'unique_keys' | 'auto_counting'>, rows: Pick<Log, 'entries'>[]): string[] =>
  columnsOf(rows, [...context.unique_keys, ...Object.keys(context.auto_counting)]);

// ---- Diffs ----------------------------------------------------------------------------------

export interface RowDiff {
  added: Log[];
  removed: Log[];
  changed: { before: Log; after: Log }[];
}

function sameEntries(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return false;
  return true;
}

/** What changes, row by row id, when `from` becomes `to`. */
export function diffRows(from: Log[], to: Log[]): RowDiff {
  const before = new Map(from.map((r) => [r.id, r]));
  const diff: RowDiff = { added: [], removed: [], changed: [] };
  const seen = new Set<number>();
  for (const row of to) {
    seen.add(row.id);
    const old = before.get(row.id);
    if (!old) diff.added.push(row);
    else if (!sameEntries(old.entries, row.entries)) diff.changed.push({ before: old, after: row });
  }
  for (const row of from) if (!seen.has(row.id)) diff.removed.push(row);
  return diff;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function diffSummary(diff: RowDiff): string {
  const parts = [];
  if (diff.added.length) parts.push(`${plural(diff.added.length, 'row')} added`);
  if (diff.removed.length) parts.push(`${plural(diff.removed.length, 'row')} removed`);
  if (diff.changed.length) parts.push(`${plural(diff.changed.length, 'row')} changed`);
  return parts.length ? parts.join(', ') : 'no row changes';
}

// ---- Commit graph ---------------------------------------------------------------------------

export interface GraphNode {
  commit: Commit;
  row: number;
  lane: number;
}

export interface GraphEdge {
  /** Child (newer) node, then parent (older) node. */
  from: GraphNode;
  to: GraphNode;
}

export interface CommitGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  lanes: number;
}

/**
 * Lays out the commit DAG newest first (the server's order): each commit takes the lane of a child
 * waiting for it (its first child's), so a line of history stays in one lane and a branch opens a
 * lane of its own until it joins its parent.
 */
export function layoutGraph(commits: Commit[]): CommitGraph {
  const waiting: (string | null)[] = [];
  const nodes: GraphNode[] = [];
  const byHash = new Map<string, GraphNode>();
  commits.forEach((commit, row) => {
    let lane = waiting.indexOf(commit.commit_hash);
    if (lane === -1) {
      lane = waiting.indexOf(null);
      if (lane === -1) lane = waiting.push(null) - 1;
    }
    // Other lanes that waited for this commit end here (they branched off it).
    for (let i = 0; i < waiting.length; i += 1) if (i !== lane && waiting[i] === commit.commit_hash) waiting[i] = null;
    waiting[lane] = commit.prev_commit_hash;
    const node = { commit, row, lane };
    nodes.push(node);
    byHash.set(commit.commit_hash, node);
  });
  const edges: GraphEdge[] = [];
  for (const node of nodes) {
    const parent = node.commit.prev_commit_hash ? byHash.get(node.commit.prev_commit_hash) : undefined;
    if (parent) edges.push({ from: node, to: parent });
  }
  return { nodes, edges, lanes: Math.max(1, ...nodes.map((n) => n.lane + 1)) };
}

export const shortHash = (hash: string) => hash.slice(0, 7);
