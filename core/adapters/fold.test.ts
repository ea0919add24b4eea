import { describe, expect, it } from 'vitest';
import type { Bmf } from '../bmf.js';
import { addMetrics, foldIterations, medianMetric } from './fold.js';

const ten: Bmf = { bench: { latency: { value: 10, lower_value: 9 } } };
const twenty: Bmf = { bench: { latency: { value: 20, lower_value: 19 } } };

describe('foldIterations', () => {
  it.each([
    ['min', 10],
    ['max', 20],
    ['mean', 15],
    ['median', 15],
  ] as const)('%s of two iterations', (fold, expected) => {
    expect(foldIterations([ten, twenty], fold).bench?.latency?.value).toBe(expected);
  });

  it.each([
    ['min', 10],
    ['max', 20],
    // The mean divides by the number of iterations, an empty one included; the median only sees metrics.
    ['mean', 10],
    ['median', 15],
  ] as const)('%s with an empty iteration', (fold, expected) => {
    expect(foldIterations([{}, ten, twenty], fold).bench?.latency?.value).toBe(expected);
  });

  it('orders whole metrics by value, then upper, then lower (absent first)', () => {
    const a: Bmf = { b: { m: { value: 1, upper_value: 5 } } };
    const b: Bmf = { b: { m: { value: 1 } } };
    const c: Bmf = { b: { m: { value: 1, upper_value: 5, lower_value: 0 } } };
    expect(foldIterations([a, b, c], 'min').b?.m).toEqual({ value: 1 });
    expect(foldIterations([a, b, c], 'max').b?.m).toEqual({ value: 1, upper_value: 5, lower_value: 0 });
  });

  it('mean keeps bounds meaningful when only some iterations have them', () => {
    const bounded: Bmf = { b: { m: { value: 10, lower_value: 8, upper_value: 12 } } };
    const bare: Bmf = { b: { m: { value: 20 } } };
    expect(foldIterations([bounded, bare], 'mean').b?.m).toEqual({
      value: 15,
      lower_value: 14,
      upper_value: 16,
    });
  });

  it('median of an even count averages the two middle metrics', () => {
    expect(
      medianMetric([
        { value: 10, upper_value: 20 },
        { value: 20, lower_value: 15 },
      ]),
    ).toEqual({
      value: 15,
      lower_value: 12.5,
      upper_value: 20,
    });
    expect(medianMetric([{ value: 3 }, { value: 1 }, { value: 2 }])).toEqual({ value: 2 });
  });

  it('keeps benchmarks and measures that appear in some iterations only', () => {
    const folded = foldIterations([{ a: { m: { value: 1 } } }, { b: { n: { value: 4 } } }], 'mean');
    expect(folded).toEqual({ a: { m: { value: 0.5 } }, b: { n: { value: 2 } } });
  });

  it('returns an empty result for no iterations', () => {
    expect(foldIterations([], 'mean')).toEqual({});
  });

  it('adds bounds present on one side to the value of the other', () => {
    expect(addMetrics({ value: 1, lower_value: 0 }, { value: 2, upper_value: 3 })).toEqual({
      value: 3,
      lower_value: 2,
      upper_value: 4,
    });
  });
});
