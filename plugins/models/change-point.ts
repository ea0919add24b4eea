import {
  DETECTION_DEFAULTS,
  defineModel,
  detectChangePoints,
  modelParamsSchema,
  type DetectionParams,
  type ModelParams,
} from '../../kit/index.js';
import { studentTQuantile } from './shared/quantiles.js';
import { sides } from './shared/sides.js';
import { allFinite, meanAndSd } from './shared/stats.js';

/**
 * The detector's settings for a threshold: a change point is confirmed when its p-value is below 1 − b, b the
 * smaller boundary set (0.9995 → 0.0005, the detector's default); the side of each confirmed point is checked
 * against its own boundary by the service. The detector's window, no magnitude floor.
 */
function changePoints(params: ModelParams): DetectionParams {
  const boundaries = [params.lower_boundary, params.upper_boundary].filter((b) => b !== undefined);
  return { ...DETECTION_DEFAULTS, max_pvalue: 1 - Math.min(...boundaries) };
}

/**
 * `change_point`: alerts on the change points each new value confirms over the history (the rank-based detector
 * of core/detection), on the metric that starts the new regime. Its limits are shown, never alerted on:
 * the t_test prediction interval of the current regime (the newest samples after the last change point in the
 * history), so a plot shows the level the detector measures against.
 */
export default defineModel({
  id: 'change_point',
  description:
    'Change points confirmed over the history (rank tests, robust to outliers, heavy tails and drift); a boundary b confirms a step up (upper) or down (lower) at p < 1 - b.',
  params: modelParamsSchema('change_point', { boundary: 'probability' }),
  changePoints,
  limits(samples, params) {
    if (!allFinite(samples)) return null;
    const oldestFirst = samples.slice().reverse();
    const last = detectChangePoints(oldestFirst, changePoints(params)).at(-1)?.index ?? 0;
    const regime = samples.subarray(0, samples.length - last);
    const fit = meanAndSd(regime);
    if (fit === null) return null;
    const n = regime.length;
    const scale = fit.sd * Math.sqrt(1 + 1 / n);
    return sides(
      fit.mean,
      params,
      (b) => fit.mean - studentTQuantile(b, n - 1) * scale,
      (b) => fit.mean + studentTQuantile(b, n - 1) * scale,
    );
  },
});
