import { detectChangePoints, parseDetectionParams, type DetectionParams } from '../../core/index.js';
import { transferResult } from './transfer.js';
import { toWireError } from './wire-error.js';

/**
 * Many series at once, columnar: series i is `values[offsets[i] .. offsets[i + 1])`, oldest first. All series
 * share one set of detector settings.
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

/** Task `change-points`: the job's change points, moved (not copied) back to the caller. */
export default function changePoints(job: ChangePointJob): ChangePointColumns {
  try {
    const columns = computeChangePoints(job);
    const { offsets, index, before, after, pValue } = columns;
    return transferResult(columns, [offsets, index, before, after, pValue]);
  } catch (error) {
    throw toWireError(error);
  }
}

/** Computes a job in the calling thread; the settings are checked again, as at every thread boundary. */
export function computeChangePoints(job: ChangePointJob): ChangePointColumns {
  const params = parseDetectionParams(job.params);
  const count = job.offsets.length - 1;
  const found = [];
  const offsets = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) {
    const points = detectChangePoints(job.values.subarray(job.offsets[i], job.offsets[i + 1]), params);
    found.push(...points);
    offsets[i + 1] = found.length;
  }
  return {
    offsets,
    index: Uint32Array.from(found, (point) => point.index),
    before: Float64Array.from(found, (point) => point.meanBefore),
    after: Float64Array.from(found, (point) => point.meanAfter),
    pValue: Float64Array.from(found, (point) => point.pValue),
  };
}
