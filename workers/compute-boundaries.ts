import type { TransferListItem } from 'node:worker_threads';
import type { BoundaryColumns, BoundaryJob } from '../core/index.js';
import type { WorkerPool } from './pool.js';
import { checkJob, computeBoundaryColumns } from './tasks/boundaries.js';
import { fromWireError } from './tasks/wire-error.js';

/**
 * Jobs with fewer sample values than this run inline: below it a worker round trip costs more than the work.
 * Under ingest load the hop costs far more than on an idle pool, and a report's transaction waits for it while
 * the single writer idles, so a report of up to 256 series of 64 runs inline, blocking the event loop for well
 * under a millisecond; larger jobs go to the pool, split into pieces of at least this size. The crossover and
 * the costs are measured by `npm run bench -- boundaries-crossover` and bench/ingest-anatomy.ts
 * (docs/performance.md).
 */
export const INLINE_MAX_VALUES = 16_384;

export interface BoundaryRunOptions {
  /** `auto` (default) picks by size; `inline` and `pool` force a path (tests and benchmarks). */
  readonly mode?: 'auto' | 'inline' | 'pool';
}

/**
 * Computes the boundary columns of a job: inline when it is small (see {@link INLINE_MAX_VALUES}), otherwise
 * in the pool, split by series into up to `pool.maxThreads` pieces. The job's arrays are consumed: when a
 * piece is the whole job they are moved to the worker and left detached here. Decode the result with
 * `boundaryAt`; NaN means "no value" and must not reach API consumers.
 */
export async function computeBoundaries(
  pool: WorkerPool,
  job: BoundaryJob,
  options: BoundaryRunOptions = {},
): Promise<BoundaryColumns> {
  const mode = options.mode ?? 'auto';
  if (mode === 'inline' || (mode === 'auto' && job.values.length < INLINE_MAX_VALUES)) {
    return computeBoundaryColumns(job);
  }
  const count = checkJob(job);
  const pieces = Math.max(
    1,
    Math.min(pool.maxThreads, Math.floor(job.values.length / INLINE_MAX_VALUES), count),
  );
  if (pieces === 1) return runInPool(pool, job);
  const bounds = splitSeries(job.offsets, pieces);
  const running: Promise<BoundaryColumns>[] = [];
  for (let k = 0; k < pieces; k++) {
    // each piece starts computing while the next one is being copied
    running.push(runInPool(pool, await pieceOf(job, bounds[k] as number, bounds[k + 1] as number)));
  }
  return mergeColumns(await Promise.all(running), count);
}

function runInPool(pool: WorkerPool, job: BoundaryJob): Promise<BoundaryColumns> {
  const sendable = {
    ...job,
    offsets: owned(job.offsets),
    values: owned(job.values),
    modelIndex: owned(job.modelIndex),
  };
  const transfer: TransferListItem[] = [sendable.offsets, sendable.values, sendable.modelIndex]
    .map((array) => array.buffer)
    .filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
  return pool.run<BoundaryColumns>('boundaries', sendable, transfer).catch((error: unknown) => {
    throw fromWireError(error);
  });
}

/**
 * An array that owns its whole buffer, so moving the buffer moves exactly this data: structured cloning or
 * transferring a view would carry (or detach) the entire underlying buffer. A SharedArrayBuffer is shared,
 * never copied or moved.
 */
export function owned<T extends Uint32Array | Float64Array | Uint16Array>(array: T): T {
  const whole = array.byteOffset === 0 && array.byteLength === array.buffer.byteLength;
  return whole || !(array.buffer instanceof ArrayBuffer) ? array : (array.slice() as T);
}

/** Series indexes where pieces start (plus the end), balancing sample values rather than series. */
export function splitSeries(offsets: Uint32Array, pieces: number): number[] {
  const count = offsets.length - 1;
  const total = offsets[count] as number;
  const bounds = [0];
  for (let k = 1; k < pieces; k++) {
    const target = (total * k) / pieces;
    let lo = bounds[k - 1] as number;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((offsets[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    bounds.push(lo);
  }
  bounds.push(count);
  return bounds;
}

/** Series [start, end) of a job as a job of its own, in new buffers that can be moved. */
async function pieceOf(job: BoundaryJob, start: number, end: number): Promise<BoundaryJob> {
  const base = job.offsets[start] as number;
  const offsets = job.offsets.slice(start, end + 1);
  for (let i = 0; i < offsets.length; i++) offsets[i] = (offsets[i] as number) - base;
  return {
    offsets,
    values: await copyYielding(job.values, base, job.offsets[end] as number),
    modelIndex: job.modelIndex.slice(start, end),
    models: job.models,
  };
}

/** Values copied per step: about 2 MB, a millisecond or so of memcpy. */
const COPY_STEP = 262_144;

/**
 * `values.slice(start, end)`, yielding to the event loop between steps: a 50 MB job copied in one go would block
 * the loop for tens of milliseconds; in steps it blocks for about one step at a time.
 */
export async function copyYielding(values: Float64Array, start: number, end: number): Promise<Float64Array> {
  const copy = new Float64Array(end - start);
  for (let at = start; at < end; at += COPY_STEP) {
    if (at > start) await new Promise<void>((resolve) => setImmediate(resolve));
    copy.set(values.subarray(at, Math.min(end, at + COPY_STEP)), at - start);
  }
  return copy;
}

function mergeColumns(parts: readonly BoundaryColumns[], count: number): BoundaryColumns {
  const merged = {
    baseline: new Float64Array(count),
    lower: new Float64Array(count),
    upper: new Float64Array(count),
  };
  let at = 0;
  for (const part of parts) {
    merged.baseline.set(part.baseline, at);
    merged.lower.set(part.lower, at);
    merged.upper.set(part.upper, at);
    at += part.baseline.length;
  }
  return merged;
}
