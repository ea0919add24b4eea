import { defineModel, modelParamsSchema } from '../../kit/index.js';
import { sides } from './shared/sides.js';
import { allFinite, mean } from './shared/stats.js';

/**
 * `percentage`: baseline μ (the mean), limits μ ∓ |μ|·b with b a fraction (0.10 = 10%). The reference writes
 * μ ∓ μ·b; |μ| gives the same for μ >= 0 and keeps lower <= upper for a negative mean, where the reference's
 * band would be inverted and every value would alert. Works with a single sample; the spread of the history
 * plays no part, so a constant history (a deterministic metric) still gets its band.
 */
export default defineModel({
  id: 'percentage',
  description: 'Mean of the history plus or minus a fraction of it (0.10 = 10%).',
  params: modelParamsSchema('percentage', { boundary: 'multiplier' }),
  limits(samples, params) {
    if (samples.length === 0 || !allFinite(samples)) return null;
    const mu = mean(samples);
    const size = Math.abs(mu);
    return sides(
      mu,
      params,
      (b) => mu - size * b,
      (b) => mu + size * b,
    );
  },
});
