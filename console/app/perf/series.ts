import type {
  ChangePointJson,
  PerfChangesJson,
  PerfJson,
  PerfPoint,
  PerfSeries,
  XAxis,
} from '../api/perf-types.js';

/**
 * The perf answer reshaped for uPlot: one shared, sorted x array, and per series y values, limits and the
 * index of the point behind each x (for hover details). Series rarely share every x, so missing places
 * are null and lines span them.
 */
export interface PlotData {
  readonly xs: Float64Array;
  readonly series: readonly PlotSeries[];
  readonly xAxis: XAxis;
  /** Values are drawn on a logarithmic y axis (those at or below zero were left out). */
  readonly log: boolean;
  /** Units of the first and the second measure (two measures get two y axes). */
  readonly measures: readonly { uuid: string; name: string; units: string }[];
}

export interface PlotSeries {
  readonly source: PerfSeries;
  readonly label: string;
  readonly color: string;
  /** 0 for the first measure (left axis), 1 for the second (right axis). */
  readonly axis: 0 | 1;
  readonly y: (number | null)[];
  readonly lower: (number | null)[] | undefined;
  readonly upper: (number | null)[] | undefined;
  /** Index into source.metrics of the point at each x, -1 where the series has none. */
  readonly pointAt: Int32Array;
  readonly alerts: readonly { readonly x: number; readonly active: boolean }[];
  /** Change points (when asked for), oldest first. */
  readonly changes: readonly PlotChange[];
}

/**
 * A change point placed on the plot: `x` is the place of the first point of the new regime; the mean level
 * `before` spans from the previous change point (or the series' first point) to it, `after` from it to the next
 * (or the last point).
 */
export interface PlotChange {
  readonly x: number;
  readonly from: number;
  readonly to: number;
  readonly point: ChangePointJson;
}

const PALETTE = [
  '#2563eb',
  '#dc2626',
  '#059669',
  '#d97706',
  '#7c3aed',
  '#db2777',
  '#0891b2',
  '#65a30d',
  '#475569',
  '#ea580c',
];

/** Ten distinct colors, then golden-angle hues so hundreds of series stay tellable apart. */
export function seriesColor(index: number): string {
  return PALETTE[index] ?? `hsl(${(index * 137.508) % 360} 65% 42%)`;
}

function xOf(point: PerfPoint, axis: XAxis): number {
  // Iterations of one report share its start time and version: a small offset keeps each its own place.
  return axis === 'version'
    ? point.version.number + point.iteration * 1e-3
    : Date.parse(point.start_time) / 1000 + point.iteration * 1e-3;
}

