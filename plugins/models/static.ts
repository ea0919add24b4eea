import { defineModel, modelParamsSchema } from '../../kit/index.js';
import { allFinite } from './shared/stats.js';

/**
 * `static`: fixed limits. `lower_boundary` and `upper_boundary` are the limits themselves; there is no
 * baseline. It reads no statistics of the history, but like every model it needs one: an empty history (the
 * very first metric) or one holding a non-finite value has no boundary (reference 3.1).
 */
export default defineModel({
  id: 'static',
  description: 'Fixed lower and upper limits, in the units of the measure.',
  params: modelParamsSchema('static', { boundary: 'absolute', history: false }),
  limits(samples, params) {
    if (samples.length === 0 || !allFinite(samples)) return null;
    return {
      baseline: null,
      lower: params.lower_boundary ?? null,
      upper: params.upper_boundary ?? null,
    };
  },
});
