import { createRequire } from 'node:module';

type Quantile = (p: number, ...params: number[]) => number;
const load = createRequire(import.meta.url);
let tQuantileFn: Quantile | undefined;
let normalQuantileFn: Quantile | undefined;

/**
 * The @stdlib functions are loaded at their first use: their modules are some 200 files, about 0.2 s of every
 * start of the API (which registers the models) and of every program that imports them without computing a limit.
 */
function tQuantile(p: number, df: number): number {
  tQuantileFn ??= load('@stdlib/stats-base-dists-t-quantile') as Quantile;
  return tQuantileFn(p, df);
}

function normalQuantile(p: number, mu: number, sigma: number): number {
  normalQuantileFn ??= load('@stdlib/stats-base-dists-normal-quantile') as Quantile;
  return normalQuantileFn(p, mu, sigma);
}

/**
 * Distribution quantiles from @stdlib (not hand-rolled approximations). The Student-t quantile costs about
 * 3.6 us per call (an incomplete-beta inversion), more than the rest of a 64-sample t_test; a job's series
 * share a handful of (probability, degrees of freedom) pairs, so those are memoized. The memo is bounded and
 * holds exact results of a pure function, so answers do not depend on call history.
 */
const T_MEMO_LIMIT = 4096;
const tMemo = new Map<number, Map<number, number>>();
let tMemoSize = 0;

/** The last answer: consecutive series of a job nearly always ask for the same pair. */
let last = { p: Number.NaN, df: Number.NaN, value: Number.NaN };

/** Quantile `p` of the standard Student-t distribution with `df` degrees of freedom. */
export function studentTQuantile(p: number, df: number): number {
  if (p === last.p && df === last.df) return last.value;
  const value = memoizedTQuantile(p, df);
  last = { p, df, value };
  return value;
}

function memoizedTQuantile(p: number, df: number): number {
  let byDf = tMemo.get(p);
  const known = byDf?.get(df);
  if (known !== undefined) return known;
  const value = tQuantile(p, df);
  if (tMemoSize >= T_MEMO_LIMIT) {
    tMemo.clear();
    tMemoSize = 0;
    byDf = undefined;
  }
  if (byDf === undefined) tMemo.set(p, (byDf = new Map()));
  byDf.set(df, value);
  tMemoSize++;
  return value;
}

/** Quantile `p` of the standard normal distribution. */
export function standardNormalQuantile(p: number): number {
  return normalQuantile(p, 0, 1);
}
