import type { Log } from '../../../shared/projects.ts';

export interface Point {
  label: string;
  x: number;
  y: number;
}

/** x is numeric when every row's x is a number (or a date); otherwise rows are placed in order, labelled by x. */
export function pointsOf(rows: Pick<Log, 'entries'>[], xAxis: string, yAxis: string): { points: Point[]; numericX: boolean } {
  const usable = rows.filter((r) => typeof r.entries?.[yAxis] === 'number' && Number.isFinite(r.entries[yAxis] as number));
  const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /\d{4}-\d{2}/.test(v) ? Date.parse(v) : NaN);
  const numericX = usable.length > 0 && usable.every((r) => Number.isFinite(asNumber(r.entries[xAxis])));
  const points = usable.map((r, i) => ({
    label: String(r.entries[xAxis] ?? i + 1),
    x: numericX ? asNumber(r.entries[xAxis]) : i,
    y: r.entries[yAxis] as number,
  }));
  if (numericX) points.sort((a, b) => a.x - b.x);
  return { points, numericX };
}
