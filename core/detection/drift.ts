import { medianOf } from './sort.js';

/** Sides shorter than this say too little about a slope. */
const MIN_SLOPE_SIDE = 8;
/** An ordinary least-squares slope below this many standard errors is not looked at more closely. */
const SCREEN_Z = 2;

/**
 * The common slope, per index, of the two sides of a split, when it is significant (|z| above `threshold`),
 * else 0: what a slow drift adds to a split's comparison, so that it can be taken out before the test. Each
 * side's slope is the median of the slopes between points half the side apart (robust: an outlier moves one of
 * them), with a standard error from their spread (so it holds whatever the noise's shape); the two sides are
 * pooled by inverse variance. Only slopes inside each side count, so a step between them is not mistaken for a
 * drift. A least-squares screen (O(n), no sorting) skips the robust fit where no slope shows.
 */
export function sideSlope(
  values: Float64Array,
  from: number,
  at: number,
  to: number,
  threshold: number,
): number {
  if (Math.abs(leastSquaresZ(values, from, at, to)) < SCREEN_Z) return 0;
  const sigma = noiseScale(values, from, at, to);
  if (!(sigma > 0)) return 0;
  let weights = 0;
  let weighted = 0;
  for (const [start, end] of [
    [from, at],
    [at, to],
  ] as const) {
    if (end - start < MIN_SLOPE_SIDE) continue;
    const lag = (end - start) >> 1;
    const count = end - start - lag;
    // a median of `count` pair slopes, each with standard deviation √2 σ / lag: 1.2533 √2 σ / (lag √count)
    const se = (1.2533 * Math.SQRT2 * sigma) / (lag * Math.sqrt(count));
    weights += 1 / (se * se);
    weighted += medianSlope(values, start, end) / (se * se);
  }
  if (!(weights > 0)) return 0;
  const slope = weighted / weights;
  return Math.abs(slope * Math.sqrt(weights)) > threshold ? slope : 0;
}

/**
 * The noise's standard deviation from the median absolute first difference over both sides (first
 * differences cross the step once and barely see a slope): MAD(Δx) / (0.6745 √2).
 */
function noiseScale(values: Float64Array, from: number, at: number, to: number): number {
  const differences = new Float64Array(to - from - 2);
  let k = 0;
  for (let i = from + 1; i < to; i++) if (i !== at) differences[k++] = Math.abs((values[i] as number) - (values[i - 1] as number));
  return medianOf(differences, 0, k) / (0.6745 * Math.SQRT2);
}

/** The z-score of the common least-squares slope of [from, at) and [at, to), each side with its own level. */
function leastSquaresZ(values: Float64Array, from: number, at: number, to: number): number {
  let sxy = 0;
  let sxx = 0;
  let residual = 0;
  let count = 0;
  const sides: [number, number][] = [
    [from, at],
    [at, to],
  ];
  const fits = sides.map(([start, end]) => {
    const m = end - start;
    let mean = 0;
    for (let i = start; i < end; i++) mean += values[i] as number;
    mean /= m;
    const center = (start + end - 1) / 2;
    let xy = 0;
    let yy = 0;
    for (let i = start; i < end; i++) {
      const d = (values[i] as number) - mean;
      xy += (i - center) * d;
      yy += d * d;
    }
    const xx = (m * (m * m - 1)) / 12;
    sxy += xy;
    sxx += xx;
    count += m;
    return { xy, yy };
  });
  const slope = sxy / sxx;
  for (const { yy } of fits) residual += yy;
  residual -= slope * slope * sxx;
  const variance = residual / Math.max(1, count - 3);
  return variance > 0 ? slope / Math.sqrt(variance / sxx) : 0;
}

/** The median of the slopes between points half of `[from, to)` apart (each point in one pair). */
function medianSlope(values: Float64Array, from: number, to: number): number {
  const lag = (to - from) >> 1;
  const slopes = new Float64Array(to - from - lag);
  for (let i = 0; i < slopes.length; i++)
    slopes[i] = ((values[from + i + lag] as number) - (values[from + i] as number)) / lag;
  return medianOf(slopes);
}
