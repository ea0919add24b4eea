import type {
  AlertRecord,
  BranchRecord,
  DimensionRecord,
  HeadRecord,
  MeasureRecord,
  MetricRecord,
  ModelRecord,
  ProjectRecord,
  ReportRecord,
  TestbedRecord,
  ThresholdRecord,
  VersionRecord,
} from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { Tested } from './boundary-job.js';
import type { Ingested, IngestedMetric } from './ingested.js';

type ReportContext = Omit<Ingested, 'metrics' | 'alerts'>;

/** Who wrote a report, where, and on which head and version. */
export async function loadReportContext(
  r: ReadRepositories,
  project: ProjectRecord,
  report: ReportRecord,
): Promise<ReportContext> {
  return (await loadReportContexts(r, project, [report]))[0]!;
}

/**
 * The contexts of many reports of one project, in their order: one statement per table for the whole page (a
 * version, and often a user, per report were one statement each).
 */
export async function loadReportContexts(
  r: ReadRepositories,
  project: ProjectRecord,
  reports: readonly ReportRecord[],
): Promise<ReportContext[]> {
  const rows = async <R extends { id: number }>(
    table: { all(where: { id: number[] }): Promise<R[]> },
    ids: readonly (number | null)[],
  ): Promise<Map<number, R>> => {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    return byId(wanted.length > 0 ? await table.all({ id: wanted }) : []);
  };
  const ids = (key: 'user_id' | 'branch_id' | 'head_id' | 'version_id' | 'testbed_id') =>
    reports.map((report) => report[key]);
  const [users, branches, heads, versions, testbeds] = await Promise.all([
    rows(r.users, ids('user_id')),
    rows(r.branches, ids('branch_id')),
    rows(r.heads, ids('head_id')),
    rows(r.versions, ids('version_id')),
    rows(r.testbeds, ids('testbed_id')),
  ]);
  return reports.map((report) => ({
    report,
    project,
    user: report.user_id !== null ? (users.get(report.user_id) ?? null) : null,
    branch: branches.get(report.branch_id) as BranchRecord,
    head: heads.get(report.head_id) as HeadRecord,
    version: versions.get(report.version_id) as VersionRecord,
    testbed: testbeds.get(report.testbed_id) as TestbedRecord,
  }));
}

/** A stored report in the shape ingest produces, so one function renders both. */
export async function loadReport(
  r: ReadRepositories,
  project: ProjectRecord,
  report: ReportRecord,
): Promise<{ data: Ingested; iterations: number }> {
  return (await loadReports(r, project, [report]))[0]!;
}

/**
 * Many stored reports of one project, in their order, in a fixed number of statements: their metrics, alerts and
 * contexts are each read for all of them at once (an expanded page of 255 reports ran four statements a report).
 */
export async function loadReports(
  r: ReadRepositories,
  project: ProjectRecord,
  reports: readonly ReportRecord[],
): Promise<{ data: Ingested; iterations: number }[]> {
  const ids = reports.map((report) => report.id);
  const rows = ids.length > 0 ? await r.metrics.byReports(ids) : [];
  const benchmarks = byId(await r.named.byIds('benchmark', [...new Set(rows.map((m) => m.benchmark_id))]));
  const measures = byId(await r.named.byIds('measure', [...new Set(rows.map((m) => m.measure_id))]));
  const tested = await testedById(r, rows);
  const alerts = await withMetrics(r, ids.length > 0 ? await r.alerts.all({ report_id: ids }) : []);
  const contexts = await loadReportContexts(r, project, reports);
  const rowsOf = Map.groupBy(rows, (row) => row.report_id);
  const alertsOf = Map.groupBy(alerts, ({ alert }) => alert.report_id);
  return contexts.map((context) => {
    const own = rowsOf.get(context.report.id) ?? [];
    return {
      data: {
        ...context,
        metrics: own.map((row) => metricOf(row, benchmarks, measures as Map<number, MeasureRecord>, tested)),
        alerts: alertsOf.get(context.report.id) ?? [],
      },
      iterations: own.reduce((max, m) => Math.max(max, m.iteration + 1), 1),
    };
  });
}

/**
 * Alerts with their metrics, each metric shown with the alert's own threshold and model: a change-point alert's
 * metric belongs to an earlier report, which may predate the threshold. Alerts whose metric, threshold or model
 * is gone are left out.
 */
export async function withMetrics(
  r: ReadRepositories,
  alerts: readonly AlertRecord[],
): Promise<{ alert: AlertRecord; metric: IngestedMetric }[]> {
  const rows = new Map(
    (await r.metrics.byIds(alerts.map((a) => BigInt(a.metric_id)))).map((m) => [BigInt(m.id), m]),
  );
  const benchmarks = byId(
    await r.named.byIds('benchmark', [...new Set([...rows.values()].map((m) => m.benchmark_id))]),
  );
  const measures = byId(
    await r.named.byIds('measure', [...new Set([...rows.values()].map((m) => m.measure_id))]),
  );
  const tested = new Map<number, Tested>();
  for (const alert of alerts) {
    if (tested.has(alert.model_id)) continue;
    const threshold = await r.thresholds.find({ id: alert.threshold_id });
    const model = await r.models.find({ id: alert.model_id });
    if (threshold && model) tested.set(alert.model_id, { threshold, model });
  }
  const out = [];
  for (const alert of alerts) {
    const row = rows.get(BigInt(alert.metric_id));
    const alertTested = tested.get(alert.model_id);
    if (!row || !alertTested) continue;
    const metric = metricOf(row, benchmarks, measures as Map<number, MeasureRecord>, tested);
    const boundary =
      row.model_id === null
        ? null
        : { baseline: row.baseline, lower_limit: row.lower_limit, upper_limit: row.upper_limit };
    out.push({ alert, metric: { ...metric, tested: alertTested, boundary } });
  }
  return out;
}

function byId<R extends { id: number }>(rows: readonly R[]): Map<number, R> {
  return new Map(rows.map((row) => [row.id, row]));
}

async function testedById(r: ReadRepositories, rows: readonly MetricRecord[]): Promise<Map<number, Tested>> {
  const out = new Map<number, Tested>();
  for (const row of rows) {
    if (row.model_id === null || row.threshold_id === null || out.has(row.model_id)) continue;
    const threshold = await r.thresholds.find({ id: row.threshold_id });
    const model = await r.models.find({ id: row.model_id });
    if (threshold && model)
      out.set(row.model_id, { threshold: threshold as ThresholdRecord, model: model as ModelRecord });
  }
  return out;
}

/** One stored metric row as ingest described it; its boundary is decoded from the stored columns. */
export function metricOf(
  row: MetricRecord,
  benchmarks: ReadonlyMap<number, DimensionRecord>,
  measures: ReadonlyMap<number, MeasureRecord>,
  tested: ReadonlyMap<number, Tested>,
): IngestedMetric {
  const modelTested = row.model_id !== null ? tested.get(row.model_id) : undefined;
  return {
    id: BigInt(row.id),
    uuid: row.uuid,
    iteration: row.iteration,
    benchmark: benchmarks.get(row.benchmark_id) as DimensionRecord,
    measure: measures.get(row.measure_id) as MeasureRecord,
    value: row.value,
    lower_value: row.lower_value,
    upper_value: row.upper_value,
    tested: modelTested ?? null,
    boundary: modelTested
      ? { baseline: row.baseline, lower_limit: row.lower_limit, upper_limit: row.upper_limit }
      : null,
  };
}
