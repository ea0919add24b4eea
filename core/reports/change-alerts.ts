import type { DetectionParams } from '../detection/detect.js';
import { modelParamsOf } from '../dimensions/threshold-models.js';
import type { ModelParams } from '../plugins/contracts.js';
import type { PluginRegistry } from '../plugins/registry.js';
import type { ServiceContext } from '../services/context.js';
import type { HistoryColumns } from '../storage/records.js';
import type { ReadRepositories } from '../storage/storage.js';
import type { Tested } from './boundary-job.js';

/** Points of the earlier answer within this distance of a change point mean it was already confirmed. */
const KNOWN_MARGIN = 3;

/** One metric of the report tested by a change-point model, with the values before it (newest first). */
export interface ChangeCandidate {
  readonly id: bigint;
  readonly value: number;
  readonly tested: Tested;
  /** The series' earlier values and their metric ids, newest first (this report's earlier iterations first). */
  readonly earlier: { readonly values: Float64Array; readonly ids: BigInt64Array };
  /** Indexes (oldest first) of the earlier metrics that already carry a change-point alert of this threshold. */
  readonly alerted: readonly number[];
}

/** A change point a report confirmed: the alert to raise on the metric that starts the new regime. */
export interface ConfirmedChange {
  readonly metric_id: bigint;
  readonly tested: Tested;
  readonly boundary_limit: 'lower' | 'upper';
  readonly change: { before: number; after: number; p_value: number };
}

/** The detector settings of a model whose plugin declares `changePoints`, or undefined for any other model. */
export function changeSettingsOf(registry: PluginRegistry, tested: Tested): DetectionParams | undefined {
  const { plugin } = registry.get('model', tested.model.test);
  return plugin.changePoints?.(plugin.params.parse(modelParamsOf(tested.model)));
}

/**
 * The change points a report confirms. Each candidate's series (oldest first) is detected twice in the worker
 * pool: without its new value and with it; {@link newlyConfirmed} tells which points the new value confirmed.
 * Each is kept when the side it moved to has a
 * boundary b and its p-value is below 1 − b. A point already found without the new value was confirmed (and
 * alerted) by an earlier report, so each change point is alerted once.
 */
export async function confirmChanges(
  ctx: ServiceContext,
  candidates: readonly ChangeCandidate[],
): Promise<ConfirmedChange[]> {
  const confirmed: ConfirmedChange[] = [];
  for (const [key, group] of groupBySettings(ctx.registry, candidates)) {
    const settings = JSON.parse(key) as DetectionParams;
    const series = group.flatMap(({ earlier, value }) => {
      const before = earlier.values.slice().reverse();
      const after = new Float64Array(before.length + 1);
      after.set(before);
      after[before.length] = value;
      return [before, after];
    });
    const offsets = new Uint32Array(series.length + 1);
    series.forEach((s, i) => (offsets[i + 1] = (offsets[i] as number) + s.length));
    const values = new Float64Array(offsets[series.length] as number);
    series.forEach((s, i) => values.set(s, offsets[i] as number));
    const found = await ctx.changePoints({ offsets, values, params: settings });
    group.forEach((candidate, k) => {
      const rows = (i: number) => range(found.offsets[i] as number, found.offsets[i + 1] as number);
      const known = rows(2 * k).map((j) => found.index[j] as number);
      const all = rows(2 * k + 1);
      const length = candidate.earlier.values.length;
      const alerted = candidate.alerted;
      for (const n of newlyConfirmed(
        known,
        all.map((j) => found.index[j] as number),
        length,
        alerted,
      )) {
        const j = all[n] as number;
        const change = {
          before: found.before[j] as number,
          after: found.after[j] as number,
          p_value: found.pValue[j] as number,
        };
        const side = sideOf(modelParamsOf(candidate.tested.model), change);
        if (side)
          confirmed.push({
            metric_id: idAt(candidate, found.index[j] as number),
            tested: candidate.tested,
            boundary_limit: side,
            change,
          });
      }
    });
  }
  return confirmed;
}

/**
 * Which change points (positions in `found`, the indexes detected once a new value is appended to a series of
 * `length` points) the new value confirms. `known` are the indexes detected without it, `alerted` those already
 * alerted. A point counts only with at least two values from it on (a lone outlier at the end looks like a
 * one-point regime); it is confirmed when the answers with and without the new value both count it, and is new
 * when no alerted point lies within {@link KNOWN_MARGIN} (answers move a point by a few indexes as data grows).
 * Requiring two answers lowers the false alerts of points that appear for one report only (2.6 to 1.8 per
 * 1,000 reports at 5% noise, bench change-confirmation), for one report more of delay.
 */
