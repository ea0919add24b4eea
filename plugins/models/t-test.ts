import { defineModel, modelParamsSchema } from '../../kit/index.js';
import { studentTQuantile } from './shared/quantiles.js';
import { sides } from './shared/sides.js';
import { meanAndSd } from './shared/stats.js';

/**
 * `t_test`: a prediction interval for one new observation (the reference's semantics since v0.6.3). Student-t
 * with n - 1 degrees of freedom, location μ, scale s·√(1 + 1/n) (s Bessel-corrected); the upper limit is its
 * quantile U, the lower limit the quantile L reflected about μ. No boundary below two samples or at zero
 * variance.
 */
export default defineModel({
  id: 't_test',
  aliases: ['t'],
  description:
    "Student's t prediction interval for the next value (n - 1 degrees of freedom); boundaries are CDF percentiles in [0.5, 1).",
  params: modelParamsSchema('t_test', { boundary: 'probability' }),
  limits(samples, params) {
    const fit = meanAndSd(samples);
    if (fit === null) return null;
    const n = samples.length;
    const { mean } = fit;
    const scale = fit.sd * Math.sqrt(1 + 1 / n);
    return sides(
      mean,
      params,
      (b) => mean - studentTQuantile(b, n - 1) * scale,
      (b) => mean + studentTQuantile(b, n - 1) * scale,
    );
  },
});
