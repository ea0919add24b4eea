import { sideSlopes } from './drift.js';
import { RankWindows, type RankSplit } from './ranks.js';
import { meanAndStd, splitStats } from './segment-stats.js';
import { medianOf } from './sort.js';
import { exactRankSumPValue, normalEquivalent, normalTwoSided, scanPValue } from './significance.js';

/** The settings a split test reads. */
export interface SplitSettings {
  /** The most points on each side of a split that its test reads. */
  readonly window: number;
  /** The significance level. */
  readonly alpha: number;
  /** Fewest points on a side. */
  readonly minSide: number;
}

/** A side this short or shorter gets the exact rank-sum distribution (the normal one is far off there). */
const EXACT_SIDE = 12;
/** How many noise scales apart two sides too short for ranks must be before a t-test may decide. */
const GAP = 2;
/** The drift of a split is measured over up to this many windows on each side. */
const DRIFT_SPAN = 4;

/** The test of one split. */
export interface Verdict {
  /** Its p-value, corrected for the split being the best of its window. */
  readonly pValue: number;
  /** The standardized rank statistic: positive for a step up. */
  readonly z: number;
  /** The best split of the same window. */
  readonly best: number;
  /** Ranks alone could reach the level for sides of these sizes (else the small-sample rule decided). */
  readonly decisive: boolean;
}

/**
 * Tests splits of one series: the Mann-Whitney rank-sum test between up to `window` points on each side of the
 * split (exact when a side has at most 12 points), corrected for the split being the best of its window
 * ({@link scanPValue}). If the segment drifts (a significant common slope inside the two sides), the test is
 * also run on the values less that slope, and the less significant answer stands: a drift cannot make a change,
 * and a slope that noise suggested cannot either. Where the sides are too short for ranks to reach the level,
 * they must be completely separated and a Student t-test decides.
 */
export class SplitTester {
  readonly #windows: RankWindows;
  readonly #reaches = new Map<number, boolean>();
  /** Tests already made: the segmentation asks for the same split of the same segment again and again. */
  readonly #verdicts = new Map<string, Verdict>();

  constructor(
    readonly series: Float64Array,
    private readonly settings: SplitSettings,
  ) {
    this.#windows = new RankWindows(series);
  }

  /** The series' global ranks (see {@link RankWindows}). */
  get ranks(): Float64Array {
    return this.#windows.ranks;
  }

  /**
   * The split at `at` of the segment `[start, end)` (its neighbours, or the ends of the series); `drift` false
   * skips the drift test (for a segment that may still hold other steps, which would look like a slope).
   */
  test(start: number, at: number, end: number, drift = true): Verdict {
    const key = `${start},${at},${end},${drift ? 1 : 0}`;
    let verdict = this.#verdicts.get(key);
    if (verdict === undefined) this.#verdicts.set(key, (verdict = this.#test(start, at, end, drift)));
    return verdict;
  }

  #test(start: number, at: number, end: number, drift: boolean): Verdict {
    const { window, minSide, alpha } = this.settings;
    const from = Math.max(start, at - window);
    const to = Math.min(end, at + window);
    const points = to - from;
    let split = this.#windows.split(from, at, to, minSide);
    let pValue = this.#pValue(split, points);
    const decisive = this.#reachable(Math.min(split.before, split.after), points);
    // a drift can only weaken a change: where the ranks already reject it, it need not be measured
    const reach = DRIFT_SPAN * window;
    const drifts =
      drift && (pValue < alpha || !decisive)
        ? sideSlopes(this.series, Math.max(start, at - reach), at, Math.min(end, at + reach))
        : null;
    let separated = split.separated;
    for (const slopes of drifts === null ? [] : [drifts.separate, drifts.common]) {
      const level = this.#windows.split(from, at, to, minSide, slopes);
      const levelP = this.#pValue(level, points);
      separated &&= level.separated;
      if (levelP > pValue) [split, pValue] = [level, levelP];
    }
    // a window too small for any split to reach the level: the t-test decides, so its best separated split
    const tiny = !this.#reachable(points >> 1, points);
    const best = (tiny ? this.#bestSeparated(from, to) : undefined) ?? split.best;
    const verdict = { pValue, z: split.z, best, decisive };
    if (decisive || !separated || !this.#clearGap(from, at, to)) return verdict;
    const t = splitStats(this.series, from, at, to).pValue;
    return { ...verdict, pValue: scanPValue(normalEquivalent(t), points, minSide) };
  }

  /**
   * Whether the values on each side of a split (already completely separated) are more than {@link GAP} noise
   * scales apart, the scale being the median absolute deviation of the longer side. Two heavy-tailed values
   * and a third that happens to top the rest are separated, but barely: the t-test, which their size sways,
   * must not decide for them.
   */
  #clearGap(from: number, at: number, to: number): boolean {
    const x = this.series;
    let lowMax = Number.NEGATIVE_INFINITY;
    let highMin = Number.POSITIVE_INFINITY;
    const up = meanAndStd(x, from, at).mean < meanAndStd(x, at, to).mean;
    for (let i = from; i < to; i++) {
      const low = i < at === up;
      if (low) lowMax = Math.max(lowMax, x[i] as number);
      else highMin = Math.min(highMin, x[i] as number);
    }
    const [a, b] = at - from >= to - at ? [from, at] : [at, to];
    const side = x.slice(a, b);
    const centre = medianOf(side);
    for (let i = 0; i < side.length; i++) side[i] = Math.abs((side[i] as number) - centre);
    const scale = 1.4826 * medianOf(side);
    return highMin - lowMax > GAP * scale;
  }