export function newlyConfirmed(
  known: readonly number[],
  found: readonly number[],
  length: number,
  alerted: readonly number[],
): number[] {
  const near = (indexes: readonly number[], index: number) =>
    indexes.some((at) => Math.abs(at - index) <= KNOWN_MARGIN);
  const counted = known.filter((index) => index < length - 1);
  return found.flatMap((index, n) =>
    index < length && near(counted, index) && !near(alerted, index) ? [n] : [],
  );
}

/** Candidates by their detector settings (one worker job each; a report's thresholds rarely differ). */
function groupBySettings(registry: PluginRegistry, candidates: readonly ChangeCandidate[]) {
  const groups = new Map<string, ChangeCandidate[]>();
  for (const candidate of candidates) {
    const key = JSON.stringify(changeSettingsOf(registry, candidate.tested));
    groups.set(key, [...(groups.get(key) ?? []), candidate]);
  }
  return groups;
}

/** `upper` for a step up, `lower` for a step down, when that side's boundary is set and the p-value passes it. */
function sideOf(params: ModelParams, change: ConfirmedChange['change']): 'lower' | 'upper' | undefined {
  const side = change.after > change.before ? 'upper' : 'lower';
  const boundary = side === 'upper' ? params.upper_boundary : params.lower_boundary;
  return boundary !== undefined && change.p_value < 1 - boundary ? side : undefined;
}

/** The metric id at `index` of the candidate's series, oldest first; the last index is the new value. */
function idAt(candidate: ChangeCandidate, index: number): bigint {
  const { ids } = candidate.earlier;
  return index === ids.length ? candidate.id : (ids[ids.length - 1 - index] as bigint);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}

/** A stored metric of the report as the change-point step sees it. */
export interface ReportMetric {
  readonly id: bigint;
  readonly iteration: number;
  readonly series: number;
  readonly value: number;
  readonly tested: Tested | null;
  /** Its benchmark carries an ignore suffix: no alert. */
  readonly ignored: boolean;
}

/**
 * The metrics of a report that a change-point model tests, each with the values before it: the report's
 * earlier iterations of the same series (newest first, as the boundary job orders them), then the stored
 * history the boundary job read, and the indexes of those already alerted as change points by the same threshold.
 */
export async function changeCandidates(
  r: ReadRepositories,
  registry: PluginRegistry,
  metrics: readonly ReportMetric[],
  history: HistoryColumns,
  historyIndex: ReadonlyMap<number, number>,
): Promise<ChangeCandidate[]> {
  const tested = metrics.filter((m) => m.tested && !m.ignored && changeSettingsOf(registry, m.tested));
  if (tested.length === 0) return [];
  const thresholds = [...new Set(tested.map((m) => (m.tested as Tested).threshold.id))];
  const alerted = new Set(
    (await r.alerts.all({ threshold_id: thresholds }))
      .filter((alert) => alert.change_p_value !== null)
      .map((alert) => `${alert.threshold_id}:${alert.metric_id}`),
  );
  const candidates: ChangeCandidate[] = [];
  for (const m of tested) {
    if (!m.tested) continue;
    const position = historyIndex.get(m.series) as number;
    const from = history.offsets[position] as number;
    const to = history.offsets[position + 1] as number;
    const sameReport = metrics
      .filter((other) => other.series === m.series && other.iteration < m.iteration)
      .sort((a, b) => b.iteration - a.iteration);
    const values = new Float64Array(sameReport.length + to - from);
    const ids = new BigInt64Array(values.length);
    sameReport.forEach((other, k) => {
      values[k] = other.value;
      ids[k] = other.id;
    });
    values.set(history.values.subarray(from, to), sameReport.length);
    ids.set(history.ids.subarray(from, to), sameReport.length);
    const threshold = m.tested.threshold.id;
    const alertedAt = Array.from(ids).flatMap((id, k) =>
      alerted.has(`${threshold}:${id}`) ? [ids.length - 1 - k] : [],
    );
    candidates.push({
      id: m.id,
      value: m.value,
      tested: m.tested,
      earlier: { values, ids },
      alerted: alertedAt,
    });
  }
  return candidates;
}
