import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import { readCorpus } from '../../test/detection/corpus.js';
import { detectChangePoints, MIN_SEGMENT, type DetectionParams } from './detect.js';
import { DETECTION_DEFAULTS } from './params.js';
import { changeMagnitude } from './segment-stats.js';

const defaults = DETECTION_DEFAULTS;
const indexes = (values: Float64Array, params: DetectionParams = defaults) =>
  detectChangePoints(values, params).map((point) => point.index);

/** Seeded series: `levels` gives the level of each point, noise of standard deviation `sd` on top. */
function noisy(seed: number, levels: (i: number) => number, length: number, noise: (r: Random) => number) {
  const random = new Random(seed);
  return Float64Array.from({ length }, (_, i) => levels(i) + noise(random));
}
const gaussian = (sd: number) => (r: Random) => sd * r.normal();
/** Student-t with 3 degrees of freedom, scale `scale`. */
const studentT3 = (scale: number) => (r: Random) =>
  (scale * r.normal()) / Math.sqrt((r.normal() ** 2 + r.normal() ** 2 + r.normal() ** 2) / 3);

describe('detectChangePoints on the change-point corpus', () => {
  const corpus = new Map(readCorpus().map(({ file, values }) => [file, values as Float64Array]));
  const series = (file: string) => corpus.get(file) as Float64Array;

  it.each([
    ['otava/step_down_20.json', [10]],
    ['otava/three_levels_14.json', [5, 8]],
    ['otava/zeros_then_steps_11.json', [3, 6]],
    ['otava/branch_feature_x_metric1_6.json', [3]],
    ['otava/no_shift_10.json', []],
    ['otava/e2e_pg_stderr_6.json', []],
    ['mongodb-spa/real_series_132.json', []],
    ['mongodb-spa/flat_30.json', []],
    ['mongodb-spa/random_ish_60.json', [20, 40]],
    ['mongodb-spa/step_with_early_spike_30.json', [15]],
    ['mongodb-spa/step_with_ramp_ahead_30.json', [15]],
    ['mongodb-spa/regression_and_recovery_45.json', [15, 30]],
    ['mongodb-spa/two_regressions_45.json', [15, 30]],
    ['mongodb-spa/robust_series_173.json', [25, 64, 70, 114]],
  ] as const)('%s: %j', (file, expected) => {
    expect(indexes(series(file))).toEqual(expected);
  });

  it('finds the steps of the long series within 3 points, and nothing else', () => {
    const found = indexes(series('mongodb-spa/long_series_1000.json'));
    const reference = [205, 395, 594, 794];
    expect(found).toHaveLength(reference.length);
    found.forEach((index, k) => expect(Math.abs(index - (reference[k] as number))).toBeLessThanOrEqual(3));
    expect(indexes(series('mongodb-spa/absolute_certainty_2000.json'))).toEqual([1000]);
  });

  it('gives the TigerBeetle shifts of 5% and more with a magnitude floor, and their segment means', () => {
    const tigerbeetle = series('otava/tigerbeetle_365.json');
    const points = detectChangePoints(tigerbeetle, { ...defaults, min_magnitude: 0.05 });
    expect(points.map((p) => p.index)).toEqual([15, 71]);
    const mean = (from: number, to: number) =>
      tigerbeetle.subarray(from, to).reduce((s, v) => s + v, 0) / (to - from);
    expect(points[0]?.meanBefore).toBeCloseTo(mean(0, 15), 6);
    expect(points[0]?.meanAfter).toBe(points[1]?.meanBefore);
    expect(points[1]?.meanAfter).toBeCloseTo(mean(71, 365), 6);
  });
});

