import type { SideSlopes } from './drift.js';
import { sortWith } from './sort.js';

/**
 * Twice the mid-rank of every value of the series (1-based ranks; tied values share the mean of their ranks,
 * so twice it is an integer): the series as the rank tests see it. Equal values get equal ranks, and the
 * ranks do not change when the values are shifted, scaled by a positive factor, or transformed by any
 * increasing function.
 */
export function doubledMidRanks(values: Float64Array): Float64Array {
  const ranks = new Float64Array(values.length);
  midRanksInto(values.slice(), new Uint32Array(values.length), ranks, 2);
  return ranks;
}

/**
 * Sorts `keys` (with `order` = their positions, filled here) and writes `scale` times each position's 1-based
 * mid-rank into `out`; returns Σ(t³ − t) over the groups of t tied keys.
 */
function midRanksInto(keys: Float64Array, order: Uint32Array, out: Float64Array, scale: number): number {
  const n = keys.length;
  for (let i = 0; i < n; i++) order[i] = i;
  sortWith(keys, order);
  let ties = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && keys[j] === keys[i]) j++;
    const rank = (scale * (i + 1 + j)) / 2;
    for (let k = i; k < j; k++) out[order[k] as number] = rank;
    const t = j - i;
    ties += t * t * t - t;
    i = j;
  }
  return ties;
}

/** The rank comparison of the two sides of one split of a window. */
export interface RankSplit {
  /** Points on each side. */
  readonly before: number;
  readonly after: number;
  /** Mann-Whitney U of the side after: pairs (earlier, later) with the later value higher, ties counted 1/2. */
  readonly u: number;
  /** U standardized by its permutation variance (ties corrected): positive when the later side is higher. */
  readonly z: number;
  /** True when every value of one side lies above every value of the other. */
  readonly separated: boolean;
  /** The split of the window (an index of the series) with the largest |z|, among those with `minSide` a side. */
  readonly best: number;
}

/**
 * Rank tests over windows of one series, reusing scratch buffers. A window's ranks come from the series' global
 * ranks, which order its values the same way and are small integers, so that no value is compared twice.
 */
export class RankWindows {
  /** The series' global ranks, from {@link doubledMidRanks}. */
  readonly ranks: Float64Array;
  #keys = new Float64Array(0);
  #order = new Uint32Array(0);
  #local = new Float64Array(0);

  constructor(private readonly values: Float64Array) {
    this.ranks = doubledMidRanks(values);
  }

  /**
   * Compares `[from, at)` with `[at, to)`, and finds the window's best split at least `minSide` from each end;
   * with `slopes`, each side's values brought to the split along its slope: less slope · (index − at).
   */
  split(from: number, at: number, to: number, minSide: number, slopes?: SideSlopes): RankSplit {
    const n = to - from;
    this.#grow(n);
    const keys = this.#keys.subarray(0, n);
    if (slopes === undefined) keys.set(this.ranks.subarray(from, to));
    else
      for (let i = 0; i < n; i++) {
        // relative to the value at the split, so that shifting the series changes no rounding
        const slope = from + i < at ? slopes.before : slopes.after;
        const value = (this.values[from + i] as number) - (this.values[at] as number);
        keys[i] = value - slope * (from + i - at);
      }
    const local = this.#local;
    const ties = midRanksInto(keys, this.#order.subarray(0, n), local, 1);
    const mean = (n + 1) / 2;
    // permutation variance of one rank: ((n² − 1) − Σ(t³ − t) / n) / 12
    const variance = (n * n - 1 - ties / n) / 12;
    const scale = variance / (n - 1);
    let sum = 0;
    let before = 0;
    let bestSquare = -1;
    let best = at;
    for (let t = 1; t < n; t++) {
      sum += local[t - 1] as number;
      if (from + t === at) before = sum;
      if (t < minSide || n - t < minSide) continue;
      // z² compared, so that the loop takes no square root
      const deviation = t * mean - sum;
      const square = scale > 0 ? (deviation * deviation) / (t * (n - t) * scale) : 0;
      if (square > bestSquare) {
        bestSquare = square;
        best = from + t;
      }
    }
    const left = at - from;
    const sd = Math.sqrt(left * (n - left) * scale);
    const z = sd > 0 ? (left * mean - before) / sd : 0;
    const right = to - at;
    const earlierHigher = before - (left * (left + 1)) / 2;
    return {
      before: left,
      after: right,
      u: left * right - earlierHigher,
      z,
      separated: variance > 0 && (earlierHigher === 0 || earlierHigher === left * right),
      best,
    };
  }

  #grow(n: number): void {
    if (this.#keys.length >= n) return;
    this.#keys = new Float64Array(n);
    this.#order = new Uint32Array(n);
    this.#local = new Float64Array(n);
  }
}
