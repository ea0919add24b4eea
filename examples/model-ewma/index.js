// @ts-check
// A third-party Benchtrack threshold model, written only against `benchtrack/plugin-kit`: `ewma`, the
// exponentially weighted mean of the history, with limits a multiple of its exponentially weighted standard
// deviation away. Recent values weigh more, so after a deliberate shift the limits follow the new level within
// a few reports instead of waiting for the window to forget the old one. The smoothing factor comes from the
// sample size: alpha = 2 / (n + 1), the usual "span" of n samples.
import { defineModel, modelParamsSchema } from 'benchtrack/plugin-kit';

export default defineModel({
  id: 'ewma',
  description:
    'Exponentially weighted mean of the history plus or minus a multiple of its weighted deviation.',
  params: modelParamsSchema('ewma', { boundary: 'multiplier' }),
  limits(samples, params) {
    if (samples.length < 2) return null;
    const alpha = 2 / (samples.length + 1);
    // samples are newest first: walk from the oldest so the newest weighs most
    let mean = /** @type {number} */ (samples[samples.length - 1]);
    let variance = 0;
    for (let i = samples.length - 2; i >= 0; i--) {
      const value = /** @type {number} */ (samples[i]);
      if (!Number.isFinite(value)) return null;
      const delta = value - mean;
      mean += alpha * delta;
      variance = (1 - alpha) * (variance + alpha * delta * delta);
    }
    const deviation = Math.sqrt(variance);
    if (!Number.isFinite(mean) || !(deviation > 0) || !Number.isFinite(deviation)) return null;
    const side = (/** @type {number | undefined} */ boundary, /** @type {1 | -1} */ sign) =>
      boundary === undefined ? null : mean + sign * boundary * deviation;
    return { baseline: mean, lower: side(params.lower_boundary, -1), upper: side(params.upper_boundary, 1) };
  },
});
