import type { ChangePoint } from './detect.js';
import { divisive } from './divisive.js';
import { changeMagnitude, splitStats } from './segment-stats.js';

/** Otava's settings: its window, significance level and magnitude floor. */
export interface OtavaParams {
  /** Points per sliding window of the split pass (at least 2). */
  readonly window_len: number;
  /** A change point is kept when its t-test p-value is below this... */
  readonly max_pvalue: number;
  /** ...and its relative magnitude exceeds this (0: any significant change). */
  readonly min_magnitude: number;
}

/** Otava's defaults (window 50, p 0.001, no magnitude floor). */
export const OTAVA_DEFAULTS: OtavaParams = { window_len: 50, max_pvalue: 0.001, min_magnitude: 0 };

/** Otava's relaxed first-pass threshold: 10x below 0.05, 2x below 0.5, else unchanged. */
export function firstPassPValue(maxPValue: number): number {
  if (maxPValue < 0.05) return maxPValue * 10;
  return maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
}

/**
 * The change points exactly as Apache Otava (Hunter) reports them: E-divisive means with a Student t-test, sliding
 * windows and a merge pass (Fleming et al., ICPE 2023). The product's detector is {@link detectChangePoints};
 * this one is the reference it is measured against (bench/detection-*.bench.ts), pinned at margin 0 by the
 * corpus's reproduction tests. Pure and deterministic.
 *
 * Split: windows of `window_len` points advance by half a window (or to the last point found); inside each,
 * E-divisive keeps splits whose p-value passes the relaxed {@link firstPassPValue}. Merge: the weakest point
 * (largest p-value if any reaches `max_pvalue`, else the smallest magnitude if it is at most `min_magnitude`)
 * is dropped and the point that took its place and the one after are re-tested, until every point passes; the
 * point before keeps statistics measured against a neighbour that is gone, as in Otava. Time O(n·w) for the
 * split plus O(k²) for k weak points in the merge; memory O(w² + n).
 */
export function otavaChangePoints(values: Float64Array, params: OtavaParams): ChangePoint[] {
  const weak = split(values, params.window_len, firstPassPValue(params.max_pvalue));
  return merge(weak, values, params.max_pvalue, params.min_magnitude);
}

function split(values: Float64Array, windowLen: number, maxPValue: number): ChangePoint[] {
  const step = Math.floor(windowLen / 2);
  const indexes = new Set<number>();
  for (let start = 0; start < values.length;) {
    const found = divisive(values, start, Math.min(start + windowLen, values.length), maxPValue);
    for (const index of found) indexes.add(index);
    start = Math.max(found.at(-1) ?? 0, start + step);
  }
  const sorted = [...indexes].sort((a, b) => a - b);
  return sorted.map((index, k) => ({
    index,
    ...splitStats(values, sorted[k - 1] ?? 0, index, sorted[k + 1] ?? values.length),
  }));
}

function merge(points: ChangePoint[], values: Float64Array, maxPValue: number, minMagnitude: number) {
  const magnitude = (p: ChangePoint) => changeMagnitude(p.meanBefore, p.meanAfter);
  while (points.length > 0) {
    // first maximum / minimum, with NaN compared as Python's max() and min() compare it
    let weakest = 0;
    for (let k = 1; k < points.length; k++) if (points[k]!.pValue > points[weakest]!.pValue) weakest = k;
    if (points[weakest]!.pValue < maxPValue) {
      weakest = 0;
      for (let k = 1; k < points.length; k++)
        if (magnitude(points[k]!) < magnitude(points[weakest]!)) weakest = k;
      if (magnitude(points[weakest]!) > minMagnitude) return points;
    }
    points.splice(weakest, 1);
    // as Otava does: the point that took the removed one's place and the one after it are re-tested
    for (const k of [weakest, weakest + 1]) {
      const point = points[k];
      if (point === undefined) continue;
      const from = points[k - 1]?.index ?? 0;
      const to = points[k + 1]?.index ?? values.length;
      points[k] = { index: point.index, ...splitStats(values, from, point.index, to) };
    }
  }
  return points;
}
