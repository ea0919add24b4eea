import type { Caller } from '../access/permissions.js';
import { requireProject } from '../access/resolve.js';
import { branchJson, dimensionJson, measureJson } from '../dimensions/json.js';
import { NotFoundError } from '../errors.js';
import { iso } from '../schemas/common.js';
import type { ServiceContext } from '../services/context.js';
import type { MeasureRecord } from '../storage/records.js';
import { metricJson, thresholdModelJson } from './json.js';
import { loadReportContext, metricOf } from './load.js';

/** `GET /v0/projects/{project}/metrics/{metric}`: one metric with its context, boundary and alert. */
export async function getMetric(ctx: ServiceContext, caller: Caller, projectRef: string, uuid: string) {
  return ctx.storage.read(async (r) => {
    const { project } = await requireProject(r, caller, projectRef, 'view');
    const row = await r.metrics.byUuid(project.id, uuid.toLowerCase());
    const report = row ? await r.reports.find({ id: row.report_id }) : undefined;
    if (!row || !report) throw new NotFoundError(`metric "${uuid}" not found`);
    const [benchmark] = await r.named.byIds('benchmark', [row.benchmark_id]);
    const [measure] = await r.named.byIds('measure', [row.measure_id]);
    const threshold =
      row.threshold_id !== null ? await r.thresholds.find({ id: row.threshold_id }) : undefined;
    const model = row.model_id !== null ? await r.models.find({ id: row.model_id }) : undefined;
    const tested = threshold && model ? new Map([[model.id, { threshold, model }]]) : new Map();
    const metric = metricOf(
      row,
      new Map([[row.benchmark_id, benchmark!]]),
      new Map([[row.measure_id, measure as MeasureRecord]]),
      tested,
    );
    const context = await loadReportContext(r, project, report);
    const alert = await r.alerts.find({ metric_id: row.id });
    return {
      uuid: metric.uuid,
      report: report.uuid,
      iteration: metric.iteration,
      start_time: iso(report.start_time),
      end_time: iso(report.end_time),
      branch: await branchJson(r, project, context.branch, context.head, context.version),
      testbed: dimensionJson(project, context.testbed),
      benchmark: dimensionJson(project, metric.benchmark),
      measure: measureJson(project, metric.measure),
      metric: metricJson(metric),
      threshold: metric.tested ? thresholdModelJson(project, metric.tested) : null,
      boundary: metric.boundary,
      alert: alert
        ? {
            uuid: alert.uuid,
            limit: alert.boundary_limit,
            status: alert.status,
            modified: iso(alert.modified),
          }
        : null,
    };
  });
}
