import { randomUUID } from 'node:crypto';
import { applyStartPoint, versionFor, type StartPointInput } from '../dimensions/heads.js';
import { createDimension, createdMeanwhile, ensureDimension } from '../dimensions/dimensions.js';
import { findByNameId } from '../dimensions/name-id.js';
import { sameModel, setModel, upsertThreshold, type ValidModel } from '../dimensions/threshold-models.js';
import { NotFoundError } from '../errors.js';
import { holdBranch, holdProject } from '../projects/ingest-order.js';
import { alertLimit, type BoundaryLimit } from '../boundaries/alert.js';
import { boundaryAt, type Boundary } from '../boundaries/boundary-columns.js';
import type { ServiceContext } from '../services/context.js';
import { chargeMetrics } from '../plus/quota.js';
import { isUuid } from '../slug.js';
import type {
  BranchRecord,
  DimensionRecord,
  HeadRecord,
  MeasureRecord,
  OrganizationRecord,
  ProjectRecord,
  ReportRecord,
  TestbedRecord,
  UserRecord,
} from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import { buildBoundaryJob, type Tested } from './boundary-job.js';
import type { Ingested, IngestedMetric } from './ingested.js';
import { changeCandidates, changeSettingsOf, confirmChanges, type ConfirmedChange } from './change-alerts.js';
import { withMetrics } from './load.js';
import { ensureNamed } from './names.js';
import type { PreparedResults } from './prepare.js';
import { uuidv7s } from './uuid.js';
import { notifyReport } from '../notifications/outbox.js';
import { groupAlerts } from '../regressions/grouping.js';

export interface IngestInput {
  readonly branch: string;
  readonly testbed: string;
  readonly hash?: string | null | undefined;
  readonly start_point?: StartPointInput | undefined;
  /** Inline thresholds, already validated by their model plugins, by measure key. */
  readonly models?: ReadonlyMap<string, ValidModel>;
  readonly resetThresholds?: boolean | undefined;
  readonly start_time: Date;
  readonly end_time: Date;
  readonly idempotency_key?: string | undefined;
}

/**
 * Writes one report inside the caller's transaction: the organization's metric count (refused over its quota or
 * license), dimensions (get-or-create, unarchive), version, inline thresholds, the report (and its
 * `report.created` notification when a webhook wants it), its metrics in one bulk append, their boundaries (one
 * history query, one boundary job), and alerts. Any error leaves nothing behind (the transaction rolls back).
 */
