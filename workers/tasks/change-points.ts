import type { ChangePointColumns, ChangePointJob } from '../../core/detection/columns.js';
import { detectChangePoints } from '../../core/detection/detect.js';
import { parseDetectionParams } from '../../core/detection/params.js';
import { transferResult } from './transfer.js';
import { toWireError } from './wire-error.js';

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
