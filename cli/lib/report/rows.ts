import type { ReportJson } from '../../../core/index.js';

/** One metric of a report with what the renderers show beside it. */
export interface ResultRow {
  readonly iteration: number;
  readonly benchmark: { readonly uuid: string; readonly name: string };
  readonly measure: { readonly uuid: string; readonly name: string; readonly units: string };
  readonly value: number;
  readonly lowerValue: number | null;
  readonly upperValue: number | null;
  /** A threshold applied to this metric. */
  readonly threshold: boolean;
  readonly baseline: number | null;
  readonly lowerLimit: number | null;
  readonly upperLimit: number | null;
  /** Percent change from the baseline, when there is one. */
  readonly change: number | null;
  readonly alert: {
    readonly uuid: string;
    readonly limit: 'lower' | 'upper';
    readonly status: string;
  } | null;
}

/** Flattens a report's results (iterations, benchmarks, measures) into rows, joining each alert to its metric. */
export function reportRows(report: ReportJson): ResultRow[] {
  const alerts = new Map((report.alerts ?? []).map((alert) => [alert.metric.uuid, alert]));
  return (report.results ?? []).flat().flatMap((result) =>
    result.measures.map((m): ResultRow => {
      const baseline = m.boundary?.baseline ?? null;
      const alert = alerts.get(m.metric.uuid);
      return {
        iteration: result.iteration,
        benchmark: { uuid: result.benchmark.uuid, name: result.benchmark.name },
        measure: { uuid: m.measure.uuid, name: m.measure.name, units: m.measure.units },
        value: m.metric.value,
        lowerValue: m.metric.lower_value,
        upperValue: m.metric.upper_value,
        threshold: m.threshold !== null,
        baseline,
        lowerLimit: m.boundary?.lower_limit ?? null,
        upperLimit: m.boundary?.upper_limit ?? null,
        change:
          baseline !== null && baseline !== 0
            ? ((m.metric.value - baseline) / Math.abs(baseline)) * 100
            : null,
        alert: alert ? { uuid: alert.uuid, limit: alert.limit, status: alert.status } : null,
      };
    }),
  );
}

/** A figure as people read it: up to 6 significant digits with thousands separators, no float noise. */
export function formatFigure(value: number | null): string {
  if (value === null) return '';
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e15 || abs < 1e-4)) return value.toExponential(3);
  return Number(value.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** A measure as a column shows it: `Latency (ns)` for units `nanoseconds (ns)`, the whole units otherwise. */
export function measureLabel(measure: { readonly name: string; readonly units: string }): string {
  const short = /\(([^()]+)\)\s*$/.exec(measure.units)?.[1] ?? measure.units;
  return `${measure.name} (${short})`;
}

/** `+12.34%`, `-0.50%`, or empty without a baseline. */
export function formatChange(change: number | null): string {
  if (change === null) return '';
  return `${change >= 0 ? '+' : ''}${change.toFixed(2)}%`;
}

type ReportRegression = NonNullable<ReportJson['regressions']>[number];

/** `v44 (1a2b3c4)`: a version as regressions show it. */
function versionLabel(version: { number: number; hash: string | null }): string {
  return `v${version.number}${version.hash ? ` (${version.hash.slice(0, 7)})` : ''}`;
}

/**
 * One line for a regression a report touched: the kind, the range, every series with its change, the status and
 * what the report did (`regression v44 (1a2b3c4)..v45 (5d6e7f8): parse +15.21%, sort +14.80% (suspected,
 * opened)`).
 */
export function regressionLine({ how, regression }: ReportRegression): string {
  const range = regression.last_good
    ? `${versionLabel(regression.last_good)}..${versionLabel(regression.first_bad)}`
    : versionLabel(regression.first_bad);
  const series = regression.series
    .map((s) => `${s.benchmark.name} ${formatChange(s.change === null ? null : s.change * 100)}`)
    .join(', ');
  const what = { opened: 'opened', joined: 'joined', attached: 'continues it' }[how];
  return `${regression.kind} ${range}: ${series} (${regression.status}, ${what})`;
}

/** Where the console shows a report, an alert and a series (console/app's routes). */
export interface ConsoleLinks {
  report(): string;
  alert(uuid: string): string;
  regression(uuid: string): string;
  series(row: ResultRow): string;
}

export function consoleLinks(consoleUrl: string, report: ReportJson): ConsoleLinks {
  const base = consoleUrl.replace(/\/+$/, '');
  const project = encodeURIComponent(report.project.slug);
  return {
    report: () => `${base}/console/projects/${project}/reports/${report.uuid}`,
    alert: (uuid) => `${base}/console/projects/${project}/alerts/${uuid}`,
    regression: (uuid) => `${base}/console/projects/${project}/regressions/${uuid}`,
    series: (row) => {
      const query = new URLSearchParams({
        branches: report.branch.uuid,
        testbeds: report.testbed.uuid,
        benchmarks: row.benchmark.uuid,
        measures: row.measure.uuid,
        report: report.uuid,
      });
      return `${base}/perf/${project}?${query.toString()}`;
    },
  };
}