export async function ingest(
  ctx: ServiceContext,
  tx: WriteRepositories,
  target: {
    project: ProjectRecord;
    user: UserRecord | null;
    /** The project's organization when the caller read it in this transaction (and changed nothing of it). */
    organization?: OrganizationRecord | undefined;
  },
  input: IngestInput,
  prepared: PreparedResults,
): Promise<Ingested> {
  const now = ctx.now();
  const project = await holdProject(tx, target.project);
  const organization =
    target.organization?.id === project.organization_id
      ? target.organization
      : await tx.organizations.find({ id: project.organization_id });
  if (organization) await chargeMetrics(ctx, tx, organization, prepared.metrics.length, now);
  const branch = await resolveBranch(tx, project.id, input.branch, input.start_point, now);
  const testbed = (await ensureDimension(tx, project.id, 'testbed', input.testbed, now)) as TestbedRecord;
  const head = (await tx.heads.find({ id: branch.head_id as number })) as HeadRecord;
  const { version, newest } = await versionFor(tx, project.id, head, input.hash ?? undefined, now);
  const benchmarks = await ensureNamed(tx, 'benchmark', project.id, prepared.benchmarks, now);
  const modelKeys = [...(input.models?.keys() ?? [])];
  const measures = await ensureNamed(
    tx,
    'measure',
    project.id,
    [...new Set([...prepared.measures, ...modelKeys])],
    now,
  );
  const tested = await applyInlineThresholds(tx, project.id, branch.id, testbed.id, measures, input, now);
  const pairs = prepared.metrics.map(
    (m) => [benchmarks.get(m.benchmark)?.id, measures.get(m.measure)?.id] as [number, number],
  );
  const series = await tx.named.ensureSeries(project.id, testbed.id, pairs);

  // History first: the report row must not exist yet, or it would count among the newest reports that bound
  // the history query without having any metrics.
  const jobMetrics = prepared.metrics.map((m, i) => ({
    iteration: m.iteration,
    series: series[i] as number,
    measureId: pairs[i]?.[1] as number,
    value: m.metric.value,
  }));
  const { job, metricOf, history, historyIndex } = await buildBoundaryJob(
    tx,
    ctx.registry,
    head.id,
    jobMetrics,
    tested,
    now,
  );
  const columns = metricOf.length > 0 ? await ctx.boundaries(job) : undefined;
  const boundaries = new Map<number, Boundary>();
  metricOf.forEach((metricIndex, j) => boundaries.set(metricIndex, boundaryAt(columns!, j)));

  const report = await tx.reports.insert({
    uuid: randomUUID(),
    project_id: project.id,
    user_id: target.user?.id ?? null,
    branch_id: branch.id,
    head_id: head.id,
    version_id: version.id,
    testbed_id: testbed.id,
    adapter: prepared.adapter,
    idempotency_key: input.idempotency_key ?? null,
    start_time: input.start_time,
    end_time: input.end_time,
    created: now,
  });
  await notifyReport(tx, project, report, now);

  const uuids = uuidv7s(prepared.metrics.length, now);
  const metrics = prepared.metrics.map((m, i): IngestedMetric => {
    const measure = measures.get(m.measure) as MeasureRecord;
    return {
      id: 0n,
      uuid: uuids[i] as string,
      iteration: m.iteration,
      benchmark: benchmarks.get(m.benchmark) as DimensionRecord,
      measure,
      value: m.metric.value,
      lower_value: m.metric.lower_value ?? null,
      upper_value: m.metric.upper_value ?? null,
      tested: tested.get(measure.id) ?? null,
      boundary: boundaries.get(i) ?? null,
    };
  });
  const ids = await tx.metrics.append(report, metricColumns(metrics, series));
  const stored = metrics.map((m, i) => ({ ...m, id: ids[i] as bigint }));
  const ignored = new Set([...prepared.ignored].map((key) => benchmarks.get(key)?.id));
  const reportMetrics = stored.map((m, i) => ({
    ...m,
    series: series[i] as number,
    ignored: ignored.has(m.benchmark.id),
  }));
  const candidates = await changeCandidates(tx, ctx.registry, reportMetrics, history, historyIndex);
  const changes = candidates.length > 0 ? await confirmChanges(ctx, candidates) : [];
  const pointTested = reportMetrics.filter(
    (m) => !m.ignored && m.tested && !changeSettingsOf(ctx.registry, m.tested),
  );
  const alerts = await raiseAlerts(tx, report, pointTested, changes, now);
  const { regressions, alertedSeries } = await groupAlerts(
    tx,
    { report, project, branch, head, version, testbed, alerts },
    now,
  );
  return {
    report,
    project,
    user: target.user,
    branch,
    head,
    version,
    testbed,
    metrics: stored,
    alerts,
    regressions,
    series: [...new Set(series)],
    alertedSeries,
    held: { organization, latestVersion: newest ? version : undefined },
  };
}

/**
 * The report's branch, held by this transaction (see `holdBranch`): found by NameId (unarchived if needed, moved
 * to a new head when the start point says so), or created, from its start point when one is given. A UUID that
 * does not exist is a 404 (spec).
 */
export function resolveBranch(
  tx: WriteRepositories,
  projectId: number,
  ref: string,
  startPoint: StartPointInput | undefined,
  now: Date,
): Promise<BranchRecord> {
  return createdMeanwhile(async () => {
    const named = await findByNameId(tx.branches, projectId, ref);
    const found = named && (await holdBranch(tx, named));
    if (!found) {
      if (isUuid(ref)) throw new NotFoundError(`branch "${ref}" not found in this project`);
      return (await createDimension(
        tx,
        projectId,
        'branch',
        { name: ref, start_point: startPoint },
        now,
      )) as BranchRecord;
    }
    if (found.archived) await tx.branches.update({ id: found.id }, { archived: false, modified: now });
    const branch = found.archived ? { ...found, archived: false, modified: now } : found;
    if (!startPoint) return branch;
    const { head } = await applyStartPoint(tx, branch, startPoint, now);
    return { ...branch, head_id: head.id };
  });
}

/** Thresholds of a branch and testbed with their current models (two queries), by measure id. */
async function thresholdsOf(tx: WriteRepositories, branchId: number, testbedId: number) {
  const thresholds = await tx.thresholds.all({ branch_id: branchId, testbed_id: testbedId });
  const ids = thresholds.flatMap((t) => (t.model_id === null ? [] : [t.model_id]));
  const models = new Map((await tx.models.all({ id: ids })).map((m) => [m.id, m]));
  return new Map(
    thresholds.map((threshold) => [
      threshold.measure_id,
      { threshold, model: threshold.model_id === null ? null : (models.get(threshold.model_id) ?? null) },
    ]),
  );
}

