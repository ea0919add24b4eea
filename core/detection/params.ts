import { z } from 'zod';
import { InputError } from '../errors.js';
import { formatParamValue } from '../boundaries/params.js';
import type { DetectionParams } from './detect.js';

/** The largest window: a window's pair sums take O(w²) memory (8 MB at 1,000 points). */
export const DETECTION_WINDOW_MAX = 1000;

/**
 * Defaults chosen on the change-point corpus and the synthetic bench (docs/models.md, "Change-point
 * detection"): Otava's window, half its significance level (0.001 gave 0.96-1.24 false change points per
 * 1,000 unchanged points, 0.0005 gives 0.4-0.6), no magnitude floor (a floor depends on the noise level).
 */
export const DETECTION_DEFAULTS: DetectionParams = { window_len: 50, max_pvalue: 0.0005, min_magnitude: 0 };

/**
 * The detector's settings as a query string or CLI flags give them (strings are coerced), with the defaults
 * filled in. Each message names the rule; the caller's error names the field.
 */
export const detectionParamsSchema = z.object({
  window_len: setting(
    `must be an integer from 2 to ${DETECTION_WINDOW_MAX}`,
    (value) => Number.isInteger(value) && value >= 2 && value <= DETECTION_WINDOW_MAX,
  )
    .default(DETECTION_DEFAULTS.window_len)
    .describe('Points per sliding window of the split pass'),
  max_pvalue: setting('must be a number in (0, 1]', (value) => value > 0 && value <= 1)
    .default(DETECTION_DEFAULTS.max_pvalue)
    .describe('Significance level: a change point is kept when its t-test p-value is below it'),
  min_magnitude: setting('must be a finite number of at least 0', (value) => value >= 0)
    .default(DETECTION_DEFAULTS.min_magnitude)
    .describe('Smallest relative change kept, as a fraction (0.05 = 5%); 0 keeps every significant one'),
});

/** A number (strings coerced) that must pass `ok`; the message gives the rule and the value received. */
function setting(rule: string, ok: (value: number) => boolean) {
  const error = (issue: { input?: unknown }) => `${rule}, got ${formatParamValue(issue.input)}`;
  return z.coerce.number({ error }).refine(ok, { error });
}

/** Parses detector settings, throwing an InputError that names the field and the rule. */
export function parseDetectionParams(input: unknown): DetectionParams {
  const result = detectionParamsSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || 'parameters';
  throw new InputError(`change-point ${field} ${issue?.message ?? 'is invalid'}`, { field });
}
