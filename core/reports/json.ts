import {
  branchJson,
  dimensionJson,
  measureJson,
  modelJson,
  thresholdJson,
  versionJson,
} from '../dimensions/json.js';
import { relativeChange } from '../detection/series-input.js';
import { NotFoundError } from '../errors.js';
import { projectJson, publicUserJson } from '../schemas/accounts.js';
import { iso } from '../schemas/common.js';
import type { ThresholdJson } from '../schemas/dimensions.js';
import type { AlertJson, ReportJson } from '../schemas/reports.js';
import type {
  AlertRecord,
  DimensionRecord,
  MeasureRecord,
  ProjectRecord,
  ReportRecord,
  ThresholdRecord,
  VersionRecord,
} from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import { regressionJsons } from '../regressions/json.js';
import type { Tested } from './boundary-job.js';
import type { Ingested, IngestedMetric } from './ingested.js';

export function metricJson(m: IngestedMetric) {
  return { uuid: m.uuid, value: m.value, lower_value: m.lower_value, upper_value: m.upper_value };
}

export function thresholdModelJson(project: { uuid: string }, tested: Tested) {
  return {
    uuid: tested.threshold.uuid,
    project: project.uuid,
    model: modelJson(tested.model),
    created: iso(tested.threshold.created),
  };
}

