import type { ChangePointJson, PerfChangesJson, XAxis } from '../api/perf-types.js';
import type { SeriesColumns, SeriesInfo } from './columns.js';

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
  readonly source: SeriesColumns;
  readonly label: string;
  readonly color: string;
  /** 0 for the first measure (left axis), 1 for the second (right axis). */
  readonly axis: 0 | 1;
  readonly y: (number | null)[];
  readonly lower: (number | null)[] | undefined;
  readonly upper: (number | null)[] | undefined;
  /** Index into the source's points of the point at each x, -1 where the series has none. */
  readonly pointAt: Int32Array;
  readonly alerts: readonly { readonly x: number; readonly active: boolean }[];
  /** Change points (when asked for), oldest first. */
  readonly changes: readonly PlotChange[];
  /** Regressions that hold this series, at their first bad version. */
  readonly regressions: readonly PlotRegression[];
}

/**
 * A regression placed on the plot: `x` is the place of the series' first point at or after its first bad version;
 * `levels`, when given, are its levels before and after, drawn from `from` to `x` and from `x` to `to`.
 */
export interface PlotRegression {
  readonly x: number;
  readonly kind: 'regression' | 'improvement';
  readonly levels?: {
    readonly before: number;
    readonly after: number;
    readonly from: number;
    readonly to: number;
  };
}

/** What {@link withRegressions} reads of a regression (its wire form has more). */
export interface RegressionMark {
  readonly kind: 'regression' | 'improvement';
  readonly branch: { uuid: string };
  readonly testbed: { uuid: string };
  readonly first_bad: { number: number };
  readonly series: readonly {
    benchmark: { uuid: string };
    measure: { uuid: string };
    before: number;
    after: number;
  }[];
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

/** The x of point `i`: iterations of one report share its start time and version, a small offset keeps each its own place. */
function xOf(s: SeriesColumns, i: number, axis: XAxis): number {
  return axis === 'version'
    ? s.version[i]! + s.iteration[i]! * 1e-3
    : s.start[i]! / 1000 + s.iteration[i]! * 1e-3;
}

export function seriesLabel(
  series: SeriesInfo,
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

export function buildPlotData(results: readonly SeriesColumns[], xAxis: XAxis, logScale: boolean): PlotData {
  const measures: { uuid: string; name: string; units: string }[] = [];
  for (const r of results) {
    if (!measures.some((m) => m.uuid === r.measure.uuid)) {
      measures.push({ uuid: r.measure.uuid, name: r.measure.name, units: r.measure.units });
    }
  }
  // Only what varies goes into labels: one branch and one testbed need not be repeated on every line.
  const distinct = (pick: (s: SeriesInfo) => string) => new Set(results.map(pick)).size > 1;
  const parts = {
    branch: distinct((s) => s.branch.uuid),
    testbed: distinct((s) => s.testbed.uuid),
    measure: measures.length > 1,
  };

  let count = 0;
  for (const r of results) count += r.length;
  const all = new Float64Array(count);
  let at = 0;
  for (const r of results) for (let i = 0; i < r.length; i++) all[at++] = xOf(r, i, xAxis);
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[unique - 1]) all[unique++] = all[i]!;
  const xs = all.slice(0, unique);
  const index = new Map<number, number>();
  xs.forEach((x, i) => index.set(x, i));

  const positive = (v: number) => (Number.isNaN(v) || (logScale && v <= 0) ? null : v);
  const series = results.map((source, s): PlotSeries => {
    const y: (number | null)[] = new Array(xs.length).fill(null);
    const pointAt = new Int32Array(xs.length).fill(-1);
    let lower: (number | null)[] | undefined;
    let upper: (number | null)[] | undefined;
    const alerts: { x: number; active: boolean }[] = [];
    for (let m = 0; m < source.length; m++) {
      const i = index.get(xOf(source, m, xAxis))!;
      y[i] = positive(source.value[m]!);
      pointAt[i] = m;
      if (!Number.isNaN(source.lowerLimit[m]!)) {
        (lower ??= new Array(xs.length).fill(null))[i] = positive(source.lowerLimit[m]!);
      }
      if (!Number.isNaN(source.upperLimit[m]!)) {
        (upper ??= new Array(xs.length).fill(null))[i] = positive(source.upperLimit[m]!);
      }
      const alert = source.alert(m);
      if (alert) alerts.push({ x: i, active: alert === 'active' });
    }
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
      regressions: [],
    };
  });
  return { xs, series, xAxis, log: logScale, measures };
}