  /**
   * The split of the segment `[start, end)` within `reach` points of `at` (and `minSide` from its ends) that fits
   * the values best: the smallest sum of absolute deviations from each side's median, over the windows of all of
   * them. Ranks tell whether a level moved but not exactly where, when the values just before the move sit high
   * (or low) in the old level; medians do, and an outlier sways them little.
   */
  closestFit(start: number, at: number, end: number, reach: number): number {
    const { window, minSide } = this.settings;
    const low = Math.max(start + minSide, at - reach);
    const high = Math.min(end - minSide, at + reach);
    const from = Math.max(start, low - window);
    const to = Math.min(end, high + window);
    let best = at;
    let cost = this.#absoluteDeviations(from, at, to);
    for (let t = low; t <= high; t++) {
      if (t === at) continue;
      const c = this.#absoluteDeviations(from, t, to);
      if (c < cost) [best, cost] = [t, c];
    }
    return best;
  }

  /** Which of two nearby splits of `[start, end)` the values fit better (as {@link closestFit} measures it). */
  closerFit(start: number, a: number, b: number, end: number): number {
    const { window } = this.settings;
    const from = Math.max(start, Math.min(a, b) - window);
    const to = Math.min(end, Math.max(a, b) + window);
    return this.#absoluteDeviations(from, b, to) < this.#absoluteDeviations(from, a, to) ? b : a;
  }

  #absoluteDeviations(from: number, at: number, to: number): number {
    let total = 0;
    for (const [a, b] of [
      [from, at],
      [at, to],
    ] as const) {
      const side = this.series.slice(a, b);
      const centre = medianOf(side);
      for (let i = 0; i < side.length; i++) total += Math.abs((side[i] as number) - centre);
    }
    return total;
  }

  /** The split of `[from, to)` with the largest rank statistic, `minSide` or more from each end. */
  bestSplit(from: number, to: number): number {
    const { minSide } = this.settings;
    return this.#windows.split(from, from + minSide, to, minSide).best;
  }

  /**
   * Binary segmentation of `[from, to)`: its best split, kept when its p-value is below `level`, then the same
   * on each side.
   */
  bisect(from: number, to: number, level: number): number[] {
    const { minSide } = this.settings;
    if (to - from < 2 * minSide) return [];
    const at = this.bestSplit(from, to);
    if (!(this.test(from, at, to, false).pValue < level)) return [];
    return [...this.bisect(from, at, level), at, ...this.bisect(at, to, level)];
  }

  /** The p-value of a split: exact rank-sum when a side is small, normal beyond; corrected for the choice. */
  #pValue(split: RankSplit, points: number): number {
    const small = Math.min(split.before, split.after);
    const pairs = split.before * split.after;
    const rare = Math.min(split.u, pairs - split.u);
    const single =
      small <= EXACT_SIDE
        ? exactRankSumPValue(Math.round(rare), small, points - small)
        : normalTwoSided(split.z);
    return scanPValue(normalEquivalent(single), points, this.settings.minSide);
  }

  /** Whether a split with `small` of `points` on one side can reach the level with ranks alone. */
  #reachable(small: number, points: number): boolean {
    const key = small * 65536 + points;
    let known = this.#reaches.get(key);
    if (known === undefined) {
      // the smallest p-value ranks can give: every value of one side above every value of the other
      const floor =
        small <= EXACT_SIDE
          ? exactRankSumPValue(0, small, points - small)
          : normalTwoSided(Math.sqrt((3 * small * (points - small)) / (points + 1)));
      known = scanPValue(normalEquivalent(floor), points, this.settings.minSide) < this.settings.alpha;
      this.#reaches.set(key, known);
    }
    return known;
  }

  /** Among the splits of `[from, to)` whose sides are completely separated, the one with the smallest t p-value. */
  #bestSeparated(from: number, to: number): number | undefined {
    const x = this.series;
    const { minSide } = this.settings;
    const n = to - from;
    const low = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
    const high = new Float64Array(n + 1).fill(Number.NEGATIVE_INFINITY);
    for (let i = n - 1; i >= 0; i--) {
      low[i] = Math.min(low[i + 1] as number, x[from + i] as number);
      high[i] = Math.max(high[i + 1] as number, x[from + i] as number);
    }
    let best: number | undefined;
    let bestP = Number.POSITIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let t = 1; t < n; t++) {
      min = Math.min(min, x[from + t - 1] as number);
      max = Math.max(max, x[from + t - 1] as number);
      if (t < minSide || n - t < minSide) continue;
      if (!(max < (low[t] as number) || min > (high[t] as number))) continue;
      const p = splitStats(x, from, from + t, to).pValue;
      if (best === undefined || p < bestP) {
        best = from + t;
        bestP = p;
      }
    }
    return best;
  }
}