/** Orders as the reference does: iteration, then benchmark name, then measure name. */
function byIterationBenchmarkMeasure(a: IngestedMetric, b: IngestedMetric): number {
  return (
    a.iteration - b.iteration ||
    compare(a.benchmark.name, b.benchmark.name) ||
    compare(a.measure.name, b.measure.name)
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function results(project: ProjectRecord, metrics: readonly IngestedMetric[], iterations: number) {
  const out: NonNullable<ReportJson['results']> = Array.from({ length: iterations }, () => []);
  let current: { benchmark: DimensionRecord; iteration: number; measures: unknown[] } | undefined;
  // a report repeats a few measures and thresholds on every benchmark: each is shaped once (its dates formatted
  // once, not on each of hundreds of metrics); JSON.stringify writes a shared object as often as it appears
  const measureJsons = new Map<MeasureRecord, ReturnType<typeof measureJson>>();
  const thresholdJsons = new Map<Tested, ReturnType<typeof thresholdModelJson>>();
  const measureOf = (measure: MeasureRecord) =>
    measureJsons.get(measure) ?? measureJsons.set(measure, measureJson(project, measure)).get(measure);
  const thresholdOf = (tested: Tested) =>
    thresholdJsons.get(tested) ?? thresholdJsons.set(tested, thresholdModelJson(project, tested)).get(tested);
  for (const m of [...metrics].sort(byIterationBenchmarkMeasure)) {
    if (!current || current.benchmark.id !== m.benchmark.id || current.iteration !== m.iteration) {
      current = { benchmark: m.benchmark, iteration: m.iteration, measures: [] };
      (out[m.iteration] ??= []).push({
        iteration: m.iteration,
        benchmark: dimensionJson(project, m.benchmark),
        measures: current.measures as never,
      });
    }
    current.measures.push({
      measure: measureOf(m.measure),
      metric: metricJson(m),
      threshold: m.tested ? thresholdOf(m.tested) : null,
      boundary: m.boundary,
    });
  }
  return out;
}

/** Alerts with their threshold shown in full (one lookup per distinct threshold). */
export async function alertsJson(
  r: ReadRepositories,
  project: ProjectRecord,
  report: ReportRecord,
  version: VersionRecord | undefined,
  alerts: readonly { alert: AlertRecord; metric: IngestedMetric }[],
  /** Threshold JSON already built, by threshold id: shared by the calls of one answer. */
  thresholds = new Map<number, ThresholdJson>(),
): Promise<AlertJson[]> {
  const out: AlertJson[] = [];
  for (const { alert, metric } of alerts) {
    const tested = metric.tested as Tested;
    let threshold = thresholds.get(tested.threshold.id);
    if (!threshold) {
      threshold = await thresholdJson(r, project, tested.threshold as ThresholdRecord, tested.model);
      thresholds.set(tested.threshold.id, threshold);
    }
    out.push({
      uuid: alert.uuid,
      report: report.uuid,
      iteration: metric.iteration,
      benchmark: dimensionJson(project, metric.benchmark),
      measure: measureJson(project, metric.measure as MeasureRecord),
      metric: metricJson(metric),
      threshold,
      boundary: metric.boundary ?? { baseline: null, lower_limit: null, upper_limit: null },
      limit: alert.boundary_limit,
      change_point: await changePointJson(r, alert),
      status: alert.status,
      start_time: iso(report.start_time),
      version: versionJson(version),
      created: iso(alert.created),
      modified: iso(alert.modified),
    });
  }
  return out;
}

/** What a change-point alert measured, with the report that holds the metric starting the new regime. */
async function changePointJson(r: ReadRepositories, alert: AlertRecord): Promise<AlertJson['change_point']> {
  const { change_before: before, change_after: after, change_p_value: pValue } = alert;
  if (before === null || after === null || pValue === null) return null;
  const [metric] = await r.metrics.byIds([BigInt(alert.metric_id)]);
  const report = metric && (await r.reports.find({ id: metric.report_id }));
  if (!report) throw new NotFoundError(`the report of alert ${alert.uuid}'s metric is gone`);
  return { report: report.uuid, before, after, change: relativeChange(before, after), p_value: pValue };
}

export type ReportCounts = ReportJson['counts'];

/** Counts of a report held in memory (just ingested, or loaded whole). */
export function countsOf(data: Ingested, iterations: number): ReportCounts {
  return {
    results: Array.from({ length: iterations }, (_, i) => {
      const inIteration = data.metrics.filter((m) => m.iteration === i);
      return {
        benchmarks: new Set(inIteration.map((m) => m.benchmark.id)).size,
        measures: inIteration.length,
      };
    }),
    alerts: {
      active: data.alerts.filter((a) => a.alert.status === 'active').length,
      total: data.alerts.length,
    },
  };
}

type ReportRegressions = NonNullable<ReportJson['regressions']>;

/**
 * The wire form of a report. `data` needs metrics and alerts only with `expand` (lists leave results and
 * alerts out by default and pass counts computed by storage). `job`: the UUID of the job that produced it.
 */
export async function reportJson(
  r: ReadRepositories,
  data: Omit<Ingested, 'metrics' | 'alerts'> & Partial<Pick<Ingested, 'metrics' | 'alerts'>>,
  counts: ReportCounts,
  expand: boolean,
  job: string | null,
  /** The report's regressions when the caller read them for many reports at once. */
  regressions?: ReportRegressions,
): Promise<ReportJson> {
  const { report, project } = data;
  const organization = await r.organizations.find({ id: project.organization_id });
  return {
    uuid: report.uuid,
    user: data.user ? publicUserJson(data.user) : null,
    project: projectJson(project, organization ?? { uuid: '' }),
    branch: await branchJson(r, project, data.branch, data.head, data.version),
    testbed: dimensionJson(project, data.testbed),
    start_time: iso(report.start_time),
    end_time: iso(report.end_time),
    adapter: report.adapter,
    ...(expand
      ? {
          results: results(project, data.metrics ?? [], counts.results.length),
          alerts: await alertsJson(r, project, report, data.version, data.alerts ?? []),
          regressions: regressions ?? (await reportRegressions(r, data)),
        }
      : {}),
    counts,
    job,
    created: iso(report.created),
  };
}

/**
 * The regressions of a report's alerts: as ingest touched them (it knows whether it opened, joined or attached to
 * each), or, for a stored report, through the alerts' links.
 */
async function reportRegressions(
  r: ReadRepositories,
  data: Pick<Ingested, 'project' | 'report' | 'regressions'> & Partial<Pick<Ingested, 'alerts'>>,
): Promise<ReportRegressions> {
  if (!data.regressions) {
    const alertIds = (data.alerts ?? []).map((a) => a.alert.id);
    const stored = await storedReportRegressions(r, data.project, [{ id: data.report.id, alertIds }]);
    return stored.get(data.report.id) ?? [];
  }
  const touched = data.regressions;
  if (touched.length === 0) return [];
  const jsons = await regressionJsons(
    r,
    data.project,
    touched.map((t) => t.regression),
  );
  return touched.flatMap((t) => {
    const json = jsons.find((j) => j.uuid === t.regression.uuid);
    return json ? [{ how: t.how, regression: json }] : [];
  });
}

/**
 * The regressions of stored reports through their alerts' links, for a whole page of reports in a fixed number of
 * reads. Ingest opened a regression when the regression's first alert is the report's, and joined it when the
 * first alert of one of its series is; otherwise the report's alerts attached to it.
 */
export async function storedReportRegressions(
  r: ReadRepositories,
  project: ProjectRecord,
  reports: readonly { readonly id: number; readonly alertIds: readonly number[] }[],
): Promise<Map<number, ReportRegressions>> {
  const result = new Map<number, ReportRegressions>(reports.map((report) => [report.id, []]));
  const alertIds = [...new Set(reports.flatMap((report) => report.alertIds))];
  const links = alertIds.length > 0 ? await r.regressionAlerts.all({ alert_id: alertIds }) : [];
  const ids = [...new Set(links.map((l) => l.regression_id))];
  if (ids.length === 0) return result;
  const regressions = await r.regressions.all({ id: ids });
  const first = new Map<string, number>();
  for (const l of await r.regressionAlerts.all({ regression_id: ids })) {
    for (const key of [`${l.regression_id}`, `${l.regression_id}:${l.series_id}`]) {
      const seen = first.get(key);
      if (seen === undefined || l.alert_id < seen) first.set(key, l.alert_id);
    }
  }
  const jsons = new Map((await regressionJsons(r, project, regressions)).map((j) => [j.uuid, j]));
  const linkOf = new Map(links.map((l) => [l.alert_id, l]));
  for (const report of reports) {
    const own = new Set(report.alertIds);
    const mine = (key: string) => own.has(first.get(key) ?? -1);
    const held = report.alertIds.flatMap((id) => linkOf.get(id) ?? []);
    const touched: ReportRegressions = [];
    for (const regression of regressions) {
      const json = jsons.get(regression.uuid);
      const series = held.filter((l) => l.regression_id === regression.id);
      if (!json || series.length === 0) continue;
      const how = mine(`${regression.id}`)
        ? 'opened'
        : series.some((l) => mine(`${l.regression_id}:${l.series_id}`))
          ? 'joined'
          : 'attached';
      touched.push({ how, regression: json });
    }
    result.set(report.id, touched);
  }
  return result;
}
