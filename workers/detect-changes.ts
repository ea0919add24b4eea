import type { TransferListItem } from 'node:worker_threads';
import type { ChangePointColumns, ChangePointJob } from '../core/index.js';
import { copyYielding, owned, splitSeries } from './compute-boundaries.js';
import type { WorkerPool } from './pool.js';
import { fromWireError } from './tasks/wire-error.js';

/**
 * Values per piece below which a job is not split: detection costs about 0.3 to 1 ms per 1,000 points, a
 * worker round trip 0.1 to 1.5 ms (bench/detection-speed.bench.ts), so a piece carries at least tens of
 * milliseconds of work.
 */
export const DETECTION_PIECE_MIN_VALUES = 50_000;

/**
 * Runs change-point detection in the pool, too long for the event loop on long histories, split by series into
 * up to `pool.maxThreads` pieces that run at once (a piece has at least {@link DETECTION_PIECE_MIN_VALUES}
 * values). The job's own buffers are consumed: when a piece is the whole job they move to the worker and are
 * detached here.
 */
export async function detectInPool(pool: WorkerPool, job: ChangePointJob): Promise<ChangePointColumns> {
  const count = job.offsets.length - 1;
  const pieces = Math.max(
    1,
    Math.min(pool.maxThreads, Math.floor(job.values.length / DETECTION_PIECE_MIN_VALUES), count),
  );
  if (pieces === 1) return runInPool(pool, job);
  const bounds = splitSeries(job.offsets, pieces);
  const running: Promise<ChangePointColumns>[] = [];
  for (let k = 0; k < pieces; k++) {
    const start = bounds[k] as number;
    const end = bounds[k + 1] as number;
    const base = job.offsets[start] as number;
    const offsets = job.offsets.slice(start, end + 1).map((offset) => offset - base);
    const values = await copyYielding(job.values, base, job.offsets[end] as number);
    // each piece starts detecting while the next one is being copied
    running.push(runInPool(pool, { offsets, values, params: job.params }));
  }
  return mergeColumns(await Promise.all(running));
}

function runInPool(pool: WorkerPool, job: ChangePointJob): Promise<ChangePointColumns> {
  const sendable = { ...job, offsets: owned(job.offsets), values: owned(job.values) };
  const transfer: TransferListItem[] = [sendable.offsets.buffer, sendable.values.buffer].filter(
    (buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer,
  );
  return pool
    .run<ChangePointColumns>('change-points', sendable, [...new Set(transfer)])
    .catch((error: unknown) => {
      throw fromWireError(error);
    });
}

/** The pieces' columns as one answer: each piece's series follow the previous piece's. */
function mergeColumns(parts: readonly ChangePointColumns[]): ChangePointColumns {
  const series = parts.reduce((n, part) => n + part.offsets.length - 1, 0);
  const points = parts.reduce((n, part) => n + part.index.length, 0);
  const merged = {
    offsets: new Uint32Array(series + 1),
    index: new Uint32Array(points),
    before: new Float64Array(points),
    after: new Float64Array(points),
    pValue: new Float64Array(points),
  };
  let at = 0;
  let row = 0;
  for (const part of parts) {
    for (let i = 1; i < part.offsets.length; i++) merged.offsets[at + i] = row + (part.offsets[i] as number);
    merged.index.set(part.index, row);
    merged.before.set(part.before, row);
    merged.after.set(part.after, row);
    merged.pValue.set(part.pValue, row);
    at += part.offsets.length - 1;
    row += part.index.length;
  }
  return merged;
}
