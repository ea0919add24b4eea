import type { PlotData } from './series.js';

/** A point of the plot: a series and an index into the shared x values. */
export interface PlotPoint {
  readonly series: number;
  readonly idx: number;
}

const has = (ys: readonly (number | null)[], i: number) => ys[i] !== null && ys[i] !== undefined;

/** The index of `ys`' point whose x is nearest `x` (the earlier one on a tie), or -1 when it has none. */
function nearestTo(data: PlotData, ys: readonly (number | null)[], x: number): number {
  let best = -1;
  for (let i = 0; i < ys.length; i++)
    if (has(ys, i) && (best < 0 || Math.abs(data.xs[i]! - x) < Math.abs(data.xs[best]! - x))) best = i;
  return best;
}

/**
 * Where a key moves the plot's cursor: ArrowLeft and ArrowRight to the previous or next point of the series,
 * ArrowUp and ArrowDown to the point of the previous or next shown series nearest the same x, Home and End to the
 * series' first and last point. With no point yet, every key starts at the newest point of the first shown series.
 * Answers undefined when the key goes nowhere (an end reached, or nothing shown).
 */
export function movePoint(
  data: PlotData,
  hidden: ReadonlySet<number>,
  from: PlotPoint | null,
  key: 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End',
): PlotPoint | undefined {
  const order = data.series.map((_, i) => i).filter((i) => !hidden.has(i));
  if (order.length === 0) return undefined;
  const last = (ys: readonly (number | null)[]) => {
    for (let i = ys.length - 1; i >= 0; i--) if (has(ys, i)) return i;
    return -1;
  };
  if (!from || !order.includes(from.series)) {
    const series = order[0]!;
    const idx = last(data.series[series]!.y);
    return idx < 0 ? undefined : { series, idx };
  }
  const ys = data.series[from.series]!.y;
  if (key === 'Home' || key === 'End') {
    const idx = key === 'Home' ? ys.findIndex((_, i) => has(ys, i)) : last(ys);
    return idx < 0 ? undefined : { series: from.series, idx };
  }
  if (key === 'ArrowUp' || key === 'ArrowDown') {
    const at = order.indexOf(from.series) + (key === 'ArrowDown' ? 1 : -1);
    const series = order[(at + order.length) % order.length]!;
    const idx = nearestTo(data, data.series[series]!.y, data.xs[from.idx]!);
    return idx < 0 ? undefined : { series, idx };
  }
  const step = key === 'ArrowRight' ? 1 : -1;
  let i = from.idx + step;
  while (i >= 0 && i < ys.length && !has(ys, i)) i += step;
  return i < 0 || i >= ys.length ? undefined : { series: from.series, idx: i };
}
