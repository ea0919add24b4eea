import { PluginError } from '../errors.js';
import type { ModelLimits, ModelParams, ModelPlugin } from '../plugins/contracts.js';

/**
 * Computes one series' limits the way the service does, around any model's `limits`: the rules every model
 * shares live here, so a third-party model gets them without re-implementing them.
 *
 * - An empty history, or fewer samples than `min_sample_size`, has no boundary (reference 3.1: a static
 *   threshold does not evaluate the very first metric either).
 * - Only the newest `max_sample_size` samples are used (storage caps the query already; this keeps the
 *   answer right whatever the caller passes). `window` needs the samples' times, so the storage query applies
 *   it.
 * - A history holding a non-finite value has no boundary: it cannot come from real measurements.
 * - A result with any non-finite number has no boundary, so NaN and Infinity never reach a stored boundary.
 *
 * @param samples newest first; not modified.
 * @returns `null` when there is no boundary.
 * @throws PluginError when the model returns something that is not limits (a bug in the model).
 */
export function evaluateModel<P extends ModelParams>(
  plugin: ModelPlugin<P>,
  samples: Float64Array,
  params: P,
): ModelLimits | null {
  if (samples.length === 0) return null;
  if (params.min_sample_size !== undefined && samples.length < params.min_sample_size) return null;
  const sample =
    params.max_sample_size !== undefined && samples.length > params.max_sample_size
      ? samples.subarray(0, params.max_sample_size)
      : samples;
  if (!allFinite(sample)) return null;
  return checkLimits(plugin.id, plugin.limits(sample, params));
}

/** True when every value is a finite number. */
export function allFinite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) return false;
  }
  return true;
}

function checkLimits(model: string, limits: unknown): ModelLimits | null {
  if (limits === null) return null;
  if (typeof limits !== 'object' || limits === undefined) {
    throw new PluginError(`model ${model} returned ${String(limits)} instead of limits or null`, { model });
  }
  const { baseline, lower, upper } = limits as Record<string, unknown>;
  let finite = true;
  for (const [side, value] of [
    ['baseline', baseline],
    ['lower', lower],
    ['upper', upper],
  ] as const) {
    if (value === null) continue;
    if (typeof value !== 'number') {
      throw new PluginError(
        `model ${model} returned a ${side} of type ${typeof value}; use a number or null`,
        {
          model,
        },
      );
    }
    if (!Number.isFinite(value)) finite = false;
  }
  // the model's own object when it is sound: no copy per series in the hot loop
  return finite ? (limits as ModelLimits) : null;
}
