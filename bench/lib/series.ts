import type { BoundaryJob, BoundaryModelRef } from '../../core/index.js';
import { Random } from './random.js';

/**
 * A seeded boundary job: `series` histories of `samples` values each, level 100 with normal noise of the given
 * coefficient of variation, all using model 0 of `models`.
 */
export function seededJob(
  series: number,
  samples: number,
  models: readonly BoundaryModelRef[],
  { seed = 1, cv = 0.02 }: { seed?: number; cv?: number } = {},
): BoundaryJob {
  const random = new Random(seed);
  const offsets = new Uint32Array(series + 1);
  for (let i = 1; i <= series; i++) offsets[i] = i * samples;
  const values = new Float64Array(series * samples);
  for (let i = 0; i < values.length; i++) values[i] = 100 * (1 + cv * random.normal());
  return { offsets, values, modelIndex: new Uint16Array(series), models };
}

/** A copy of a job in new buffers (a pool run detaches the buffers it moves). */
export function copyJob(job: BoundaryJob): BoundaryJob {
  return {
    ...job,
    offsets: job.offsets.slice(),
    values: job.values.slice(),
    modelIndex: job.modelIndex.slice(),
  };
}
