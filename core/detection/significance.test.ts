import { describe, expect, it } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import { exactRankSumPValue, normalEquivalent, normalTwoSided, scanPValue } from './significance.js';

/** Two-sided p-value of a rank-sum count by enumerating every way to place `small` values among `small + large`. */
function enumerated(u: number, small: number, large: number): number {
  const counts: number[] = [];
  const place = (left: number, position: number, pairs: number): void => {
    if (left === 0) {
      counts[pairs] = (counts[pairs] ?? 0) + 1;
      return;
    }
    // a value of the small side at `position` lies above every value of the large side placed before it
    for (let p = position; p <= small + large - left; p++)
      place(left - 1, p + 1, pairs + (p - (small - left)));
  };
  place(small, 0, 0);
  const total = counts.reduce((s, c) => s + (c ?? 0), 0);
  const tail = counts.slice(0, u + 1).reduce((s, c) => s + (c ?? 0), 0);
  return Math.min(1, (2 * tail) / total);
}

describe('exactRankSumPValue', () => {
  it('agrees with enumeration for every count of small samples', () => {
    for (const [small, large] of [
      [1, 5],
      [2, 7],
      [3, 3],
      [3, 9],
      [4, 8],
      [5, 6],
    ] as const)
      for (let u = 0; u <= small * large; u++)
        expect(exactRankSumPValue(u, small, large), `${small} vs ${large}, U = ${u}`).toBeCloseTo(
          enumerated(u, small, large),
          12,
        );
  });

  it('gives 2 / C(n, k) for complete separation', () => {
    expect(exactRankSumPValue(0, 3, 3)).toBeCloseTo(0.1, 15);
    expect(exactRankSumPValue(0, 3, 50) / (2 / 23426) - 1).toBeLessThan(1e-12);
  });
});

describe('scanPValue', () => {
  it('is the fixed-split p-value when the window has one split', () => {
    expect(scanPValue(2.5, 6, 3)).toBe(normalTwoSided(2.5));
  });

  it('grows with the number of splits and falls with z', () => {
    expect(scanPValue(4, 100, 3)).toBeGreaterThan(scanPValue(4, 30, 3));
    expect(scanPValue(4, 100, 3)).toBeGreaterThan(scanPValue(4, 100, 10));
    expect(scanPValue(4.5, 100, 3)).toBeLessThan(scanPValue(4, 100, 3));
    expect(scanPValue(0, 100, 3)).toBe(1);
  });

  it('matches the chance that the largest standardized split of Gaussian noise exceeds z', () => {
    // 40,000 seeded series of 100 points: the tail at the p ≈ 0.01 and 0.001 quantiles
    const random = new Random(11);
    const n = 100;
    const trials = 40_000;
    const maxima = new Float64Array(trials);
    const x = new Float64Array(n);
    for (let k = 0; k < trials; k++) {
      let total = 0;
      for (let i = 0; i < n; i++) total += x[i] = random.normal();
      let sum = 0;
      let best = 0;
      for (let t = 1; t < n; t++) {
        sum += x[t - 1] as number;
        if (t < 3 || n - t < 3) continue;
        best = Math.max(best, Math.abs(sum - (t * total) / n) / Math.sqrt((t * (n - t)) / n));
      }
      maxima[k] = best;
    }
    maxima.sort();
    for (const q of [0.01, 0.001]) {
      const z = maxima[Math.floor((1 - q) * trials)] as number;
      expect(scanPValue(z, n, 3) / q).toBeGreaterThan(0.75);
      expect(scanPValue(z, n, 3) / q).toBeLessThan(1.33);
    }
  });
});

describe('normalEquivalent', () => {
  it('inverts the two-sided normal tail', () => {
    for (const z of [0.5, 2, 5, 10, 30]) expect(normalEquivalent(normalTwoSided(z))).toBeCloseTo(z, 8);
    expect(normalEquivalent(1)).toBe(0);
    expect(normalEquivalent(0)).toBe(Number.POSITIVE_INFINITY);
  });
});
