import { PluginError } from '../errors.js';
import type { ModelPlugin } from '../plugins/contracts.js';
import type { PluginRegistry, RegisteredPlugin } from '../plugins/registry.js';
import type { HistoryColumns, ModelRecord, ThresholdRecord } from '../storage/records.js';
import type { WriteRepositories } from '../storage/storage.js';
import type { BoundaryJob, BoundaryModelRef } from '../services/context.js';
import { modelParamsOf } from '../dimensions/threshold-models.js';

/** Stored values a test reads at most per series: a model without max_sample_size still reads a bounded history. */
const HISTORY_CAP = 65_536;

export interface Tested {
  readonly threshold: ThresholdRecord;
  readonly model: ModelRecord;
}

/** One metric of the report as the job sees it. */
export interface JobMetric {
  readonly iteration: number;
  readonly series: number;
  readonly measureId: number;
  readonly value: number;
}

/** A report's boundary job, and the stored history it was built from (change points are confirmed on it). */
export interface ReportBoundaryJob {
  readonly job: BoundaryJob;
  /** Per job entry, the index of the metric it tests. */
  readonly metricOf: Int32Array;
  readonly history: HistoryColumns;
  /** Position of each tested series in `history`. */
  readonly historyIndex: ReadonlyMap<number, number>;
}

/**
 * Builds the boundary job of a report: for every metric whose measure has a threshold with a model, its sample
 * is the same series' values of the report's earlier iterations (newest first; iteration k sees k-1..0, as
 * the reference commits iterations one by one) followed by the stored history, which ONE storage query returns
 * for all series. Returns the job and, per job entry, the index of the metric it tests.
 */
export async function buildBoundaryJob(
  tx: WriteRepositories,
  registry: PluginRegistry,
  headId: number,
  metrics: readonly JobMetric[],
  tested: ReadonlyMap<number, Tested>,
  now: Date,
): Promise<ReportBoundaryJob> {
  const metricOf: number[] = [];
  metrics.forEach((m, i) => tested.has(m.measureId) && metricOf.push(i));
  const measureOfSeries = new Map(
    metricOf.map((i) => [(metrics[i] as JobMetric).series, (metrics[i] as JobMetric).measureId]),
  );
  const seriesOrder = [...measureOfSeries.keys()];
  const modelOfSeries = seriesOrder.map((s) => tested.get(measureOfSeries.get(s) as number) as Tested);
  const history = await tx.metrics.history({
    headId,
    series: Int32Array.from(seriesOrder),
    maxSamples: Int32Array.from(modelOfSeries, (t) =>
      Math.min(t.model.max_sample_size ?? HISTORY_CAP, HISTORY_CAP),
    ),
    since: Float64Array.from(modelOfSeries, (t) =>
      t.model.window_seconds === null ? -Infinity : now.getTime() - Number(t.model.window_seconds) * 1000,
    ),
  });
  const historyIndex = new Map(seriesOrder.map((s, i) => [s, i]));
  const earlier = new Map<string, number>();
  for (const m of metrics) earlier.set(`${m.series}:${m.iteration}`, m.value);

  const models: BoundaryModelRef[] = [];
  const modelSlot = new Map<number, number>();
  const offsets = new Uint32Array(metricOf.length + 1);
  const values: number[] = [];
  const modelIndex = new Uint16Array(metricOf.length);
  metricOf.forEach((index, j) => {
    const m = metrics[index] as JobMetric;
    for (let k = m.iteration - 1; k >= 0; k--) {
      const value = earlier.get(`${m.series}:${k}`);
      if (value !== undefined) values.push(value);
    }
    const h = historyIndex.get(m.series) as number;
    for (let v = history.offsets[h] as number; v < (history.offsets[h + 1] as number); v++)
      values.push(history.values[v] as number);
    offsets[j + 1] = values.length;
    const { model } = tested.get(m.measureId) as Tested;
    let slot = modelSlot.get(model.id);
    if (slot === undefined) {
      slot = models.push(modelRef(registry.get('model', model.test), modelParamsOf(model))) - 1;
      modelSlot.set(model.id, slot);
    }
    modelIndex[j] = slot;
  });
  return {
    job: { offsets, values: Float64Array.from(values), modelIndex, models },
    metricOf: Int32Array.from(metricOf),
    history,
    historyIndex,
  };
}

/** The reference a boundary job carries for a registered model: its module specifier, id and parameters. */
export function modelRef(entry: RegisteredPlugin<ModelPlugin>, params: unknown): BoundaryModelRef {
  if (entry.module === undefined) {
    throw new PluginError(
      `model ${entry.plugin.id} was registered without its module specifier, so worker threads cannot load it; register it with { module } or through PluginRegistry.load`,
      { model: entry.plugin.id },
    );
  }
  return { module: entry.module, id: entry.plugin.id, params };
}
