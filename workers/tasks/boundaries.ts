import {
  createBoundaryColumns,
  writeBoundary,
  type BoundaryColumns,
} from '../../core/boundaries/boundary-columns.js';
import { evaluateModel } from '../../core/boundaries/evaluate.js';
import { InputError, PluginError } from '../../core/errors.js';
import type { ModelLimits } from '../../core/plugins/contracts.js';
import type { BoundaryJob } from '../../core/services/context.js';
import { loadModel, type LoadedModel } from './load-model.js';
import { transferResult } from './transfer.js';
import { toWireError } from './wire-error.js';

/**
 * Task `boundaries`: the job's boundary columns, moved (not copied) back to the caller. Errors are thrown in
 * their wire form (see wire-error.ts) so the caller gets InputError or PluginError back, not a bare Error.
 */
export default async function boundaries(job: BoundaryJob): Promise<BoundaryColumns> {
  try {
    const columns = await computeBoundaryColumns(job);
    return transferResult(columns, [columns.baseline, columns.lower, columns.upper]);
  } catch (error) {
    throw toWireError(error);
  }
}

/**
 * Computes a job's boundary columns in the calling thread (the pool's workers and the inline path share it, so
 * both give the same answer). A series without a boundary is NaN in all three columns; see BoundaryColumns.
 */
export async function computeBoundaryColumns(job: BoundaryJob): Promise<BoundaryColumns> {
  const count = checkJob(job);
  const models = await Promise.all(job.models.map((ref) => loadModel(ref)));
  const { offsets, values, modelIndex } = job;
  const columns = createBoundaryColumns(count);
  for (let i = 0; i < count; i++) {
    const model = models[modelIndex[i] as number] as LoadedModel;
    const samples = values.subarray(offsets[i], offsets[i + 1]);
    writeBoundary(columns, i, evaluate(model, samples, i));
  }
  return columns;
}

function evaluate(model: LoadedModel, samples: Float64Array, series: number): ModelLimits | null {
  try {
    return evaluateModel(model.plugin, samples, model.params);
  } catch (error) {
    throw new PluginError(
      `model ${model.plugin.id} from ${model.module} failed on series ${series}: ${(error as Error).message}`,
      { model: model.plugin.id, module: model.module, series },
      { cause: error },
    );
  }
}

/** Checks the job's shape (worker input is an edge); returns the series count. */
export function checkJob(job: BoundaryJob): number {
  const { offsets, values, modelIndex, models } = job;
  if (!(offsets instanceof Uint32Array) || !(values instanceof Float64Array)) {
    throw new InputError('a boundary job needs offsets as a Uint32Array and values as a Float64Array');
  }
  if (!(modelIndex instanceof Uint16Array) || !Array.isArray(models)) {
    throw new InputError('a boundary job needs modelIndex as a Uint16Array and models as an array');
  }
  const count = offsets.length - 1;
  if (count < 0 || offsets[0] !== 0 || offsets[count] !== values.length) {
    throw new InputError(
      `boundary job offsets must start at 0 and end at values.length (${values.length}), got ${offsets.length === 0 ? 'no offsets' : `${offsets[0]}..${offsets[count]}`}`,
    );
  }
  if (modelIndex.length !== count) {
    throw new InputError(`boundary job has ${count} series but ${modelIndex.length} model indexes`);
  }
  for (let i = 0; i < count; i++) {
    if ((offsets[i + 1] as number) < (offsets[i] as number)) {
      throw new InputError(`boundary job offsets decrease at series ${i}`);
    }
    if ((modelIndex[i] as number) >= models.length) {
      throw new InputError(
        `boundary job series ${i} uses model ${modelIndex[i]}, but there are ${models.length}`,
      );
    }
  }
  return count;
}
