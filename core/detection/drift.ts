import { medianOf } from './sort.js';

/** Sides shorter than this say too little about a slope. */
const MIN_SLOPE_SIDE = 8;
/** A side whose least-squares slope is below this many standard errors is taken as flat. */
const SCREEN_Z = 1;

/** The slopes, per index, of the two sides of a split. */
export interface SideSlopes {
  readonly before: number;
  readonly after: number;
}

/**
 * The drifts a split may be explained by: each side with its own slope (a drift that curves), and both with
 * their common slope (a straight drift, measured more precisely).
 */
export interface Drifts {
  readonly separate: SideSlopes;
  readonly common: SideSlopes;
}

/**
 * The slope of each side of a split, `[from, at)` and `[at, to)`, or null when neither side shows one: what a
 * drift adds to the split's comparison, so that each side can be brought to its level at the split before it
 * is compared. A side's slope is the median of the slopes between points half the side apart (robust: an
 * outlier moves one of them); only slopes inside each side count, so the step between them is not mistaken for
 * a drift, and two different slopes follow a drift that curves. A least-squares screen (O(n), no sorting)
 * skips the robust fit where no slope shows.
 */
export function sideSlopes(values: Float64Array, from: number, at: number, to: number): Drifts | null {
  const before = leastSquares(values, from, at);
  const after = leastSquares(values, at, to);
  const common = (before.xy + after.xy) / (before.xx + after.xx);
  const variance = (before.residual + after.residual - common * (before.xy + after.xy)) / (to - from - 3);
  const commonZ = variance > 0 ? common / Math.sqrt(variance / (before.xx + after.xx)) : 0;
  if (Math.abs(before.z) < SCREEN_Z && Math.abs(after.z) < SCREEN_Z && Math.abs(commonZ) < SCREEN_Z)
    return null;
  const separate = { before: medianSlope(values, from, at), after: medianSlope(values, at, to) };
  // each side's median slope has a variance proportional to 1 / m³: pooled by m³
  const weightBefore = (at - from) ** 3;
  const weightAfter = (to - at) ** 3;
  const pooled =
    (weightBefore * separate.before + weightAfter * separate.after) / (weightBefore + weightAfter);
  return { separate, common: { before: pooled, after: pooled } };
}

/** The least-squares fit of a line to `[from, to)`: its sums and the slope's z-score (0 when too short). */
function leastSquares(
  values: Float64Array,
  from: number,
  to: number,
): { xy: number; xx: number; residual: number; z: number } {
  const m = to - from;
  if (m < MIN_SLOPE_SIDE) return { xy: 0, xx: 0, residual: 0, z: 0 };
  let mean = 0;
  for (let i = from; i < to; i++) mean += values[i] as number;
  mean /= m;
  const center = (from + to - 1) / 2;
  let xy = 0;
  let yy = 0;
  for (let i = from; i < to; i++) {
    const d = (values[i] as number) - mean;
    xy += (i - center) * d;
    yy += d * d;
  }
  const xx = (m * (m * m - 1)) / 12;
  const slope = xy / xx;
  const variance = (yy - slope * slope * xx) / (m - 2);
  return { xy, xx, residual: yy, z: variance > 0 ? slope / Math.sqrt(variance / xx) : 0 };
}

/** The median of the slopes between points half of `[from, to)` apart (each point in one pair); 0 if too short. */
function medianSlope(values: Float64Array, from: number, to: number): number {
  if (to - from < MIN_SLOPE_SIDE) return 0;
  const lag = (to - from) >> 1;
  const slopes = new Float64Array(to - from - lag);
  for (let i = 0; i < slopes.length; i++)
    slopes[i] = ((values[from + i + lag] as number) - (values[from + i] as number)) / lag;
  return medianOf(slopes);
}
