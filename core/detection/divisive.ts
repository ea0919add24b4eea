import { WindowDivergence, type Candidate } from './energy.js';
import { splitStats } from './segment-stats.js';

/**
 * E-divisive with a t-test (Otava's ChangePointDetector with its TTestSignificanceTester) over
 * `series[from .. to)`: the best split of any segment is found by energy divergence and kept while its t-test
 * p-value is at most `maxPValue`; the first split that fails ends the search. Returns the kept splits in
 * ascending order, as indexes into `series`. Costs O(L²) memory and O(k·L²) time for L = to − from and k splits
 * (a segment's best split is computed once and reused until the segment is cut).
 */
export function divisive(series: Float64Array, from: number, to: number, maxPValue: number): number[] {
  const window = series.slice(from, to);
  const divergence = new WindowDivergence(window);
  const found: number[] = [];
  const cache = new Map<number, Candidate>();
  for (;;) {
    let best: Candidate | undefined;
    let bestStart = 0;
    let bestStop = 0;
    for (let k = 0; k <= found.length; k++) {
      const start = k === 0 ? 0 : found[k - 1]!;
      const stop = k === found.length ? window.length : found[k]!;
      if (stop - start < 2) continue;
      let candidate = cache.get(start);
      if (candidate === undefined) cache.set(start, (candidate = divergence.best(start, stop)));
      if (best === undefined || candidate.qhat > best.qhat) {
        best = candidate;
        bestStart = start;
        bestStop = stop;
      }
    }
    if (best === undefined) break;
    const { pValue } = splitStats(window, bestStart, best.index, bestStop);
    if (!(pValue <= maxPValue)) break;
    cache.delete(bestStart);
    found.push(best.index);
    found.sort((a, b) => a - b);
  }
  return found.map((index) => index + from);
}
