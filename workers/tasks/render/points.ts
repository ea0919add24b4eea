import type { PlotImage, PlotImageSeries } from '../../../core/perf/image-input.js';
import type { ValueRange } from './scale.js';

/** A series with the indexes of its drawable points, in ascending x. */
export interface PreparedSeries {
  readonly source: PlotImageSeries;
  /** Points whose x is finite and inside the x range and that have a finite value or limit, sorted by x. */
  readonly order: Uint32Array;
}

const finite = Number.isFinite;

function hasValue(series: PlotImageSeries, i: number): boolean {
  return (
    finite(series.y[i] as number) ||
    finite(series.lower?.[i] ?? Number.NaN) ||
    finite(series.upper?.[i] ?? Number.NaN)
  );
}

/**
 * The drawable points of each series in x order. Input usually arrives sorted (the perf query orders by time);
 * when it does not, points are sorted by x, ties by index, so the output stays deterministic.
 */
export function prepareSeries(image: PlotImage): PreparedSeries[] {
  const start = image.xRange?.start ?? Number.NEGATIVE_INFINITY;
  const end = image.xRange?.end ?? Number.POSITIVE_INFINITY;
  return image.series.map((source) => {
    const { x } = source;
    const kept: number[] = [];
    let sorted = true;
    for (let i = 0; i < x.length; i++) {
      const xi = x[i] as number;
      if (!finite(xi) || xi < start || xi > end || !hasValue(source, i)) continue;
      if (kept.length > 0 && xi < (x[kept[kept.length - 1] as number] as number)) sorted = false;
      kept.push(i);
    }
    if (!sorted) kept.sort((a, b) => (x[a] as number) - (x[b] as number) || a - b);
    return { source, order: Uint32Array.from(kept) };
  });
}

/** The smallest and largest x of all drawable points; undefined when there is none. */
export function xExtent(series: readonly PreparedSeries[]): [number, number] | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const { source, order } of series) {
    if (order.length === 0) continue;
    min = Math.min(min, source.x[order[0] as number] as number);
    max = Math.max(max, source.x[order[order.length - 1] as number] as number);
  }
  return min <= max ? [min, max] : undefined;
}

/** The range of every finite value and limit of the drawable points (see {@link ValueRange}). */
export function valueRange(series: readonly PreparedSeries[]): ValueRange {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let minPositive = Number.POSITIVE_INFINITY;
  const visit = (value: number) => {
    if (!finite(value)) return;
    if (value < min) min = value;
    if (value > max) max = value;
    if (value > 0 && value < minPositive) minPositive = value;
  };
  for (const { source, order } of series) {
    for (const i of order) {
      visit(source.y[i] as number);
      if (source.lower) visit(source.lower[i] as number);
      if (source.upper) visit(source.upper[i] as number);
    }
  }
  return min <= max
    ? { min, max, minPositive: finite(minPositive) ? minPositive : Number.NaN }
    : { min: Number.NaN, max: Number.NaN, minPositive: Number.NaN };
}

/**
 * Whether any drawable point has a boundary limit or raised an alert, known before layout so the legend can
 * reserve its keys. On a log axis only values above zero count, as only those are drawn.
 */
export function seriesFeatures(
  series: readonly PreparedSeries[],
  log: boolean,
): { hasLimits: boolean; hasAlerts: boolean } {
  const drawable = (value: number) => finite(value) && (!log || value > 0);
  let hasLimits = false;
  let hasAlerts = false;
  for (const { source, order } of series) {
    for (const i of order) {
      if (
        !hasLimits &&
        (drawable(source.lower?.[i] ?? Number.NaN) || drawable(source.upper?.[i] ?? Number.NaN))
      )
        hasLimits = true;
      if (
        !hasAlerts &&
        source.alert !== undefined &&
        source.alert[i] !== 0 &&
        drawable(source.y[i] as number)
      )
        hasAlerts = true;
    }
  }
  return { hasLimits, hasAlerts };
}
