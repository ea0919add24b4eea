import type { TransferListItem } from 'node:worker_threads';
import type { WorkerPool } from './pool.js';
import type { ChangePointColumns, ChangePointJob } from '../core/index.js';
import { fromWireError } from './tasks/wire-error.js';

/**
 * Runs change-point detection in a worker: a history of n points costs O(n·window_len) time (about a second
 * for 100,000 points, bench/detection-speed.bench.ts), too long for the event loop. The job's own buffers move
 * to the worker and are detached here.
 */
export async function detectInPool(pool: WorkerPool, job: ChangePointJob): Promise<ChangePointColumns> {
  const transfer: TransferListItem[] = [job.offsets.buffer, job.values.buffer].filter(
    (buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer,
  );
  try {
    return await pool.run<ChangePointColumns>('change-points', job, [...new Set(transfer)]);
  } catch (error) {
    throw fromWireError(error);
  }
}