describe('detectChangePoints: properties', () => {
  /** Integer series (so shifting by an integer is exact) with up to 3 steps and noise, 6 to 300 points. */
  const series = fc
    .record({
      level: fc.integer({ min: 100, max: 100_000 }),
      noise: fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 6, maxLength: 300 }),
      steps: fc.array(
        fc.record({
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          by: fc.integer({ min: -500, max: 500 }),
        }),
        {
          maxLength: 3,
        },
      ),
    })
    .map(({ level, noise, steps }) =>
      Float64Array.from(noise, (e, i) => {
        const shift = steps.reduce((s, { at, by }) => s + (i >= at * noise.length ? by : 0), 0);
        return level + shift + e;
      }),
    );

  it('finds nothing in a constant series, whatever its length and value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (n, v) => {
          expect(indexes(new Float64Array(n).fill(v))).toEqual([]);
        },
      ),
    );
  });

  it('is unmoved by scaling by a power of two, by shifting and by negating the values', () => {
    fc.assert(
      fc.property(
        series,
        fc.integer({ min: -30, max: 30 }),
        fc.integer({ min: -1e6, max: 1e6 }),
        (x, k, s) => {
          const found = indexes(x);
          expect(indexes(x.map((v) => v * 2 ** k))).toEqual(found);
          expect(indexes(x.map((v) => v + s))).toEqual(found);
          expect(indexes(x.map((v) => -v))).toEqual(found);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps segments of 3 points or more, and describes each point by the segments on its two sides', () => {
    fc.assert(
      fc.property(series, fc.constantFrom(0, 0.01, 0.1), (x, minMagnitude) => {
        const params = { ...defaults, min_magnitude: minMagnitude };
        const points = detectChangePoints(x, params);
        const bounds = [0, ...points.map((p) => p.index), x.length];
        const mean = (from: number, to: number) =>
          x.subarray(from, to).reduce((s, v) => s + v, 0) / (to - from);
        points.forEach((point, k) => {
          expect((bounds[k + 1] as number) - (bounds[k] as number)).toBeGreaterThanOrEqual(MIN_SEGMENT);
          expect(point.meanBefore).toBeCloseTo(mean(bounds[k] as number, point.index), 6);
          expect(point.meanAfter).toBeCloseTo(mean(point.index, bounds[k + 2] as number), 6);
          expect(point.pValue).toBeLessThan(params.max_pvalue);
          if (minMagnitude > 0)
            expect(changeMagnitude(point.meanBefore, point.meanAfter)).toBeGreaterThan(minMagnitude);
        });
        expect(x.length - (bounds.at(-2) as number)).toBeGreaterThanOrEqual(MIN_SEGMENT);
      }),
      { numRuns: 200 },
    );
  });

  it('never makes two change points of a single outlier', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 20, max: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(-1e6, -50, -8, 8, 50, 1e6),
        (seed, n, where, size) => {
          const x = noisy(seed, () => 100, n, gaussian(1));
          const at = Math.floor(where * (n - 1));
          const before = indexes(x);
          x[at] = 100 + size;
          const after = indexes(x);
          expect(after.length).toBeLessThanOrEqual(before.length + 1);
          const around = after.filter((index) => Math.abs(index - at) <= MIN_SEGMENT + 1);
          expect(around.length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same answer on every call, whatever was detected before', () => {
    const x = noisy(7, (i) => (i < 500 ? 100 : 105), 1000, gaussian(2));
    const first = detectChangePoints(x, defaults);
    expect(first.map((p) => p.index)).toEqual([500]);
    detectChangePoints(
      noisy(8, () => 3, 5000, studentT3(1)),
      defaults,
    );
    expect(detectChangePoints(x.slice(), defaults)).toEqual(first);
  });
});

describe('detectChangePoints: robustness', () => {
  const flatCount = (make: (seed: number) => Float64Array, seeds: number) => {
    let points = 0;
    for (let seed = 1; seed <= seeds; seed++) points += indexes(make(seed)).length;
    return points;
  };

  it('finds no pair around two heavy-tailed values, and nothing at index 1 or 2', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const x = noisy(seed, () => 100, 200, gaussian(1));
      x[80] = 112;
      x[81] = 109;
      x[0] = 130;
      x[1] = 125;
      expect(indexes(x), `seed ${seed}`).toEqual([]);
    }
  });

  it('finds at most 2 false changes in 100,000 points of Student-t noise (3 degrees of freedom)', () => {
    // the aim is at most 1 in 1,000 points; these seeds give 1
    expect(flatCount((seed) => noisy(seed, () => 1000, 1000, studentT3(10)), 100)).toBeLessThanOrEqual(2);
  });

  it('merges a short run that leaves the level and returns to it', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const x = noisy(seed, (i) => (i >= 100 && i < 105 ? 110 : 100), 300, gaussian(1));
      expect(indexes(x), `seed ${seed}`).toEqual([]);
    }
  });

  it('keeps a run of 14 points or more that leaves the level and returns to it', () => {
    const x = noisy(3, (i) => (i >= 100 && i < 114 ? 110 : 100), 300, gaussian(1));
    expect(indexes(x)).toEqual([100, 114]);
  });

  it('does not cut a slow drift into steps, and finds a step inside one', () => {
    const drift = (i: number) => 100 * (1 + (0.02 * i) / 299);
    // 2% over 300 points at 0.5% noise, the hardest linear drift of the stress corpus. The aim is at most 1 in
    // 1,000 points (15 here); these seeds give 1, Otava's detector at the same level 92
    expect(flatCount((seed) => noisy(seed, drift, 300, gaussian(0.5)), 50)).toBeLessThanOrEqual(3);
    let extra = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const x = noisy(seed, (i) => drift(i) * (i >= 150 ? 1.05 : 1), 300, gaussian(0.5));
      const found = indexes(x);
      expect(
        found.filter((index) => Math.abs(index - 150) <= 3),
        `seed ${seed}`,
      ).toHaveLength(1);
      extra += found.length - 1;
    }
    // 6,000 points: these seeds give 2 more
    expect(extra).toBeLessThanOrEqual(3);
  });

  it('places a step at its first point when the last values before it sit high in the old level', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const x = noisy(seed, (i) => (i < 45 ? 100 : 115), 60, gaussian(2));
      x.set([103.1, 101.3, 102, 100.8], 41);
      // with few points after it, the step may not be significant yet; where it is, it is at 45 (or one off)
      for (let n = 50; n < 60; n++)
        expect(
          indexes(x.subarray(0, n)).filter((i) => Math.abs(i - 45) > 1),
          `seed ${seed}, ${n} points`,
        ).toEqual([]);
      const found = indexes(x);
      expect(found, `seed ${seed}`).toHaveLength(1);
      expect(Math.abs((found[0] as number) - 45), `seed ${seed}`).toBeLessThanOrEqual(1);
    }
  });

  it('finds every 10% step at 2% noise, 64 points on each side', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const x = noisy(seed, (i) => (i < 64 ? 100 : 110), 128, gaussian(2));
      expect(
        indexes(x).some((index) => Math.abs(index - 64) <= 3),
        `seed ${seed}`,
      ).toBe(true);
    }
  });
});
