import type { MeasureDirection, MeasureRecord, ModelRecord, RegressionKind } from '../storage/records.js';

/**
 * Built-in measures whose better side is not in doubt: times, sizes, counts of work and miss rates are better
 * lower; throughput and hit rates higher. Counts of hits and events say nothing by themselves and have none.
 */
const BUILT_IN: Readonly<Record<string, MeasureDirection>> = {
  latency: 'lower_is_better',
  'build-time': 'lower_is_better',
  'file-size': 'lower_is_better',
  throughput: 'higher_is_better',
  instructions: 'lower_is_better',
  'estimated-cycles': 'lower_is_better',
  'sys-time': 'lower_is_better',
  'sys-cpu-time': 'lower_is_better',
  ...Object.fromEntries(
    ['i1', 'lli', 'd1', 'lld', 'll'].map((level) => [`${level}-miss-rate`, 'lower_is_better' as const]),
  ),
  ...Object.fromEntries(
    ['l1', 'll', 'ram'].map((level) => [`${level}-hit-rate`, 'higher_is_better' as const]),
  ),
};

/** The direction a measure declares, or the one its built-in slug has; null when neither says. */
export function measureDirection(
  measure: Pick<MeasureRecord, 'direction' | 'slug'>,
): MeasureDirection | null {
  return measure.direction ?? BUILT_IN[measure.slug] ?? null;
}

/** The side a one-sided threshold model guards (only an upper boundary: `upper`), or null for two sides or none. */
export function guardedSide(
  model: Pick<ModelRecord, 'lower_boundary' | 'upper_boundary'> | null,
): 'lower' | 'upper' | null {
  if (!model) return null;
  if (model.upper_boundary !== null && model.lower_boundary === null) return 'upper';
  if (model.lower_boundary !== null && model.upper_boundary === null) return 'lower';
  return null;
}

/**
 * Whether a change that raises (`up`) or lowers the values is a regression or an improvement: by the measure's
 * direction; without one, the side a one-sided threshold guards is the worse side; otherwise an increase is worse.
 */
export function kindOf(
  direction: MeasureDirection | null,
  guarded: 'lower' | 'upper' | null,
  up: boolean,
): RegressionKind {
  const worseIsUp =
    direction === 'lower_is_better' ? true : direction === 'higher_is_better' ? false : guarded !== 'lower';
  return up === worseIsUp ? 'regression' : 'improvement';
}
