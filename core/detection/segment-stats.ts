import { createRequire } from 'node:module';

type Betainc = (x: number, a: number, b: number) => number;
let betaincFn: Betainc | undefined;

/**
 * The regularized incomplete beta function, loaded at its first use: @stdlib's module graph is some 200 files
 * (about 80 ms), and most programs that import core (the CLI's `run` and `parse`, through the adapters' kit)
 * never detect a change point.
 */
function betainc(x: number, a: number, b: number): number {
  betaincFn ??= createRequire(import.meta.url)('@stdlib/math-base-special-betainc') as Betainc;
  return betaincFn(x, a, b);
}

/**
 * numpy's pairwise summation of `values[from .. to)`, operation for operation (blocks of 128 summed with eight
 * accumulators, larger ranges halved at multiples of 8). Otava's means and standard deviations come from numpy;
 * summing in the same order gives the same bits, so ties and threshold comparisons fall the same way.
 */
export function pairwiseSum(values: Float64Array, from: number, to: number): number {
  const n = to - from;
  if (n < 8) {
    let sum = 0;
    for (let i = from; i < to; i++) sum += values[i] as number;
    return sum;
  }
  if (n <= 128) {
    const r = values.slice(from, from + 8);
    let i = from + 8;
    for (const last = to - (n % 8); i < last; i += 8) for (let j = 0; j < 8; j++) r[j]! += values[i + j]!;
    let sum = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
    for (; i < to; i++) sum += values[i]!;
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseSum(values, from, from + half) + pairwiseSum(values, from + half, to);
}

/** Mean and population standard deviation (numpy's `np.std`, ddof 0) of `values[from .. to)`. */
export function meanAndStd(values: Float64Array, from: number, to: number): { mean: number; std: number } {
  const n = to - from;
  const mean = pairwiseSum(values, from, to) / n;
  if (n < 2) return { mean, std: 0 };
  const squares = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = values[from + i]! - mean;
    squares[i] = d * d;
  }
  return { mean, std: Math.sqrt(pairwiseSum(squares, 0, n) / n) };
}

/** The two sides of a split and the p-value of the two-sided Student t-test between them. */
export interface SplitStats {
  readonly meanBefore: number;
  readonly meanAfter: number;
  readonly pValue: number;
}

/**
 * Compares `values[from .. at)` with `values[at .. to)` with a two-sided two-sample Student t-test (pooled
 * variance), fed population standard deviations as Otava does (scipy's `ttest_ind_from_stats`). Fewer than three
 * points in all give p = 1; two constant sides with different means give p = 0, with equal means NaN.
 */
export function splitStats(values: Float64Array, from: number, at: number, to: number): SplitStats {
  const left = meanAndStd(values, from, at);
  const right = meanAndStd(values, at, to);
  const n1 = at - from;
  const n2 = to - at;
  const df = n1 + n2 - 2;
  let pValue = 1;
  if (df > 0) {
    const pooled = ((n1 - 1) * left.std * left.std + (n2 - 1) * right.std * right.std) / df;
    const t = (left.mean - right.mean) / Math.sqrt(pooled * (1 / n1 + 1 / n2));
    pValue = studentTwoSided(t, df);
  }
  return { meanBefore: left.mean, meanAfter: right.mean, pValue };
}

/** P(|T| >= |t|) for Student's t with `df` degrees of freedom: I_{df/(df+t²)}(df/2, 1/2). */
export function studentTwoSided(t: number, df: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return betainc(df / (df + t * t), df / 2, 0.5);
}

/**
 * Otava's relative magnitude of a change: the larger of |after/before - 1| and |before/after - 1|, each 0 when
 * its denominator is 0.
 */
export function changeMagnitude(before: number, after: number): number {
  const forward = before === 0 ? 0 : after / before - 1;
  const backward = after === 0 ? 0 : before / after - 1;
  return Math.max(Math.abs(forward), Math.abs(backward));
}
