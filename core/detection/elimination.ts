import { changeMagnitude } from './segment-stats.js';
import type { SplitTester, Verdict } from './split-test.js';

/** What a segmentation must satisfy. */
export interface SegmentRules {
  readonly alpha: number;
  readonly minMagnitude: number;
  /** A run shorter than this that leaves a level and returns to it is tested as an outlier run. */
  readonly shortRun: number;
  /** Fewest points in a segment. */
  readonly minSide: number;
  /** The most points on each side of a split that its test reads. */
  readonly window: number;
}

/** A best split this close to a point moves it only when the values fit it better; see {@link Segmentation.place}. */
const NEAR = 4;
/** Rounds of moving points to their best split, each followed by an elimination. */
const ROUNDS = 4;

/** A change point found: its index, p-value and the means of the segments on each side. */
export interface Found {
  readonly index: number;
  readonly pValue: number;
  readonly before: number;
  readonly after: number;
}

/**
 * From candidate splits to change points: each point moves to the best split of its window, then the weakest
 * point is dropped (its neighbours re-tested and moved) until every point passes, and again while points move.
 */
export function segmentSeries(
  tester: SplitTester,
  candidates: readonly number[],
  rules: SegmentRules,
): Found[] {
  const segmentation = new Segmentation(tester, rules, candidates);
  segmentation.settleAll();
  // every exit follows an elimination, so every point returned passes
  for (let pass = 0; ; pass++) {
    for (let round = 0; ; round++) {
      segmentation.eliminate();
      if (round === ROUNDS || !segmentation.settleAll()) break;
    }
    if (pass === ROUNDS || !segmentation.complete()) break;
  }
  segmentation.place();
  segmentation.eliminate();
  return segmentation.found();
}

class Segmentation {
  readonly #points: number[];
  readonly #verdicts: Verdict[];
  readonly #sums: Float64Array;
  /** p-values of the single points left around short runs, by the run and its neighbours. */
  readonly #outer = new Map<string, number>();

  constructor(
    private readonly tester: SplitTester,
    private readonly rules: SegmentRules,
    candidates: readonly number[],
  ) {
    const { series } = tester;
    this.#sums = new Float64Array(series.length + 1);
    for (let i = 0; i < series.length; i++)
      this.#sums[i + 1] = (this.#sums[i] as number) + (series[i] as number);
    this.#points = [...candidates];
    this.#verdicts = this.#points.map((_, k) => this.#judge(k));
  }

