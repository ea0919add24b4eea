import { defineModel, modelParamsSchema } from '../../kit/index.js';
import { sides } from './shared/sides.js';
import { allFinite, quartiles, relativeChanges } from './shared/stats.js';

/**
 * `delta_iqr`: baseline the median Q2 of the history; d = |(x[i+1] - x[i]) / x[i]| over adjacent samples in
 * sample order, dQ1 and dQ3 its quartiles; limits Q2 ∓ |Q2|·b·(dQ3 - dQ1). The reference writes Q2·b·(...);
 * |Q2| gives the same for Q2 >= 0 and keeps lower <= upper for a negative median. Needs two samples. A zero
 * sample makes a relative change infinite or NaN: no boundary, even when the quartiles would step over it.
 */
export default defineModel({
  id: 'delta_iqr',
  description:
    'Median of the history plus or minus a multiple of the interquartile range of its relative adjacent changes.',
  params: modelParamsSchema('delta_iqr', { boundary: 'multiplier' }),
  limits(samples, params) {
    if (samples.length < 2 || !allFinite(samples)) return null;
    const changes = relativeChanges(samples);
    if (!allFinite(changes)) return null;
    const q = quartiles(samples);
    const dq = quartiles(changes);
    if (q === null || dq === null) return null;
    const width = Math.abs(q.q2) * (dq.q3 - dq.q1);
    return sides(
      q.q2,
      params,
      (b) => q.q2 - b * width,
      (b) => q.q2 + b * width,
    );
  },
});
