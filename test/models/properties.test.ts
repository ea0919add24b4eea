import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelLimits, ModelParams, ModelPlugin } from '../../core/index.js';
import deltaIqr from '../../plugins/models/delta-iqr.js';
import iqr from '../../plugins/models/iqr.js';
import logNormal from '../../plugins/models/log-normal.js';
import percentage from '../../plugins/models/percentage.js';
import staticModel from '../../plugins/models/static.js';
import tTest from '../../plugins/models/t-test.js';
import zScore from '../../plugins/models/z-score.js';

/**
 * Histories of 2..64 samples with spread: integers / 100 in [10, 1000], so shifting and scaling by the
 * constants below keeps them well inside double precision (no spread can vanish by rounding).
 */
const history = fc
  .array(fc.integer({ min: 1_000, max: 100_000 }), { minLength: 2, maxLength: 64 })
  .filter((values) => new Set(values).size > 1)
  .map((values) => Float64Array.from(values, (value) => value / 100));
const shift = fc.integer({ min: -500, max: 5_000 }).map((k) => k / 4);
const scale = fc.oneof(
  fc.constantFrom(0.001, 0.5, 2, 1000),
  fc.integer({ min: 1, max: 10_000 }).map((k) => k / 100),
);

const both = (b: number): ModelParams => ({ lower_boundary: b, upper_boundary: b });
const statistical: [string, ModelPlugin, ModelParams][] = [
  ['z_score', zScore, both(0.99)],
  ['t_test', tTest, both(0.95)],
  ['iqr', iqr, both(1.5)],
];
const scaleOnly: [string, ModelPlugin, ModelParams][] = [
  ['percentage', percentage, both(0.1)],
  ['log_normal', logNormal, both(0.99)],
  ['delta_iqr', deltaIqr, both(1.5)],
];

/** Relative to the data's magnitude: the error floor of limits computed from values of that size. */
function expectMapped(
  actual: ModelLimits | null,
  expected: ModelLimits | null,
  map: (v: number) => number,
  size: number,
) {
  expect(actual).not.toBeNull();
  expect(expected).not.toBeNull();
  for (const side of ['baseline', 'lower', 'upper'] as const) {
    const want = map(expected?.[side] as number);
    const got = actual?.[side] as number;
    expect(Math.abs(got - want), `${side}: ${got} vs ${want}`).toBeLessThanOrEqual(1e-9 * size);
  }
}

const magnitude = (values: Float64Array) => Math.max(1, ...Array.from(values, Math.abs));
const run = (plugin: ModelPlugin, samples: Float64Array, params: ModelParams) =>
  plugin.limits(samples, plugin.params.parse(params));

describe('shift equivariance: adding k to every sample adds k to baseline and limits', () => {
  it.each(statistical)('%s', (_id, plugin, params) => {
    fc.assert(
      fc.property(history, shift, (samples, k) => {
        const shifted = samples.map((v) => v + k);
        expectMapped(
          run(plugin, shifted, params),
          run(plugin, samples, params),
          (v) => v + k,
          magnitude(shifted) + Math.abs(k),
        );
      }),
      { seed: 4, numRuns: 300 },
    );
  });

  it('does not hold for percentage, log_normal and delta_iqr (their bands are relative), as a check that the property can fail', () => {
    const samples = Float64Array.from([100, 102, 98, 101, 99]);
    const shifted = samples.map((v) => v + 100);
    for (const [, plugin, params] of scaleOnly) {
      const base = run(plugin, samples, params) as ModelLimits;
      const moved = run(plugin, shifted, params) as ModelLimits;
      expect(Math.abs((moved.upper as number) - ((base.upper as number) + 100))).toBeGreaterThan(1e-3);
    }
  });
});

describe('scale equivariance: multiplying every sample by c > 0 multiplies baseline and limits by c', () => {
  it.each([...statistical, ...scaleOnly])('%s', (_id, plugin, params) => {
    fc.assert(
      fc.property(history, scale, (samples, c) => {
        const scaled = samples.map((v) => v * c);
        expectMapped(
          run(plugin, scaled, params),
          run(plugin, samples, params),
          (v) => v * c,
          magnitude(scaled),
        );
      }),
      { seed: 5, numRuns: 300 },
    );
  });
});

describe('static limits do not depend on the history', () => {
  it('are the boundaries whatever the samples', () => {
    fc.assert(
      fc.property(history, (samples) => {
        expect(run(staticModel, samples, { lower_boundary: -3, upper_boundary: 7.5 })).toEqual({
          baseline: null,
          lower: -3,
          upper: 7.5,
        });
      }),
      { seed: 6, numRuns: 100 },
    );
  });
});

describe('band order', () => {
  it.each([...statistical, ...scaleOnly])('%s keeps lower <= baseline <= upper', (_id, plugin, params) => {
    fc.assert(
      fc.property(history, (samples) => {
        const limits = run(plugin, samples, params) as ModelLimits;
        expect(limits.lower as number).toBeLessThanOrEqual(limits.baseline as number);
        expect(limits.baseline as number).toBeLessThanOrEqual(limits.upper as number);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it.each([
    ['z_score', zScore],
    ['t_test', tTest],
    ['log_normal', logNormal],
  ] as const)('%s widens as the boundary grows', (_id, plugin) => {
    fc.assert(
      fc.property(history, fc.double({ min: 0.5, max: 0.98, noNaN: true }), (samples, b) => {
        const narrow = run(plugin, samples, { upper_boundary: b }) as ModelLimits;
        const wide = run(plugin, samples, { upper_boundary: b + 0.01 }) as ModelLimits;
        expect(wide.upper as number).toBeGreaterThan(narrow.upper as number);
      }),
      { seed: 8, numRuns: 200 },
    );
  });
});
