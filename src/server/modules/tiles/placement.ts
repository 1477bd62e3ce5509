import { GRID_COLUMNS, type Position } from '../../../shared/tiles.ts';

// Where a new tile goes on a tab's 12-column grid, so an added or imported tile never lands on another.

/** A position as the grid draws it: whole cells, at least one wide and high, inside the columns. */
function cells(p: Position): Position {
  const width = Math.min(GRID_COLUMNS, Math.max(1, Math.round(p.width)));
  return {
    x: Math.min(GRID_COLUMNS - width, Math.max(0, Math.round(p.x))),
    y: Math.max(0, Math.round(p.y)),
    width,
    height: Math.max(1, Math.round(p.height)),
  };
}

const overlaps = (a: Position, b: Position) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** True when `p` covers no cell of `taken`. */
export function isFree(p: Position, taken: readonly Position[]): boolean {
  const want = cells(p);
  return !taken.some((t) => overlaps(want, cells(t)));
}

/**
 * The first free spot (top row first, then leftmost) where a tile of this size fits beside `taken`.
 * There always is one: below the lowest tile the grid is empty.
 */
export function firstFreeSpot(size: Pick<Position, 'width' | 'height'>, taken: readonly Position[]): Position {
  const { width, height } = cells({ x: 0, y: 0, ...size });
  const occupied = taken.map(cells);
  const bottom = occupied.reduce((m, t) => Math.max(m, t.y + t.height), 0);
  for (let y = 0; y <= bottom; y++) {
    for (let x = 0; x + width <= GRID_COLUMNS; x++) {
      const spot = { x, y, width: size.width, height: size.height };
      if (!occupied.some((t) => overlaps({ x, y, width, height }, t))) return spot;
    }
  }
  return { x: 0, y: bottom, width: size.width, height: size.height };
}

/** `wanted` when it is free, otherwise the first free spot of its size. */
export function place(wanted: Position, taken: readonly Position[]): Position {
  return isFree(wanted, taken) ? wanted : firstFreeSpot(wanted, taken);
}
