import { mean as ssMean, quantileSorted, sampleStandardDeviation } from 'simple-statistics';

/**
 * Sample statistics shared by the built-in models. simple-statistics is typed for `number[]` but only indexes
 * and reads `length`, so a Float64Array is passed as is (no copy in the hot path).
 */
const asArray = (values: Float64Array): readonly number[] => values as unknown as readonly number[];

/** True when every value is a finite number. */
export function allFinite(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i] as number)) return false;
  }
  return true;
}

/** Arithmetic mean (compensated summation); NaN for no values. */
export function mean(values: Float64Array): number {
  return values.length === 0 ? Number.NaN : ssMean(asArray(values));
}

/** Sample standard deviation with Bessel's correction (divide by n - 1); NaN below two values. */
export function sampleSd(values: Float64Array): number {
  return values.length < 2 ? Number.NaN : sampleStandardDeviation(asArray(values));
}

/**
 * The mean and Bessel-corrected standard deviation a normal-family model needs, or `null` when they do not
 * exist or would make a degenerate distribution: fewer than two values, a non-finite value or result, or zero
 * variance. A non-finite value always makes the mean non-finite (NaN and infinities propagate through the sum),
 * so checking the results covers the input without another pass over it.
 */
export function meanAndSd(values: Float64Array): { mean: number; sd: number } | null {
  if (values.length < 2) return null;
  const m = mean(values);
  const sd = sampleSd(values);
  if (!Number.isFinite(m) || !Number.isFinite(sd) || sd === 0) return null;
  return { mean: m, sd };
}

export interface Quartiles {
  readonly q1: number;
  readonly q2: number;
  readonly q3: number;
}

/**
 * Quartiles by linear interpolation at rank p(n - 1) of the ascending values (R type 7, numpy's default;
 * simple-statistics 7.12's `quantileSorted`; n = 1 gives three equal quartiles). Sorts a copy: `values` is
 * untouched. `null` for no values or a non-finite quartile.
 */
export function quartiles(values: Float64Array): Quartiles | null {
  if (values.length === 0) return null;
  const sorted = asArray(values.slice().sort());
  const q1 = quantileSorted(sorted, 0.25);
  const q2 = quantileSorted(sorted, 0.5);
  const q3 = quantileSorted(sorted, 0.75);
  return Number.isFinite(q1) && Number.isFinite(q2) && Number.isFinite(q3) ? { q1, q2, q3 } : null;
}

/**
 * The absolute relative change between adjacent samples, |(x[i+1] - x[i]) / x[i]|, in sample order (newest
 * first, so each change is relative to the newer of the two values), as delta_iqr defines it.
 */
export function relativeChanges(values: Float64Array): Float64Array {
  const changes = new Float64Array(Math.max(0, values.length - 1));
  for (let i = 0; i < changes.length; i++) {
    const base = values[i] as number;
    changes[i] = Math.abs(((values[i + 1] as number) - base) / base);
  }
  return changes;
}
