import { describe, expect, it } from 'vitest';
import { mockResults, mulberry32 } from './mock-bmf.js';

describe('mockResults', () => {
  it('draws each value from [10^pow * c, 10^pow * (c + 1))', () => {
    const { bmf } = mockResults({ count: 50, measures: ['a', 'b'], pow: 2, seed: 3 });
    Object.values(bmf).forEach((measures, c) => {
      for (const metric of Object.values(measures)) {
        expect(metric.value).toBeGreaterThanOrEqual(100 * c);
        expect(metric.value).toBeLessThan(100 * (c + 1));
      }
    });
  });

  it('is deterministic for a seed, and --flaky fails about half of the seeds', () => {
    expect(mockResults({ count: 2, measures: ['m'], pow: 1, seed: 9 })).toEqual(
      mockResults({ count: 2, measures: ['m'], pow: 1, seed: 9 }),
    );
    const fails = Array.from(
      { length: 1000 },
      (_, seed) => mockResults({ count: 5, measures: ['latency'], pow: 1, seed }).flakyFails,
    );
    const share = fails.filter(Boolean).length / fails.length;
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.55);
    // The CLI test relies on these two seeds with the default count and measure.
    expect(fails[1]).toBe(true);
    expect(fails[2]).toBe(false);
  });

  it('generates uniform numbers in [0, 1)', () => {
    const next = mulberry32(1);
    const values = Array.from({ length: 10_000 }, next);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    expect(values.reduce((a, b) => a + b, 0) / values.length).toBeCloseTo(0.5, 1);
  });
});
