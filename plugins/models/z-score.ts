import { defineModel, modelParamsSchema } from '../../kit/index.js';
import { standardNormalQuantile } from './shared/quantiles.js';
import { sides } from './shared/sides.js';
import { meanAndSd } from './shared/stats.js';

/**
 * `z_score`: the history as a normal distribution N(μ, s), s the Bessel-corrected standard deviation. The
 * upper limit is its quantile U, μ + z(U)·s; the lower limit is the quantile L reflected about the baseline,
 * 2μ - (μ + z(L)·s) = μ - z(L)·s. No boundary below two samples or at zero variance (N(μ, 0) has no quantiles).
 */
export default defineModel({
  id: 'z_score',
  aliases: ['z'],
  description: 'Normal distribution fitted to the history; boundaries are CDF percentiles in [0.5, 1).',
  params: modelParamsSchema('z_score', { boundary: 'probability' }),
  limits(samples, params) {
    const fit = meanAndSd(samples);
    if (fit === null) return null;
    const { mean, sd } = fit;
    return sides(
      mean,
      params,
      (b) => mean - standardNormalQuantile(b) * sd,
      (b) => mean + standardNormalQuantile(b) * sd,
    );
  },
});
