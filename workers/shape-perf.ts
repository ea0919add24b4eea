import type { TransferListItem } from 'node:worker_threads';
import { setImmediate } from 'node:timers/promises';
import { perfCsv, perfJson, perfJsonSteps, type PerfShapeInput } from '../core/index.js';
import { fixedWidthColumns } from '../core/perf/shape.js';
import type { WorkerPool } from './pool.js';
import { packTexts } from '../core/perf/packed-texts.js';
import type { PerfShapeOutput, PerfShapeTask } from './tasks/perf-shape.js';

/**
 * CSV and Arrow answers with at least this many points are shaped in a worker, so the main thread never spends
 * long on one answer: shaping costs 1.5-3 us per point (8,000 points: 26 ms on a loaded 2-core machine), so
 * 2,000 points block the event loop for a few milliseconds at most.
 */
export const INLINE_MAX_POINTS = 2_000;

/**
 * JSON answers up to this many points are shaped on the main thread in steps of {@link JSON_SLICE_POINTS},
 * letting other requests run between steps; larger ones go to a worker. For perf query (a), 8,000 points, the
 * hop costs more than it saves (more process CPU, and the answer coming back from the worker forces full garbage
 * collections on the main thread); for 25,500 points the worker is faster. docs/performance.md has the figures.
 */
export const JSON_INLINE_MAX_POINTS = 10_000;

/** Points shaped between two turns of the event loop: about 2-5 ms of work. */
export const JSON_SLICE_POINTS = 2_000;

/**
 * Shapes a perf answer: inline when small (JSON in steps), in the pool otherwise (the columns' buffers move to
 * the worker, the text columns packed into typed arrays first).
 */
export async function shapePerf(
  pool: WorkerPool,
  input: PerfShapeInput,
  format: 'json' | 'csv' | 'arrow',
): Promise<Uint8Array> {
  if (format === 'json' && input.columns.count <= JSON_INLINE_MAX_POINTS) return jsonInSteps(input);
  if (input.columns.count < INLINE_MAX_POINTS) {
    // apache-arrow (146 files) is loaded with the first Arrow answer, not at start
    if (format === 'arrow') return (await import('../core/perf/arrow.js')).perfArrow(input);
    return format === 'csv' ? perfCsv(input) : perfJson(input);
  }
  const { hash, alert, alertLimit, alertStatus, ...c } = input.columns;
  const texts = {
    hash: packTexts(hash),
    alert: packTexts(alert),
    alertLimit: packTexts(alertLimit),
    alertStatus: packTexts(alertStatus),
  };
  const transfer: TransferListItem[] = [
    ...fixedWidthColumns(input.columns),
    ...Object.values(texts).map((packed) => packed.codes),
  ].map((array) => array.buffer as ArrayBuffer);
  const task: PerfShapeTask = { input: { ...input, columns: c }, texts, format };
  const output = await pool.run<PerfShapeOutput>('perf-shape', task, transfer);
  return output.bytes;
}

async function jsonInSteps(input: PerfShapeInput): Promise<Uint8Array> {
  const steps = perfJsonSteps(input, JSON_SLICE_POINTS);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await setImmediate();
  }
}
