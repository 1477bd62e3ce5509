import { Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Tile } from '../../../../shared/tiles.ts';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { tileQueries } from '../../../data/tiles.ts';
import { pointsOf, type Point } from '../plot-data.ts';

const W = 600;
const H = 260;
const PAD = { left: 48, right: 12, top: 12, bottom: 44 };

const fmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A small SVG chart: line, bar or scatter of y_axis against x_axis over the context's rows. */
function Chart({ points, kind, title, xAxis, yAxis }: { points: Point[]; kind: string; title: string; xAxis: string; yAxis: string }) {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(0, ...ys);
  const maxY = Math.max(...ys, minY + 1);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const bar = kind === 'bar';
  const slot = plotW / Math.max(1, points.length);
  const sx = (x: number, i: number) => (bar ? PAD.left + slot * i + slot / 2 : PAD.left + (maxX === minX ? plotW / 2 : ((x - minX) / (maxX - minX)) * plotW));
  const sy = (y: number) => PAD.top + plotH - ((y - minY) / (maxY - minY)) * plotH;
  const ticks = [minY, minY + (maxY - minY) / 2, maxY];
  const labelEvery = Math.max(1, Math.ceil(points.length / 6));
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={title} style={{ display: 'block', maxHeight: '100%' }}>
      <title>{title}</title>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.left} x2={W - PAD.right} y1={sy(t)} y2={sy(t)} stroke="var(--mantine-color-default-border)" />
          <text x={PAD.left - 6} y={sy(t) + 4} textAnchor="end" fontSize="11" fill="var(--mantine-color-text)">
            {fmt.format(t)}
          </text>
        </g>
      ))}
      {kind === 'line' && (
        <polyline fill="none" stroke="var(--mantine-color-blue-7)" strokeWidth="2" points={points.map((p, i) => `${sx(p.x, i)},${sy(p.y)}`).join(' ')} />
      )}
      {points.map((p, i) =>
        bar ? (
          <rect
            key={i}
            x={sx(p.x, i) - (slot * 0.7) / 2}
            width={slot * 0.7}
            y={Math.min(sy(p.y), sy(0))}
            height={Math.abs(sy(0) - sy(p.y))}
            fill="var(--mantine-color-blue-7)"
          >
            <title>{`${p.label}: ${fmt.format(p.y)}`}</title>
          </rect>
        ) : (
          <circle key={i} cx={sx(p.x, i)} cy={sy(p.y)} r={kind === 'scatter' ? 4 : 3} fill="var(--mantine-color-blue-7)">
            <title>{`${p.label}: ${fmt.format(p.y)}`}</title>
          </circle>
        ),
      )}
      {points.map((p, i) =>
        i % labelEvery === 0 ? (
          <text key={`l${i}`} x={sx(p.x, i)} y={H - PAD.bottom + 16} textAnchor="middle" fontSize="11" fill="var(--mantine-color-text)">
            {p.label.length > 12 ? `${p.label.slice(0, 11)}…` : p.label}
          </text>
        ) : null,
      )}
      <text x={PAD.left + plotW / 2} y={H - 4} textAnchor="middle" fontSize="11" fill="var(--mantine-color-text)">
        {xAxis} → {yAxis}
      </text>
    </svg>
  );
}

export default function PlotTile({ project, tile }: { project: string; tile: Tile }) {
  const rows = useQuery(tileQueries.rows(project, tile.context!, tile.filter));
  if (rows.isPending) return <Skeleton height={120} aria-label={`Loading rows of ${tile.context}`} />;
  if (rows.isError) return <ErrorAlert error={rows.error} onRetry={() => void rows.refetch()} title="Could not load the rows" />;
  const plot = tile.plot_tile;
  if (!plot)
    return (
      <Text size="sm" c="dimmed">
        This plot has no axes.
      </Text>
    );
  const { points } = pointsOf(rows.data.logs, plot.x_axis, plot.y_axis);
  if (points.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No rows of {tile.context}
        {tile.filter === null ? '' : " that match the tile's filter"} have a numeric {plot.y_axis} to plot.
      </Text>
    );
  }
  return (
    <Chart
      points={points}
      kind={plot.plot_type}
      xAxis={plot.x_axis}
      yAxis={plot.y_axis}
      title={`${plot.plot_type} chart of ${plot.y_axis} by ${plot.x_axis} over ${points.length} rows of ${tile.context}`}
    />
  );
}
