import type { TransferListItem } from 'node:worker_threads';
import type { WorkerPool } from './pool.js';
import type { ChangePointColumns, ChangePointJob } from '../core/index.js';
import { computeChangePoints } from './tasks/change-points.js';
import { fromWireError } from './tasks/wire-error.js';

/**
 * Jobs of at most this many points run in the calling thread: a few series of a hundred points (the regression
 * analysis after a small report) cost well under a millisecond, less than a worker's round trip, and a test app's
 * pool then starts no thread for them.
 */
export const INLINE_MAX_POINTS = 2048;

/**
 * Runs change-point detection in a worker: a history of n points costs O(n·window_len) time (about a second
 * for 100,000 points, bench/detection-speed.bench.ts), too long for the event loop. The job's own buffers move
 * to the worker and are detached here. Small jobs run inline (see {@link INLINE_MAX_POINTS}).
 */
export async function detectInPool(pool: WorkerPool, job: ChangePointJob): Promise<ChangePointColumns> {
  if (job.values.length <= INLINE_MAX_POINTS) return computeChangePoints(job);
  const transfer: TransferListItem[] = [job.offsets.buffer, job.values.buffer].filter(
    (buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer,
  );
  try {
    return await pool.run<ChangePointColumns>('change-points', job, [...new Set(transfer)]);
  } catch (error) {
    throw fromWireError(error);
  }
}
