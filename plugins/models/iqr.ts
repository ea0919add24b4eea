import { defineModel, modelParamsSchema } from '../../kit/index.js';
import { sides } from './shared/sides.js';
import { allFinite, quartiles } from './shared/stats.js';

/**
 * `iqr`: baseline the median Q2, limits Q2 ∓ b·(Q3 - Q1), quartiles by linear interpolation. A history with no
 * spread gives Q1 = Q2 = Q3, a zero-width band at the median, as the reference documents: an unchanged value
 * passes (equality never alerts) and any change alerts.
 */
export default defineModel({
  id: 'iqr',
  description: 'Median of the history plus or minus a multiple of its interquartile range.',
  params: modelParamsSchema('iqr', { boundary: 'multiplier' }),
  limits(samples, params) {
    if (!allFinite(samples)) return null;
    const q = quartiles(samples);
    if (q === null) return null;
    const range = q.q3 - q.q1;
    return sides(
      q.q2,
      params,
      (b) => q.q2 - b * range,
      (b) => q.q2 + b * range,
    );
  },
});
