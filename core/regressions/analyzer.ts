import { holdBranch, holdProject, INGEST } from '../projects/ingest-order.js';
import type { ServiceContext } from '../services/context.js';
import type { ReadRepositories } from '../storage/storage.js';
import { applyDetections, type AnalysisTarget, type AnalyzedSeries } from './analysis.js';
import { detectSeries } from './detect.js';
import { guardedSide, kindOf, measureDirection } from './direction.js';
import type { RegressionChange } from './lifecycle.js';

/** Series analyzed in one pass at most: one perf read and one detection job each. */
const SERIES_PER_PASS = 255;

/**
 * Every this many reports of a branch and testbed (and at the first one this process sees), a pass analyzes all
 * of their series, to find the changes no threshold flagged; the passes between analyze only the series that
 * alerted and those of regressions waiting for the detector, which keeps the cost of a report without alerts
 * near nothing.
 */
export const FULL_PASS_EVERY = 10;

/** A branch and testbed whose series a report just wrote to. */
export interface AnalysisRequest extends AnalysisTarget {
  readonly series: readonly number[];
  /** The series of the report's alerts. */
  readonly alerted: readonly number[];
}

interface Pending {
  readonly target: AnalysisTarget;
  readonly series: Set<number>;
  readonly alerted: Set<number>;
  full: boolean;
}

/**
 * Runs the change-point analysis of regressions after each report commits, off the report's own request: reads
 * the newest reports' points of the series it wrote, detects their change points in the worker pool, and applies
 * the findings in a short transaction that holds the branch (core/regressions/analysis.ts). Requests for one
 * branch and testbed that arrive while one waits are merged; one analysis runs at a time, so a burst of reports
 * costs one pass per branch and testbed, not one per report. A pass that fails is logged; the next report of its
 * branch and testbed analyzes its series again. Pending passes live in this process only: after a restart the
 * next report brings them back.
 */
export class RegressionAnalyzer {
  readonly #pending = new Map<string, Pending>();
  /** Reports of each branch and testbed since its last full pass. */
  readonly #sinceFull = new Map<string, number>();
  #running: Promise<void> | undefined;
  readonly #listeners: ((changes: readonly RegressionChange[]) => void)[] = [];

  constructor(private readonly ctx: ServiceContext) {}

  /** Calls `listener` with the changes of every pass that made some. */
  onChanges(listener: (changes: readonly RegressionChange[]) => void): void {
    this.#listeners.push(listener);
  }

  request(request: AnalysisRequest): void {
    if (request.series.length === 0) return;
    const key = `${request.headId}:${request.testbedId}`;
    const since = this.#sinceFull.get(key);
    const full = since === undefined || since + 1 >= FULL_PASS_EVERY;
    this.#sinceFull.set(key, full ? 0 : (since ?? 0) + 1);
    const pending = this.#pending.get(key) ?? {
      target: request,
      series: new Set<number>(),
      alerted: new Set<number>(),
      full: false,
    };
    for (const id of request.series) pending.series.add(id);
    for (const id of request.alerted) pending.alerted.add(id);
    pending.full ||= full;
    this.#pending.set(key, pending);
    this.#running ??= this.#drain().finally(() => (this.#running = undefined));
  }

  /** Settles once no pass is pending or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    for (;;) {
      const next = this.#pending.entries().next();
      if (next.done) return;
      const [key, pending] = next.value;
      this.#pending.delete(key);
      const { target } = pending;
      let ids: number[];
      try {
        ids = pending.full ? [...pending.series] : await this.#worthAnalyzing(pending);
      } catch (error) {
        this.ctx.logger.warn({ err: error, branch: target.branchId }, 'regression analysis failed');
        continue;
      }
      for (let i = 0; i < ids.length; i += SERIES_PER_PASS) {
        try {
          await this.#analyze(target, ids.slice(i, i + SERIES_PER_PASS));
        } catch (error) {
          this.ctx.logger.warn({ err: error, branch: target.branchId }, 'regression analysis failed');
        }
      }
    }
  }

  /** The series a pass between full ones analyzes: those that alerted, and those of waiting regressions. */
  async #worthAnalyzing({ target, series, alerted }: Pending): Promise<number[]> {
    const waiting = await this.ctx.storage.read(async (r) => {
      const regressions = await r.regressions.all({
        project_id: target.projectId,
        branch_id: target.branchId,
        head_id: target.headId,
        testbed_id: target.testbedId,
        status: ['suspected', 'untriaged', 'acknowledged'],
      });
      if (regressions.length === 0) return [];
      return r.regressionSeries.all({ regression_id: regressions.map((x) => x.id) });
    });
    const wanted = new Set([...alerted, ...waiting.map((s) => s.series_id)]);
    return [...series].filter((id) => wanted.has(id));
  }

  async #analyze(target: AnalysisTarget, series: readonly number[]): Promise<void> {
    const analyzed = await this.ctx.storage.read(async (r) => {
      const detections = await detectSeries(this.ctx, r, target, series);
      // nothing to decide: no change point, and no regression waiting for one
      const waiting = await r.regressions.count({
        project_id: target.projectId,
        branch_id: target.branchId,
        head_id: target.headId,
        testbed_id: target.testbedId,
        status: ['suspected', 'untriaged', 'acknowledged'],
      });
      if (waiting === 0 && detections.every((d) => d.changes.length === 0)) return [];
      return withKinds(r, target, detections);
    });
    if (analyzed.length === 0) return;
    const changes = await this.ctx.storage.transaction(async (tx) => {
      const project = await tx.projects.find({ id: target.projectId });
      const branch = await tx.branches.find({ id: target.branchId });
      if (!project || !branch) return [];
      await holdProject(tx, project);
      const held = await holdBranch(tx, branch);
      // a report that reset the branch's head meanwhile leaves this pass nothing to decide
      if (held?.head_id !== target.headId) return [];
      return applyDetections(tx, target, analyzed, this.ctx.now());
    }, INGEST);
    if (changes.length > 0) for (const listener of this.#listeners) listener(changes);
  }
}

/** Each detected series with its record and which way of change is a regression (measure, threshold). */
async function withKinds(
  r: ReadRepositories,
  target: AnalysisTarget,
  detections: Awaited<ReturnType<typeof detectSeries>>,
): Promise<AnalyzedSeries[]> {
  const series = new Map(
    (await r.series.all({ id: detections.map((d) => d.seriesId) })).map((s) => [s.id, s]),
  );
  const measureIds = [...new Set([...series.values()].map((s) => s.measure_id))];
  const measures = new Map((await r.measures.all({ id: measureIds })).map((m) => [m.id, m]));
  const thresholds = await r.thresholds.all({
    project_id: target.projectId,
    branch_id: target.branchId,
    testbed_id: target.testbedId,
    measure_id: measureIds,
  });
  const models = new Map(
    (await r.models.all({ id: thresholds.flatMap((t) => (t.model_id === null ? [] : [t.model_id])) })).map(
      (m) => [m.threshold_id, m],
    ),
  );
  const guarded = new Map(thresholds.map((t) => [t.measure_id, guardedSide(models.get(t.id) ?? null)]));
  return detections.flatMap((d) => {
    const record = series.get(d.seriesId);
    const measure = record && measures.get(record.measure_id);
    if (!record || !measure) return [];
    const direction = measureDirection(measure);
    const side = guarded.get(measure.id) ?? null;
    return [{ ...d, series: record, kindOf: (up: boolean) => kindOf(direction, side, up) }];
  });
}
