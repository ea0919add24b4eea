/** Which limit a value crossed (`BoundaryLimit` in the API). */
export type BoundaryLimit = 'lower' | 'upper';

/** The limits an alert is judged against; a `null` side is not tested. */
export interface AlertLimits {
  readonly lower_limit: number | null;
  readonly upper_limit: number | null;
}

/**
 * The alert rule (reference 3.2): a value strictly below the lower limit is a lower alert, otherwise a value
 * strictly above the upper limit is an upper alert. Equality never alerts, so a limit that equals the
 * baseline (a zero-width band) still lets an unchanged value pass. A non-finite value never alerts.
 */
export function alertLimit(value: number, limits: AlertLimits): BoundaryLimit | null {
  if (limits.lower_limit !== null && value < limits.lower_limit) return 'lower';
  if (limits.upper_limit !== null && value > limits.upper_limit) return 'upper';
  return null;
}
