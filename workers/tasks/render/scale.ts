/** Maps data values to pixel positions along one axis. */
export interface Scale {
  readonly log: boolean;
  /** The pixel position of `value`; NaN for a value a log scale cannot show (zero or negative). */
  map(value: number): number;
}

/** A linear scale sending `domain` to `range` (range may run backwards, as a y axis does on screen). */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  // a domain wider than the largest double (-MAX to MAX) is measured in halves, which cannot overflow
  const half = Number.isFinite(d1 - d0) ? 1 : 0.5;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 * half - d0 * half);
  return { log: false, map: (value) => r0 + (value * half - d0 * half) * k };
}

/** A base-10 log scale; `domain` must be positive. */
export function logScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const l0 = Math.log10(domain[0]);
  const l1 = Math.log10(domain[1]);
  const [r0, r1] = range;
  const k = l1 === l0 ? 0 : (r1 - r0) / (l1 - l0);
  return { log: true, map: (value) => (value > 0 ? r0 + (Math.log10(value) - l0) * k : Number.NaN) };
}

/** Summary of every value an image draws on its y axis (points and limits). */
export interface ValueRange {
  /** Smallest and largest finite value; NaN when there is none. */
  readonly min: number;
  readonly max: number;
  /** Smallest value above zero; NaN when there is none. */
  readonly minPositive: number;
}

/**
 * With `auto`, a log axis once the data spans this factor or more (three orders of magnitude): below it a
 * linear axis still shows every line's shape, above it the small lines flatten to the floor.
 */
export const AUTO_LOG_RATIO = 1000;

/**
 * The y axis type to draw. `auto` is log only when every value is positive (a log axis cannot show zero or
 * negatives) and max/min is at least {@link AUTO_LOG_RATIO}. An explicit `log` with no positive value falls back
 * to linear, since nothing could be drawn otherwise.
 */
export function chooseYScale(mode: 'auto' | 'linear' | 'log', range: ValueRange): 'linear' | 'log' {
  if (mode === 'linear' || !(range.minPositive > 0)) return 'linear';
  if (mode === 'log') return 'log';
  return range.min > 0 && range.max / range.min >= AUTO_LOG_RATIO ? 'log' : 'linear';
}
