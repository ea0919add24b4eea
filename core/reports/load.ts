import type {
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
import type { Ingested, IngestedMetric } from './ingest.js';

type ReportContext = Omit<Ingested, 'metrics' | 'alerts'>;

/** Who wrote a report, where, and on which head and version. */
export async function loadReportContext(
  r: ReadRepositories,
  project: ProjectRecord,
  report: ReportRecord,
): Promise<ReportContext> {
  return {
    report,
    project,
    user: report.user_id !== null ? ((await r.users.find({ id: report.user_id })) ?? null) : null,
    branch: (await r.branches.find({ id: report.branch_id })) as BranchRecord,
    head: (await r.heads.find({ id: report.head_id })) as HeadRecord,
    version: (await r.versions.find({ id: report.version_id })) as VersionRecord,
    testbed: (await r.testbeds.find({ id: report.testbed_id })) as TestbedRecord,
  };
}

/** A stored report in the shape ingest produces, so one function renders both. */
export async function loadReport(
  r: ReadRepositories,
  project: ProjectRecord,
  report: ReportRecord,
): Promise<{ data: Ingested; iterations: number }> {
  const rows = await r.metrics.byReport(report.id);
  const benchmarks = byId(await r.named.byIds('benchmark', [...new Set(rows.map((m) => m.benchmark_id))]));
  const measures = byId(await r.named.byIds('measure', [...new Set(rows.map((m) => m.measure_id))]));
  const tested = await testedById(r, rows);
  const metrics = rows.map((row) =>
    metricOf(row, benchmarks, measures as Map<number, MeasureRecord>, tested),
  );
  const byMetricId = new Map(metrics.map((m) => [m.id, m]));
  const alerts = (await r.alerts.all({ report_id: report.id }))
    .map((alert) => ({ alert, metric: byMetricId.get(BigInt(alert.metric_id)) as IngestedMetric }))
    .filter((a) => a.metric !== undefined);
  const data: Ingested = { ...(await loadReportContext(r, project, report)), metrics, alerts };
  return { data, iterations: rows.reduce((max, m) => Math.max(max, m.iteration + 1), 1) };
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
