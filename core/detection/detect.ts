import { candidates } from './candidates.js';
import { segmentSeries } from './elimination.js';
import type { SplitStats } from './segment-stats.js';
import { SplitTester } from './split-test.js';

/** The settings of the detector; see {@link detectChangePoints}. */
export interface DetectionParams {
  /** The most points on each side of a change that its test reads (at least 2). */
  readonly window_len: number;
  /** A change point is kept when its p-value is below this... */
  readonly max_pvalue: number;
  /** ...and its relative magnitude exceeds this (0: any significant change). */
  readonly min_magnitude: number;
}

/**
 * One change point: `index` is the first point of the new regime (the split compares [..index) with [index..));
 * the means are those of the segments between it and its neighbours, the p-value that of its test.
 */
export interface ChangePoint extends SplitStats {
  readonly index: number;
}

/** Fewest points in a segment, at either end of the series as between two change points. */
export const MIN_SEGMENT = 3;
/** A run shorter than this that leaves a level and comes back to it must show that the level moved. */
const SHORT_RUN = 14;
/** The relaxed level at which binary segmentation proposes candidates in a short series. */
const BISECT_LEVEL = 0.2;

/**
 * Every change point of a series, oldest value first. Rank-based, so the answer holds whatever the noise's shape
 * (heavy tails, outliers, two modes) and does not depend on the units; deterministic: no random numbers are
 * drawn, the answer depends only on the values and the parameters. See docs/models.md, "Change-point detection".
 *
 * 1. Candidates: moving-window rank statistics at several bandwidths ({@link candidates}); in a series of at most
 *    `window_len` points, binary segmentation as well.
 * 2. Test: each point compares up to `window_len` points on each side, bounded by its neighbours, with a
 *    rank-sum test corrected for the point being the best split of that window, and for drift
 *    ({@link SplitTester}).
 * 3. Elimination: points move to the best split of their window, and the weakest is dropped until every point
 *    passes `max_pvalue` and `min_magnitude`; a run of fewer than 14 points that leaves a level and returns to it
 *    stays only if the levels around it differ (else it is an outlier run, merged back), and no segment has
 *    fewer than {@link MIN_SEGMENT} points; last, each point goes to the split within 4 points that the values
 *    fit best, as long as everything still passes ({@link segmentSeries}).
 *
 * Time O(n log w) for the candidates plus O(w log w) per test, a few tests per candidate; memory O(n + w).
 */
export function detectChangePoints(values: Float64Array, params: DetectionParams): ChangePoint[] {
  const n = values.length;
  if (n < 2 * MIN_SEGMENT || values.every((v) => v === values[0])) return [];
  const { window_len: window, max_pvalue: alpha, min_magnitude: minMagnitude } = params;
  const tester = new SplitTester(values, { window, alpha, minSide: MIN_SEGMENT });
  const proposed = candidates(tester.ranks, window, MIN_SEGMENT);
  if (n <= window) proposed.push(...tester.bisect(0, n, BISECT_LEVEL));
  const unique = [...new Set(proposed)].sort((a, b) => a - b);
  return segmentSeries(tester, unique, {
    alpha,
    minMagnitude,
    shortRun: SHORT_RUN,
    minSide: MIN_SEGMENT,
    window,
  }).map((point) => ({
    index: point.index,
    meanBefore: point.before,
    meanAfter: point.after,
    pValue: point.pValue,
  }));
}
