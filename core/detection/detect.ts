import { divisive } from './divisive.js';
import { changeMagnitude, splitStats, type SplitStats } from './segment-stats.js';

/** The settings of the detector; see {@link detectChangePoints}. */
export interface DetectionParams {
  /** Points per sliding window of the split pass (at least 2). */
  readonly window_len: number;
  /** A change point is kept when its p-value is below this... */
  readonly max_pvalue: number;
  /** ...and its relative magnitude exceeds this (0: any significant change). */
  readonly min_magnitude: number;
}

/** One change point: `index` is the first point of the new regime (the split compares [..index) with [index..)). */
export interface ChangePoint extends SplitStats {
  readonly index: number;
}

/** Otava's relaxed first-pass threshold: 10x below 0.05, 2x below 0.5, else unchanged. */
export function firstPassPValue(maxPValue: number): number {
  if (maxPValue < 0.05) return maxPValue * 10;
  return maxPValue < 0.5 ? maxPValue * 2 : maxPValue;
}

/**
 * Every change point of a series, oldest value first: Otava's (Hunter's) E-divisive with a t-test, sliding
 * windows and a merge pass (Fleming et al., ICPE 2023). Pure and deterministic: no random numbers are drawn,
 * so the answer depends only on the values and the parameters.
 *
 * Split: windows of `window_len` points advance by half a window (or to the last point found); inside each,
 * E-divisive keeps splits whose p-value passes the relaxed {@link firstPassPValue}. Merge: the weakest point
 * (largest p-value if any reaches `max_pvalue`, else the smallest magnitude if it is at most `min_magnitude`)
 * is dropped and its neighbours re-tested, until every point passes. Time O(n·w) for the split (each window
 * costs O(w²) and there are about 2n/w of them) plus O(k²) for k weak points in the merge; memory O(w² + n).
 * Then a consistency pass (see below): each returned point's means and p-value compare the segments between
 * it and its neighbours in the answer, and every returned point passes the settings.
 */
export function detectChangePoints(values: Float64Array, params: DetectionParams): ChangePoint[] {
  let points = otavaChangePoints(values, params);
  // Otava's merge leaves stale statistics on the point before each removed one; re-measure every point against
  // its final neighbours and merge again until nothing changes, so no reported point fails the settings
  for (;;) {
    const count = points.length;
    points = merge(restat(points, values), values, params.max_pvalue, params.min_magnitude);
    if (points.length === count) return points;
  }
}

/** Every point's statistics against its neighbours in `points`. */
function restat(points: ChangePoint[], values: Float64Array): ChangePoint[] {
  return points.map(({ index }, k) => ({
    index,
    ...splitStats(values, points[k - 1]?.index ?? 0, index, points[k + 1]?.index ?? values.length),
  }));
}

/**
 * The change points exactly as Otava reports them (the corpus's reproduction tests pin them at margin 0). Its
 * merge pass re-tests only the point after a removed one (and the next), so the point before keeps statistics
 * measured against a neighbour that is gone, and may stay although it fails the settings once re-measured;
 * {@link detectChangePoints} re-measures and drops such points.
 */
export function otavaChangePoints(values: Float64Array, params: DetectionParams): ChangePoint[] {
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
