import { describe, expect, it } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import { sideSlopes } from './drift.js';

const series = (seed: number, level: (i: number) => number, n = 200) => {
  const random = new Random(seed);
  return Float64Array.from({ length: n }, (_, i) => level(i) + random.normal());
};

describe('sideSlopes', () => {
  it('measures each side and both together, robustly', () => {
    const x = series(1, (i) => 0.05 * i + (i >= 100 ? 20 : 0));
    x[30] = 1e6;
    const drifts = sideSlopes(x, 0, 100, 200);
    expect(drifts?.separate.before).toBeCloseTo(0.05, 2);
    expect(drifts?.separate.after).toBeCloseTo(0.05, 2);
    expect(drifts?.common.before).toBeCloseTo(0.05, 2);
  });

  it('follows a drift that curves with a slope for each side', () => {
    const drifts = sideSlopes(
      series(2, (i) => (i < 100 ? 0.1 * i : 10 - 0.1 * (i - 100))),
      0,
      100,
      200,
    );
    expect(drifts?.separate.before).toBeCloseTo(0.1, 2);
    expect(drifts?.separate.after).toBeCloseTo(-0.1, 2);
  });

  it('finds no slope in most flat series, and none in sides too short to show one', () => {
    let found = 0;
    for (let seed = 1; seed <= 200; seed++)
      if (
        sideSlopes(
          series(seed, () => 5),
          0,
          100,
          200,
        ) !== null
      )
        found++;
    // each side's least-squares z exceeds 1 with probability 0.32, either or the pooled one about half the time
    expect(found).toBeGreaterThan(60);
    expect(found).toBeLessThan(140);
    expect(
      sideSlopes(
        Float64Array.from({ length: 14 }, (_, i) => i),
        0,
        7,
        14,
      ),
    ).toBeNull();
  });
});
