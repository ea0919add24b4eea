import { uuidWords } from '../perf/shape.js';
import type { HistoryColumns, PerfColumns, PerfLines, PerfRequest } from './records.js';

/** One sample of a history answer: the metric's value and id. */
export interface HistorySample {
  readonly value: number;
  readonly id: bigint;
}

/**
 * The history answer for samples already chosen per requested series (newest first): series i's samples become
 * `values[offsets[i] .. offsets[i + 1])`. For engines that find the samples row by row.
 */
export function historyColumns(series: readonly (readonly HistorySample[])[]): HistoryColumns {
  const offsets = new Uint32Array(series.length + 1);
  series.forEach((samples, i) => (offsets[i + 1] = (offsets[i] as number) + samples.length));
  const values = new Float64Array(offsets[series.length] as number);
  const ids = new BigInt64Array(values.length);
  let k = 0;
  for (const samples of series)
    for (const sample of samples) {
      values[k] = sample.value;
      ids[k++] = sample.id;
    }
  return { offsets, values, ids };
}

/**
 * One point of a perf answer as a plain row, in answer order. UUIDs are text; absent values are `null` (they
 * become NaN, 0 or null in the columns, as `PerfColumns` lays out).
 */
export interface PerfPoint {
  /** Position of the point's permutation in the request. */
  readonly permutation: number;
  /** The report's UUID. */
  readonly report: string;
  readonly iteration: number;
  /** Report start and end, epoch milliseconds. */
  readonly start: number;
  readonly end: number;
  /** The version number and its git hash. */
  readonly version: number;
  readonly hash: string | null;
  /** The metric's UUID. */
  readonly uuid: string;
  readonly value: number;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly threshold: number | null;
  readonly model: number | null;
  readonly baseline: number | null;
  readonly lowerLimit: number | null;
  readonly upperLimit: number | null;
  /** The alert raised on the metric: its UUID, limit, status and last change (epoch milliseconds). */
  readonly alert: string | null;
  readonly alertLimit: string | null;
  readonly alertStatus: string | null;
  readonly alertModified: number | null;
}

/**
 * The columnar perf answer of points already in answer order. For engines that find the points row by row. Pass
 * the request so that its `metricUuids: false` leaves the metric UUIDs zero, as the contract asks.
 */
export function perfColumns(
  points: readonly PerfPoint[],
  request: Pick<PerfRequest, 'metricUuids'> = {},
): PerfColumns {
  const float = (get: (p: PerfPoint) => number | null) =>
    Float64Array.from(points, (p) => get(p) ?? Number.NaN);
  const int = (get: (p: PerfPoint) => number | null) => Int32Array.from(points, (p) => get(p) ?? 0);
  return {
    count: points.length,
    permutation: int((p) => p.permutation),
    report: uuidWords(points.map((p) => p.report)),
    iteration: int((p) => p.iteration),
    start: float((p) => p.start),
    end: float((p) => p.end),
    version: int((p) => p.version),
    hash: points.map((p) => p.hash),
    uuid:
      request.metricUuids === false
        ? new Uint32Array(4 * points.length)
        : uuidWords(points.map((p) => p.uuid)),
    value: float((p) => p.value),
    lower: float((p) => p.lower),
    upper: float((p) => p.upper),
    threshold: int((p) => p.threshold),
    model: int((p) => p.model),
    baseline: float((p) => p.baseline),
    lowerLimit: float((p) => p.lowerLimit),
    upperLimit: float((p) => p.upperLimit),
    alert: points.map((p) => p.alert),
    alertLimit: points.map((p) => p.alertLimit),
    alertStatus: points.map((p) => p.alertStatus),
    alertModified: float((p) => p.alertModified),
  };
}

/** What a perf image draws of a perf answer; for engines that have no cheaper read of it than the whole answer. */
export function perfLinesOf(columns: PerfColumns): PerfLines {
  return {
    count: columns.count,
    permutation: columns.permutation,
    start: columns.start,
    version: columns.version,
    value: columns.value,
    lowerLimit: columns.lowerLimit,
    upperLimit: columns.upperLimit,
    baseline: columns.baseline,
    alert: Uint8Array.from(columns.alert, (alert) => (alert === null ? 0 : 1)),
  };
}
