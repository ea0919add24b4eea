import type { PerfJson, PerfPoint, PerfSeries } from '../api/perf-types.js';

/** A series' branch, testbed, benchmark and measure, as the perf answer writes them. */
export type SeriesInfo = Omit<PerfSeries, 'metrics'>;

/**
 * What the tooltip and the CSV show of one point: the explorer's Arrow answer (`fields=plot`) carries no alert,
 * metric UUID or end time.
 */
export type PlotPoint = Omit<PerfPoint, 'alert' | 'threshold' | 'end_time' | 'metric'> & {
  readonly metric: Omit<PerfPoint['metric'], 'uuid'>;
  readonly alert: Pick<NonNullable<PerfPoint['alert']>, 'limit' | 'status'> | null;
};

/**
 * One series of a perf answer as columns, oldest first: what the plot reads for every point, in typed arrays (NaN
 * where there is no number), and the rest of a point made on demand, for the few a person hovers or exports. The
 * JSON and the Arrow answers both come to this.
 */
export interface SeriesColumns extends SeriesInfo {
  readonly length: number;
  /** Epoch milliseconds of the report's start. */
  readonly start: Float64Array;
  readonly version: Int32Array;
  readonly iteration: Int32Array;
  readonly value: Float64Array;
  readonly lowerLimit: Float64Array;
  readonly upperLimit: Float64Array;
  /** The alert's status, null where the point raised none. */
  alert(i: number): string | null;
  report(i: number): string;
  point(i: number): PlotPoint;
}

const orNaN = (v: number | null | undefined) => (v === null || v === undefined ? NaN : v);

/** The JSON answer's series as columns (its points stay the objects JSON.parse made). */
export function jsonColumns(perf: PerfJson): SeriesColumns[] {
  return perf.results.map(({ metrics, ...info }) => ({
    ...info,
    length: metrics.length,
    start: Float64Array.from(metrics, (p) => Date.parse(p.start_time)),
    version: Int32Array.from(metrics, (p) => p.version.number),
    iteration: Int32Array.from(metrics, (p) => p.iteration),
    value: Float64Array.from(metrics, (p) => orNaN(p.metric.value)),
    lowerLimit: Float64Array.from(metrics, (p) => orNaN(p.boundary?.lower_limit)),
    upperLimit: Float64Array.from(metrics, (p) => orNaN(p.boundary?.upper_limit)),
    alert: (i) => metrics[i]!.alert?.status ?? null,
    report: (i) => metrics[i]!.report,
    point: (i) => metrics[i]!,
  }));
}
