import { setOwn, type Bmf, type BmfMetric } from '../bmf.js';

/** How several iterations (results strings) collapse into one: `--fold` of `benchtrack run` and `parse`. */
export type Fold = 'min' | 'max' | 'mean' | 'median';

export const FOLDS: readonly Fold[] = ['min', 'max', 'mean', 'median'];

/**
 * Folds iterations into a single iteration, per benchmark and measure, with the reference's semantics:
 *
 * - `min`/`max` pick whole metrics, ordered by value, then upper_value, then lower_value (absent first);
 * - `mean` adds the metrics (see {@link addMetrics}) and divides by the number of iterations, including
 *   iterations in which the benchmark is missing;
 * - `median` sorts the metrics present (same order) and takes the middle one, or the mean of the two middle
 *   ones.
 *
 * Pure; the CLI and the API both use it.
 */
export function foldIterations(iterations: readonly Bmf[], fold: Fold): Bmf {
  if (fold === 'median') return foldMedian(iterations);
  const out: Bmf = {};
  for (const iteration of iterations) {
    for (const [benchmark, measures] of Object.entries(iteration)) {
      const target = ensure(out, benchmark);
      for (const [measure, metric] of Object.entries(measures)) {
        const current = Object.hasOwn(target, measure) ? target[measure] : undefined;
        setOwn(target, measure, current === undefined ? copy(metric) : combine(current, metric, fold));
      }
    }
  }
  if (fold === 'mean') {
    for (const measures of Object.values(out)) {
      for (const [measure, metric] of Object.entries(measures)) {
        setOwn(measures, measure, divideMetric(metric, iterations.length));
      }
    }
  }
  return out;
}

function combine(a: BmfMetric, b: BmfMetric, fold: Exclude<Fold, 'median'>): BmfMetric {
  if (fold === 'mean') return addMetrics(a, b);
  const order = compareMetrics(b, a);
  if (fold === 'min') return order < 0 ? copy(b) : a;
  return order > 0 ? copy(b) : a;
}

function foldMedian(iterations: readonly Bmf[]): Bmf {
  const collected = new Map<string, Map<string, BmfMetric[]>>();
  for (const iteration of iterations) {
    for (const [benchmark, measures] of Object.entries(iteration)) {
      let byMeasure = collected.get(benchmark);
      if (!byMeasure) collected.set(benchmark, (byMeasure = new Map()));
      for (const [measure, metric] of Object.entries(measures)) {
        const list = byMeasure.get(measure);
        if (list) list.push(metric);
        else byMeasure.set(measure, [metric]);
      }
    }
  }
  const out: Bmf = {};
  for (const [benchmark, byMeasure] of collected) {
    const target = ensure(out, benchmark);
    for (const [measure, metrics] of byMeasure) setOwn(target, measure, medianMetric(metrics));
  }
  return out;
}

/** Median of metrics ordered by {@link compareMetrics}; the list is not empty. */
export function medianMetric(metrics: readonly BmfMetric[]): BmfMetric {
  const sorted = [...metrics].sort(compareMetrics);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] as BmfMetric;
  if (sorted.length % 2 === 1) return copy(upper);
  return divideMetric(addMetrics(sorted[middle - 1] as BmfMetric, upper), 2);
}

/** Total order of the reference: value, then upper_value, then lower_value; an absent bound sorts first. */
export function compareMetrics(a: BmfMetric, b: BmfMetric): number {
  return (
    compareNumbers(a.value, b.value) ||
    compareOptional(a.upper_value, b.upper_value) ||
    compareOptional(a.lower_value, b.lower_value)
  );
}

/**
 * Element-wise sum. A bound present on both sides adds; a bound present on one side only is added to the
 * other side's value (so the sum of a bounded and an unbounded metric stays a sensible interval).
 */
export function addMetrics(a: BmfMetric, b: BmfMetric): BmfMetric {
  const sum: BmfMetric = { value: a.value + b.value };
  const lower = addBound(a.lower_value, a.value, b.lower_value, b.value);
  const upper = addBound(a.upper_value, a.value, b.upper_value, b.value);
  if (lower !== undefined) sum.lower_value = lower;
  if (upper !== undefined) sum.upper_value = upper;
  return sum;
}

function addBound(
  left: number | undefined,
  leftValue: number,
  right: number | undefined,
  rightValue: number,
) {
  if (left !== undefined) return right !== undefined ? left + right : left + rightValue;
  return right !== undefined ? leftValue + right : undefined;
}

function divideMetric(metric: BmfMetric, divisor: number): BmfMetric {
  const out: BmfMetric = { value: metric.value / divisor };
  if (metric.lower_value !== undefined) out.lower_value = metric.lower_value / divisor;
  if (metric.upper_value !== undefined) out.upper_value = metric.upper_value / divisor;
  return out;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareOptional(a: number | undefined, b: number | undefined): number {
  if (a === undefined) return b === undefined ? 0 : -1;
  return b === undefined ? 1 : compareNumbers(a, b);
}

function copy({ value, lower_value, upper_value }: BmfMetric): BmfMetric {
  const out: BmfMetric = { value };
  if (lower_value !== undefined) out.lower_value = lower_value;
  if (upper_value !== undefined) out.upper_value = upper_value;
  return out;
}

function ensure(bmf: Bmf, benchmark: string): Record<string, BmfMetric> {
  if (!Object.hasOwn(bmf, benchmark)) setOwn(bmf, benchmark, {});
  return bmf[benchmark] as Record<string, BmfMetric>;
}
