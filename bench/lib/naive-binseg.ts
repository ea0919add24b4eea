import { normalEquivalent } from '../../core/detection/significance.js';

/**
 * A baseline: naive robust binary segmentation, the kind of detector one writes in 40 lines. A segment's values
 * are ranked; the split with the largest standardized rank sum (Mann-Whitney) is kept when it exceeds a
 * Bonferroni bound over the segment's splits at level `alpha`; then each side is split the same way. No windows,
 * no drift or outlier-run rule, segments of at least `minSegment` points.
 */
export function naiveBinarySegmentation(values: Float64Array, alpha = 0.001, minSegment = 5): number[] {
  const found: number[] = [];
  const split = (from: number, to: number): void => {
    const n = to - from;
    if (n < 2 * minSegment) return;
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => (values[from + a] as number) - (values[from + b] as number),
    );
    const ranks = new Float64Array(n);
    for (let i = 0; i < n;) {
      let j = i + 1;
      while (j < n && values[from + order[j]!] === values[from + order[i]!]) j++;
      for (let k = i; k < j; k++) ranks[order[k]!] = (i + 1 + j) / 2;
      i = j;
    }
    let sum = 0;
    let best = 0;
    let at = -1;
    for (let t = 1; t < n; t++) {
      sum += ranks[t - 1]!;
      if (t < minSegment || n - t < minSegment) continue;
      const z = Math.abs(sum - (t * (n + 1)) / 2) / Math.sqrt((t * (n - t) * (n + 1)) / 12);
      if (z > best) [best, at] = [z, from + t];
    }
    if (at < 0 || best < normalEquivalent(alpha / (n - 2 * minSegment + 1))) return;
    found.push(at);
    split(from, at);
    split(at, to);
  };
  split(0, values.length);
  return found.sort((a, b) => a - b);
}