/** A title naming what a plot shows ("decode, encode · Latency on main"), for a pin given none. */
export function plotTitle(data: PlotData): string {
  const names = (pick: (s: SeriesInfo) => string) => [...new Set(data.series.map((s) => pick(s.source)))];
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
export function logAxis(yAxis: 'auto' | 'linear' | 'log', results: readonly SeriesColumns[]): boolean {
  if (yAxis !== 'auto') return yAxis === 'log';
  let min = Infinity;
  let max = -Infinity;
  for (const series of results) {
    for (const value of series.value) {
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  return min > 0 && max / min >= 1000;
}

/** A series' identity in an answer: its branch, testbed, benchmark and measure. */
function identity(s: SeriesInfo): string {
  return `${s.branch.uuid} ${s.testbed.uuid} ${s.benchmark.uuid} ${s.measure.uuid}`;
}

/**
 * The plot's series with their change points, matched by series identity and by the point (report and iteration)
 * that starts each new regime (a change point whose point the plot does not hold, for other times, is left out).
 */
export function withChanges(data: PlotData, answer: PerfChangesJson): PlotData {
  const found = new Map(answer.results.map((r) => [identity(r), r.change_points]));
  const series = data.series.map((s): PlotSeries => {
    const points = found.get(identity(s.source)) ?? [];
    if (points.length === 0) return s.changes.length === 0 ? s : { ...s, changes: [] };
    const place = new Map<string, number>();
    s.pointAt.forEach((m, x) => m >= 0 && place.set(`${s.source.report(m)} ${s.source.iteration[m]}`, x));
    const first = s.pointAt.findIndex((m) => m >= 0);
    const last = s.pointAt.length - 1 - [...s.pointAt].reverse().findIndex((m) => m >= 0);
    const placed = points.flatMap((point) => {
      const x = place.get(`${point.report} ${point.iteration}`);
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

/**
 * The plot's series with the regressions that hold them, each at the series' first point at or after its first
 * bad version (a regression outside the plotted window is left out); `levels` adds their levels before and after.
 */
export function withRegressions(
  data: PlotData,
  regressions: readonly RegressionMark[],
  levels = false,
): PlotData {
  if (regressions.length === 0) return data;
  const series = data.series.map((s): PlotSeries => {
    const { source } = s;
    const marks = regressions.flatMap((r) => {
      if (r.branch.uuid !== source.branch.uuid || r.testbed.uuid !== source.testbed.uuid) return [];
      const one = r.series.find(
        (x) => x.benchmark.uuid === source.benchmark.uuid && x.measure.uuid === source.measure.uuid,
      );
      if (!one) return [];
      const x = s.pointAt.findIndex((m) => m >= 0 && source.version[m]! >= r.first_bad.number);
      // a regression whose first bad point is the plot's first has no "before" to show
      if (x <= 0 || s.pointAt.slice(0, x).every((m) => m < 0)) return [];
      const first = s.pointAt.findIndex((m) => m >= 0);
      let last = s.pointAt.length - 1;
      while (last > x && s.pointAt[last]! < 0) last--;
      const mark: PlotRegression = {
        x,
        kind: r.kind,
        ...(levels ? { levels: { before: one.before, after: one.after, from: first, to: last } } : {}),
      };
      return [mark];
    });
    return marks.length === 0 && s.regressions.length === 0 ? s : { ...s, regressions: marks };
  });
  return { ...data, series };
}