/**
 * `thresholds.models` creates or replaces models by measure (an identical model changes nothing, so a CI job
 * that sends its thresholds on every run writes nothing); `thresholds.reset` removes the others' models.
 * Returns the thresholds that test this report: those with a model, by measure id.
 */
async function applyInlineThresholds(
  tx: WriteRepositories,
  projectId: number,
  branchId: number,
  testbedId: number,
  measures: ReadonlyMap<string, DimensionRecord>,
  input: IngestInput,
  now: Date,
): Promise<Map<number, Tested>> {
  let current = await thresholdsOf(tx, branchId, testbedId);
  let changed = false;
  const kept = new Set<number>();
  for (const [key, model] of input.models ?? []) {
    const measureId = (measures.get(key) as DimensionRecord).id;
    kept.add(measureId);
    const entry = current.get(measureId);
    if (entry?.model && sameModel(entry.model, model)) continue;
    changed = true;
    await upsertThreshold(
      tx,
      { project_id: projectId, branch_id: branchId, testbed_id: testbedId, measure_id: measureId },
      model,
      now,
    );
  }
  if (input.resetThresholds) {
    for (const [measureId, entry] of current) {
      if (kept.has(measureId) || !entry.model) continue;
      changed = true;
      await setModel(tx, entry.threshold, null, now);
    }
  }
  if (changed) current = await thresholdsOf(tx, branchId, testbedId);
  const tested = new Map<number, Tested>();
  for (const [measureId, { threshold, model }] of current)
    if (model) tested.set(measureId, { threshold, model });
  return tested;
}

function metricColumns(metrics: readonly IngestedMetric[], series: Int32Array) {
  const n = metrics.length;
  const f = () => new Float64Array(n).fill(Number.NaN);
  const columns = {
    uuid: metrics.map((m) => m.uuid),
    iteration: Int32Array.from(metrics, (m) => m.iteration),
    series,
    value: Float64Array.from(metrics, (m) => m.value),
    lower: f(),
    upper: f(),
    threshold: new Int32Array(n),
    model: new Int32Array(n),
    baseline: f(),
    lowerLimit: f(),
    upperLimit: f(),
  };
  metrics.forEach((m, i) => {
    if (m.lower_value !== null) columns.lower[i] = m.lower_value;
    if (m.upper_value !== null) columns.upper[i] = m.upper_value;
    if (m.tested) {
      columns.threshold[i] = m.tested.threshold.id;
      columns.model[i] = m.tested.model.id;
    }
    if (m.boundary) {
      columns.baseline[i] = m.boundary.baseline ?? Number.NaN;
      columns.lowerLimit[i] = m.boundary.lower_limit ?? Number.NaN;
      columns.upperLimit[i] = m.boundary.upper_limit ?? Number.NaN;
    }
  });
  return columns;
}

/**
 * An alert for every point-tested metric outside its limits, and one for every change point the report
 * confirmed (on the earlier metric that starts the new regime).
 */
async function raiseAlerts(
  tx: WriteRepositories,
  report: ReportRecord,
  metrics: readonly IngestedMetric[],
  changes: readonly ConfirmedChange[],
  now: Date,
) {
  const crossed: { metric: IngestedMetric; limit: BoundaryLimit }[] = [];
  for (const metric of metrics) {
    const limit = metric.boundary && alertLimit(metric.value, metric.boundary);
    if (limit) crossed.push({ metric, limit });
  }
  const tested = (metric: IngestedMetric) => metric.tested as Tested;
  const alerts = await tx.alerts.raise(
    report,
    [
      ...crossed.map(({ metric, limit }) => ({
        metric_id: metric.id,
        threshold_id: tested(metric).threshold.id,
        model_id: tested(metric).model.id,
        boundary_limit: limit,
      })),
      ...changes.map((c) => ({
        metric_id: c.metric_id,
        threshold_id: c.tested.threshold.id,
        model_id: c.tested.model.id,
        boundary_limit: c.boundary_limit,
        change: c.change,
      })),
    ],
    now,
  );
  const byMetric = new Map(crossed.map(({ metric }) => [metric.id, metric]));
  const pointAlerts = alerts.filter((alert) => alert.change_p_value === null);
  return [
    ...pointAlerts.map((alert) => ({
      alert,
      metric: byMetric.get(BigInt(alert.metric_id)) as IngestedMetric,
    })),
    ...(await withMetrics(
      tx,
      alerts.filter((alert) => alert.change_p_value !== null),
    )),
  ];
}
