import type { DetectionParams } from './detect.js';

/**
 * Many series at once, columnar: series i is `values[offsets[i] .. offsets[i + 1])`, oldest first. All series
 * share one set of detector settings. The arrays should own their buffers: the buffers move to a worker.
 */
export interface ChangePointJob {
  /** Series count + 1 entries: 0, then the end of each series in `values`. */
  readonly offsets: Uint32Array;
  readonly values: Float64Array;
  readonly params: DetectionParams;
}

/**
 * The change points of a job, columnar: series i's are rows `offsets[i] .. offsets[i + 1]` of the other
 * columns, in ascending index. `index` counts from the start of its own series.
 */
export interface ChangePointColumns {
  readonly offsets: Uint32Array;
  readonly index: Uint32Array;
  readonly before: Float64Array;
  readonly after: Float64Array;
  readonly pValue: Float64Array;
}

/** Detects the change points of a job (in a worker thread in the API). */
export type ChangePointEngine = (job: ChangePointJob) => Promise<ChangePointColumns>;
