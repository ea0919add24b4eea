import { defineModel, modelParamsSchema } from '../../kit/index.js';
import { standardNormalQuantile } from './shared/quantiles.js';
import { sides } from './shared/sides.js';
import { meanAndSd } from './shared/stats.js';

/**
 * `log_normal`: the history as LogNormal(λ, σ), λ the mean and σ the Bessel-corrected standard deviation of
 * ln x. Baseline e^λ (the geometric mean); upper limit the quantile U, e^(λ + σ·z(U)); lower limit the quantile
 * L reflected about the baseline, 2e^λ - e^(λ + σ·z(L)) (a reflection, not the lower quantile, as in the
 * reference). No boundary for non-positive data, below two samples, or when ln x has zero variance.
 */
export default defineModel({
  id: 'log_normal',
  description: 'Log-normal distribution fitted to the history; boundaries are CDF percentiles in [0.5, 1).',
  params: modelParamsSchema('log_normal', { boundary: 'probability' }),
  limits(samples, params) {
    const logs = new Float64Array(samples.length);
    for (let i = 0; i < samples.length; i++) {
      const value = samples[i] as number;
      if (!(value > 0)) return null;
      logs[i] = Math.log(value);
    }
    const fit = meanAndSd(logs);
    if (fit === null) return null;
    const { mean: location, sd: scale } = fit;
    const baseline = Math.exp(location);
    const quantile = (b: number) => Math.exp(location + scale * standardNormalQuantile(b));
    return sides(
      baseline,
      params,
      (b) => 2 * baseline - quantile(b),
      (b) => quantile(b),
    );
  },
});
