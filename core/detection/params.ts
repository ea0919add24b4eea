import { z } from 'zod';
import { InputError } from '../errors.js';
import { formatParamValue } from '../boundaries/params.js';
import { MIN_SEGMENT, type DetectionParams } from './detect.js';

/** The widest window: a test reads up to 2 · 1,000 points, and the candidates' bandwidths grow with it. */
export const DETECTION_WINDOW_MAX = 1000;

/**
 * Defaults chosen on the change-point corpus and the seeded stress corpus (docs/models.md, "Change-point
 * detection"): 50 points on each side of a change, a significance level of 0.0005 (precision and recall move
 * by less than 0.005 between 0.0002 and 0.002, and the 6-point series of the corpus need about 0.0007), no
 * magnitude floor (a floor's effect depends on the noise level; the p-value already scales with it).
 */
export const DETECTION_DEFAULTS: DetectionParams = { window_len: 50, max_pvalue: 0.0005, min_magnitude: 0 };

/**
 * The detector's settings as a query string or CLI flags give them (strings are coerced), with the defaults
 * filled in. Each message names the rule; the caller's error names the field.
 */
export const detectionParamsSchema = z.object({
  window_len: setting(
    `must be an integer from ${MIN_SEGMENT} to ${DETECTION_WINDOW_MAX}`,
    (value) => Number.isInteger(value) && value >= MIN_SEGMENT && value <= DETECTION_WINDOW_MAX,
  )
    .default(DETECTION_DEFAULTS.window_len)
    .describe('The most points on each side of a change that its test reads'),
  max_pvalue: setting('must be a number in (0, 1]', (value) => value > 0 && value <= 1)
    .default(DETECTION_DEFAULTS.max_pvalue)
    .describe(
      'Significance level: a change point is kept when its p-value (a rank test, corrected for the choice of the split) is below it',
    ),
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