export function seriesLabel(
  series: PerfSeries,
  parts: { branch: boolean; testbed: boolean; measure: boolean },
): string {
  return [
    series.benchmark.name,
    parts.branch ? series.branch.name : '',
    parts.testbed ? series.testbed.name : '',
    parts.measure ? series.measure.name : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

export function buildPlotData(perf: PerfJson, xAxis: XAxis, logScale: boolean): PlotData {
  const results = perf.results;
  const measures: { uuid: string; name: string; units: string }[] = [];
  for (const r of results) {
    if (!measures.some((m) => m.uuid === r.measure.uuid)) {
      measures.push({ uuid: r.measure.uuid, name: r.measure.name, units: r.measure.units });
    }
  }
  // Only what varies goes into labels: one branch and one testbed need not be repeated on every line.
  const distinct = (pick: (s: PerfSeries) => string) => new Set(results.map(pick)).size > 1;
  const parts = {
    branch: distinct((s) => s.branch.uuid),
    testbed: distinct((s) => s.testbed.uuid),
    measure: measures.length > 1,
  };

  let count = 0;
  for (const r of results) count += r.metrics.length;
  const all = new Float64Array(count);
  let at = 0;
  for (const r of results) for (const p of r.metrics) all[at++] = xOf(p, xAxis);
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[unique - 1]) all[unique++] = all[i]!;
  const xs = all.slice(0, unique);
  const index = new Map<number, number>();
  xs.forEach((x, i) => index.set(x, i));

  const positive = (v: number | null | undefined) =>
    v === null || v === undefined || (logScale && v <= 0) ? null : v;
  const series = results.map((source, s): PlotSeries => {
    const y: (number | null)[] = new Array(xs.length).fill(null);
    const pointAt = new Int32Array(xs.length).fill(-1);
    let lower: (number | null)[] | undefined;
    let upper: (number | null)[] | undefined;
    const alerts: { x: number; active: boolean }[] = [];
    source.metrics.forEach((point, m) => {
      const i = index.get(xOf(point, xAxis))!;
      y[i] = positive(point.metric.value);
      pointAt[i] = m;
      const boundary = point.boundary;
      if (boundary?.lower_limit !== null && boundary?.lower_limit !== undefined) {
        (lower ??= new Array(xs.length).fill(null))[i] = positive(boundary.lower_limit);
      }
      if (boundary?.upper_limit !== null && boundary?.upper_limit !== undefined) {
        (upper ??= new Array(xs.length).fill(null))[i] = positive(boundary.upper_limit);
      }
      if (point.alert) alerts.push({ x: i, active: point.alert.status === 'active' });
    });
    return {
      source,
      label: seriesLabel(source, parts),
      color: seriesColor(s),
      axis: source.measure.uuid === measures[0]?.uuid ? 0 : 1,
      y,
      lower,
      upper,
      pointAt,
      alerts,
      changes: [],
    };
  });
  return { xs, series, xAxis, log: logScale, measures };
}

/** A title naming what a plot shows ("decode, encode · Latency on main"), for a pin given none. */
export function plotTitle(data: PlotData): string {
  const names = (pick: (s: PerfSeries) => string) => [...new Set(data.series.map((s) => pick(s.source)))];
  const benchmarks = names((s) => s.benchmark.name);
  const shown =
    benchmarks.length > 3
      ? `${benchmarks.slice(0, 3).join(', ')} and ${benchmarks.length - 3} more`
      : benchmarks.join(', ');
  const branches = names((s) => s.branch.name);
  const measures = data.measures.map((m) => m.name).join(' and ');
  return `${shown} · ${measures}${branches.length === 1 ? ` on ${branches[0]}` : ''}`;
}

/**
 * Whether a y axis set to `auto` is logarithmic: as in the API's images, when every value is above zero and the
 * largest is at least 1000 times the smallest.
 */
export function logAxis(yAxis: 'auto' | 'linear' | 'log', perf: PerfJson): boolean {
  if (yAxis !== 'auto') return yAxis === 'log';
  let min = Infinity;
  let max = -Infinity;
  for (const series of perf.results) {
    for (const point of series.metrics) {
      const value = point.metric.value;
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  return min > 0 && max / min >= 1000;
}

/** A series' identity in an answer: its branch, testbed, benchmark and measure. */
function identity(s: Pick<PerfSeries, 'branch' | 'testbed' | 'benchmark' | 'measure'>): string {
  return `${s.branch.uuid} ${s.testbed.uuid} ${s.benchmark.uuid} ${s.measure.uuid}`;
}

/**
 * The plot's series with their change points, matched by series identity and by the metric that starts each new
 * regime (a change point whose metric the plot does not hold, for an answer of other times, is left out).
 */
export function withChanges(data: PlotData, answer: PerfChangesJson): PlotData {
  const found = new Map(answer.results.map((r) => [identity(r), r.change_points]));
  const series = data.series.map((s): PlotSeries => {
    const points = found.get(identity(s.source)) ?? [];
    if (points.length === 0) return s.changes.length === 0 ? s : { ...s, changes: [] };
    const place = new Map<string, number>();
    s.pointAt.forEach((m, x) => m >= 0 && place.set(s.source.metrics[m]!.metric.uuid, x));
    const first = s.pointAt.findIndex((m) => m >= 0);
    const last = s.pointAt.length - 1 - [...s.pointAt].reverse().findIndex((m) => m >= 0);
    const placed = points.flatMap((point) => {
      const x = place.get(point.metric.uuid);
      return x === undefined ? [] : [{ x, point }];
    });
    const changes = placed.map(({ x, point }, k) => ({
      x,
      from: placed[k - 1]?.x ?? first,
      to: placed[k + 1]?.x ?? last,
      point,
    }));
    return { ...s, changes };
  });
  return { ...data, series };
}