  found(): Found[] {
    return this.#points.map((index, k) => ({
      index,
      pValue: (this.#verdicts[k] as Verdict).pValue,
      before: this.#mean(this.#points[k - 1] ?? 0, index),
      after: this.#mean(index, this.#points[k + 1] ?? this.tester.series.length),
    }));
  }

  /** Moves every point that is not at its window's best split; true if any moved. */
  settleAll(): boolean {
    let moved = false;
    for (let k = 0; k < this.#points.length; k++) moved = this.#settle(k) || moved;
    return moved;
  }

  /**
   * Puts every point at the split within {@link NEAR} points that the values fit best
   * ({@link SplitTester.closestFit}), where it and its neighbours still pass.
   */
  place(): void {
    for (let k = 0; k < this.#points.length; k++) {
      const at = this.#points[k] as number;
      const start = this.#points[k - 1] ?? 0;
      const end = this.#points[k + 1] ?? this.tester.series.length;
      const best = this.tester.closestFit(start, at, end, NEAR);
      if (best === at) continue;
      const before = this.#verdicts.slice(Math.max(0, k - 1), k + 2);
      this.#points[k] = best;
      for (const j of [k - 1, k, k + 1]) this.#rejudge(j);
      const passes = [k - 1, k, k + 1].every(
        (j) => j < 0 || j >= this.#points.length || (this.#verdicts[j] as Verdict).pValue < this.rules.alpha,
      );
      if (passes) continue;
      this.#points[k] = at;
      this.#verdicts.splice(Math.max(0, k - 1), before.length, ...before);
    }
  }

  /**
   * Tests the best split of every segment short enough to be one test's window (the candidates can miss a
   * change close to another, whose moving sums merge); adds those that pass. True if any was added.
   */
  complete(): boolean {
    const points = this.#points;
    const n = this.tester.series.length;
    const added: number[] = [];
    for (let k = 0; k <= points.length; k++) {
      const from = points[k - 1] ?? 0;
      const to = points[k] ?? n;
      if (to - from < 2 * this.rules.minSide || to - from > 2 * this.rules.window) continue;
      const at = this.tester.bestSplit(from, to);
      if (this.tester.test(from, at, to).pValue < this.rules.alpha && this.#large(from, at, to))
        added.push(at);
    }
    if (added.length === 0) return false;
    for (const at of added) {
      const k = points.findIndex((p) => p > at);
      const position = k < 0 ? points.length : k;
      points.splice(position, 0, at);
      this.#verdicts.splice(position, 0, this.#verdicts[0] as Verdict);
    }
    for (let k = 0; k < points.length; k++) this.#rejudge(k);
    return true;
  }

  /** Drops the weakest failing point, re-testing and moving its neighbours, until every point passes. */
  eliminate(): void {
    const points = this.#points;
    const verdicts = this.#verdicts;
    for (;;) {
      const badness = verdicts.map((v) => (Number.isNaN(v.pValue) ? 1 : v.pValue));
      this.#shortRuns(badness);
      this.#magnitudes(badness);
      let worst = -1;
      for (let k = 0; k < points.length; k++) {
        const bad = badness[k] as number;
        if (!(bad >= this.rules.alpha)) continue;
        const weaker =
          worst < 0 ||
          bad > (badness[worst] as number) ||
          (bad === badness[worst] &&
            Math.abs((verdicts[k] as Verdict).z) < Math.abs((verdicts[worst] as Verdict).z));
        if (weaker) worst = k;
      }
      if (worst < 0) return;
      points.splice(worst, 1);
      verdicts.splice(worst, 1);
      // the neighbours' windows grew: each moves to its new window's best split
      if (worst - 1 >= 0) this.#rejudge(worst - 1);
      if (worst < points.length) this.#rejudge(worst);
      if (worst - 1 >= 0) this.#settle(worst - 1);
      if (worst < points.length) this.#settle(worst);
    }
  }

  #judge(k: number): Verdict {
    const points = this.#points;
    return this.tester.test(
      points[k - 1] ?? 0,
      points[k] as number,
      points[k + 1] ?? this.tester.series.length,
    );
  }

  #rejudge(k: number): void {
    if (k >= 0 && k < this.#points.length) this.#verdicts[k] = this.#judge(k);
  }

  /**
   * Moves point k to the best split of its window (a few times: the window follows the point). A best split
   * within {@link NEAR} points moves it only if the values fit it better ({@link SplitTester.closerFit}): the
   * rank statistic leans towards the middle of the window, and where the last values before a step sit high in
   * the old level it picks a split a few points early. A best split farther away always moves it: a point that
   * passes where its window's best split lies elsewhere is most often a drift or an outlier run, and the move
   * lets it fail.
   */
  #settle(k: number): boolean {
    let moved = false;
    for (let step = 0; step < 3; step++) {
      const current = this.#verdicts[k] as Verdict;
      const at = this.#points[k] as number;
      if (current.best === at) break;
      const start = this.#points[k - 1] ?? 0;
      const end = this.#points[k + 1] ?? this.tester.series.length;
      if (Math.abs(current.best - at) <= NEAR && this.tester.closerFit(start, at, current.best, end) === at)
        break;
      this.#points[k] = current.best;
      this.#rejudge(k);
      moved = true;
    }
    if (moved) {
      this.#rejudge(k - 1);
      this.#rejudge(k + 1);
    }
    return moved;
  }

  /**
   * A run shorter than `shortRun` between points k and k + 1 that steps one way and back is an outlier run when
   * the level before it and the level after it do not differ: the better of the two single points left by
   * dropping either end must pass, or both ends fail with it. When the levels do differ, the run is an outlier
   * beside a real step: the end whose removal leaves the stronger single point goes. When the single points are
   * too short for ranks to decide, the points' own tests stand.
   */
  #shortRuns(badness: number[]): void {
    const points = this.#points;
    const n = this.tester.series.length;
    for (let k = 0; k + 1 < points.length; k++) {
      const start = points[k] as number;
      const end = points[k + 1] as number;
      const up = (this.#verdicts[k] as Verdict).z;
      const back = (this.#verdicts[k + 1] as Verdict).z;
      if (end - start >= this.rules.shortRun || up * back >= 0) continue;
      const before = points[k - 1] ?? 0;
      const after = points[k + 2] ?? n;
      const withoutStart = this.#single(before, end, after);
      const withoutEnd = this.#single(before, start, after);
      if (Number.isNaN(withoutStart) || Number.isNaN(withoutEnd)) continue;
      const outer = Math.min(withoutStart, withoutEnd);
      if (!(outer < this.rules.alpha)) {
        badness[k] = Math.max(badness[k] as number, outer);
        badness[k + 1] = Math.max(badness[k + 1] as number, outer);
      } else badness[withoutStart <= withoutEnd ? k : k + 1] = 1;
    }
  }

  /** The p-value of a point at `at` between `before` and `after`; NaN when ranks cannot decide it. */
  #single(before: number, at: number, after: number): number {
    const key = `${before},${at},${after}`;
    let p = this.#outer.get(key);
    if (p === undefined) {
      const verdict = this.tester.test(before, at, after);
      p = verdict.decisive ? verdict.pValue : Number.NaN;
      this.#outer.set(key, p);
    }
    return p;
  }

  /** Points whose relative change is at most `minMagnitude` fail, the smallest change first. */
  #magnitudes(badness: number[]): void {
    const floor = this.rules.minMagnitude;
    if (floor <= 0) return;
    const points = this.#points;
    for (let k = 0; k < points.length; k++) {
      const magnitude = this.#magnitude(
        points[k - 1] ?? 0,
        points[k] as number,
        points[k + 1] ?? this.tester.series.length,
      );
      if (magnitude <= floor) badness[k] = 2 - magnitude / floor;
    }
  }

  /** Whether a change at `at` between `from` and `to` passes the magnitude floor. */
  #large(from: number, at: number, to: number): boolean {
    return this.rules.minMagnitude <= 0 || this.#magnitude(from, at, to) > this.rules.minMagnitude;
  }

  #magnitude(from: number, at: number, to: number): number {
    return changeMagnitude(this.#mean(from, at), this.#mean(at, to));
  }

  #mean(from: number, to: number): number {
    return ((this.#sums[to] as number) - (this.#sums[from] as number)) / (to - from);
  }
}
