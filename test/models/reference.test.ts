import { describe, expect, it } from 'vitest';
import { alertLimit, type ModelLimits, type ModelParams, type ModelPlugin } from '../../core/index.js';
import deltaIqr from '../../plugins/models/delta-iqr.js';
import iqr from '../../plugins/models/iqr.js';
import logNormal from '../../plugins/models/log-normal.js';
import percentage from '../../plugins/models/percentage.js';
import { quartiles, relativeChanges } from '../../plugins/models/shared/stats.js';
import staticModel from '../../plugins/models/static.js';
import tTest from '../../plugins/models/t-test.js';
import zScore from '../../plugins/models/z-score.js';

/** |actual - expected| <= 1e-9 * |expected| (absolute 1e-12 around zero). */
function expectClose(actual: number | null | undefined, expected: number, label: string): void {
  expect(actual, label).toBeTypeOf('number');
  const tolerance = Math.max(1e-9 * Math.abs(expected), 1e-12);
  expect(Math.abs((actual as number) - expected), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    tolerance,
  );
}

function run(plugin: ModelPlugin, samples: number[], params: ModelParams): ModelLimits | null {
  return plugin.limits(Float64Array.from(samples), plugin.params.parse(params));
}

describe('reference unit vectors (bencher_boundary limits tests)', () => {
  /** Six samples with mean 0 and Bessel-corrected sd 1: ±sqrt(5/6). */
  const unit = [1, -1, 1, -1, 1, -1].map((sign) => sign * Math.sqrt(5 / 6));

  it('z_score: mean 0, sd 1, p 0.85 -> 1.0364333894937896', () => {
    const limits = run(zScore, unit, { lower_boundary: 0.85, upper_boundary: 0.85 });
    expectClose(limits?.upper, 1.0364333894937896, 'upper');
    expectClose(limits?.lower, -1.0364333894937896, 'lower');
  });

  it('t_test: the same with n 6 -> 1.2483714094976244', () => {
    const limits = run(tTest, unit, { lower_boundary: 0.85, upper_boundary: 0.85 });
    expectClose(limits?.upper, 1.2483714094976244, 'upper');
    expectClose(limits?.lower, -1.2483714094976244, 'lower');
  });

  it('percentage 5.0 on mean 1 -> [-4, 6]', () => {
    for (const samples of [[1], [0.5, 1.5]]) {
      expect(run(percentage, samples, { lower_boundary: 5, upper_boundary: 5 })).toEqual({
        baseline: 1,
        lower: -4,
        upper: 6,
      });
    }
  });

  it('iqr with quartiles (1, 2, 3) x 1.5 -> [-1, 5]', () => {
    expect(run(iqr, [0, 1, 2, 3, 4], { lower_boundary: 1.5, upper_boundary: 1.5 })).toEqual({
      baseline: 2,
      lower: -1,
      upper: 5,
    });
  });
});

describe('quartiles: linear interpolation at p(n - 1)', () => {
  it.each([
    [
      [1, 2],
      [1.25, 1.5, 1.75],
    ],
    [
      [1, 2, 3],
      [1.5, 2, 2.5],
    ],
    [[7], [7, 7, 7]],
    [
      [5, 4, 3, 2, 1],
      [2, 3, 4],
    ],
    [
      [-6, -6, 1, 1, 9, 9],
      [-4.25, 1, 7],
    ],
  ])('of %j are %j, whatever the order', (values, [q1, q2, q3]) => {
    expect(quartiles(Float64Array.from(values))).toEqual({ q1, q2, q3 });
    expect(quartiles(Float64Array.from(values).reverse())).toEqual({ q1, q2, q3 });
  });

  it.each([
    [
      [1, 2, 3, 4, 5],
      [0.3125, 0.41666666666666663, 0.625],
    ],
    [
      [5, 4, 3, 2, 1],
      [0.2375, 0.29166666666666663, 0.375],
    ],
  ])('of the relative adjacent changes of %j are %j', (values, [q1, q2, q3]) => {
    const q = quartiles(relativeChanges(Float64Array.from(values)));
    expectClose(q?.q1, q1 as number, 'dQ1');
    expectClose(q?.q2, q2 as number, 'dQ2');
    expectClose(q?.q3, q3 as number, 'dQ3');
  });
});

/**
 * Reference 9b.1: history 100, 102, 98, 101, 99 (newest first). Expected values to full precision computed
 * with SciPy 1.17.1 / NumPy (stats.norm.ppf, stats.t.ppf, stats.lognorm.ppf, np.percentile) from the formulas
 * of reference 3.2; the table's 4-decimal figures are checked too.
 */
describe('reference 9b.1 worked example, every model', () => {
  const history = [100, 102, 98, 101, 99];
  type Triple = [number | null, number, number];
  const rows: [string, ModelPlugin, ModelParams, Triple, Triple, 'pass' | 'upper'][] = [
    [
      'static',
      staticModel,
      { lower_boundary: 90, upper_boundary: 105 },
      [null, 90, 105],
      [null, 90, 105],
      'pass',
    ],
    [
      'percentage',
      percentage,
      { lower_boundary: 0.1, upper_boundary: 0.1 },
      [100, 90, 110.00000000000001],
      [100, 90, 110],
      'pass',
    ],
    [
      'z_score',
      zScore,
      { lower_boundary: 0.99, upper_boundary: 0.99 },
      [100, 96.32172104407022, 103.67827895592978],
      [100, 96.3217, 103.6783],
      'upper',
    ],
    [
      't_test',
      tTest,
      { lower_boundary: 0.99, upper_boundary: 0.99 },
      [100, 93.51009675073254, 106.48990324926746],
      [100, 93.5101, 106.4899],
      'pass',
    ],
    [
      'log_normal',
      logNormal,
      { lower_boundary: 0.99, upper_boundary: 0.99 },
      [99.98999879971997, 96.24310941795916, 103.73688818148078],
      [99.99, 96.2431, 103.7369],
      'upper',
    ],
    ['iqr', iqr, { lower_boundary: 1.5, upper_boundary: 1.5 }, [100, 97, 103], [100, 97, 103], 'upper'],
    [
      'delta_iqr',
      deltaIqr,
      { lower_boundary: 1.5, upper_boundary: 1.5 },
      [100, 98.07810847111122, 101.92189152888878],
      [100, 98.0781, 101.9219],
      'upper',
    ],
  ];

  it.each(rows)('%s', (_id, plugin, params, precise, table, verdict) => {
    const limits = run(plugin, history, params);
    const [baseline, lower, upper] = precise;
    if (baseline === null) expect(limits?.baseline).toBeNull();
    else expectClose(limits?.baseline, baseline, `${plugin.id} baseline`);
    expectClose(limits?.lower, lower, `${plugin.id} lower`);
    expectClose(limits?.upper, upper, `${plugin.id} upper`);
    for (const [value, printed] of [
      [limits?.baseline, table[0]],
      [limits?.lower, table[1]],
      [limits?.upper, table[2]],
    ] as const) {
      if (printed !== null) expect(Math.abs((value as number) - printed)).toBeLessThan(5e-5);
    }
    const alert = alertLimit(104, { lower_limit: limits?.lower ?? null, upper_limit: limits?.upper ?? null });
    expect(alert ?? 'pass').toBe(verdict);
  });
});

describe('model specifics', () => {
  it('log_normal gives no boundary for zero or negative data', () => {
    for (const samples of [
      [1, 2, 0],
      [1, -2, 3],
      [-1, -2, -3],
    ]) {
      expect(run(logNormal, samples, { upper_boundary: 0.99 })).toBeNull();
    }
  });

  it('log_normal reflects the lower limit about the geometric mean instead of taking the lower quantile', () => {
    const limits = run(logNormal, [1, 2, 4, 8], { lower_boundary: 0.9, upper_boundary: 0.9 });
    const baseline = limits?.baseline as number;
    expectClose(baseline, Math.sqrt(8), 'geometric mean');
    expectClose(limits?.lower, 2 * baseline - (limits?.upper as number), 'reflection');
  });

  it('delta_iqr gives no boundary when a zero sample makes a relative change non-finite', () => {
    const samples = Array.from({ length: 40 }, (_, i) => 100 + (i % 5));
    samples[20] = 0;
    expect(run(deltaIqr, samples, { upper_boundary: 1.5 })).toBeNull();
  });

  it('percentage and delta_iqr keep lower <= upper for a negative centre', () => {
    const p = run(percentage, [-10, -10], { lower_boundary: 0.1, upper_boundary: 0.1 });
    expect(p).toEqual({ baseline: -10, lower: -11, upper: -9 });
    const d = run(deltaIqr, [-100, -102, -98, -101, -99], { lower_boundary: 1.5, upper_boundary: 1.5 });
    expectClose(d?.lower, -101.92189152888878, 'lower');
    expectClose(d?.upper, -98.07810847111122, 'upper');
  });

  it('t_test widens with fewer samples: the prediction interval, not the confidence interval', () => {
    const few = run(tTest, [99, 101], { upper_boundary: 0.99 });
    // n 2: t(0.99, df 1) = 31.820515953773956, scale sqrt(2) * sqrt(1.5)
    expectClose(few?.upper, 100 + 31.820515953773956 * Math.sqrt(2) * Math.sqrt(1.5), 'upper');
  });

  it('iqr and delta_iqr give a zero-width band for a history without spread, which an unchanged value passes', () => {
    for (const plugin of [iqr, deltaIqr]) {
      const limits = run(plugin, [5, 5, 5, 5], { lower_boundary: 1.5, upper_boundary: 1.5 });
      expect(limits).toEqual({ baseline: 5, lower: 5, upper: 5 });
      expect(alertLimit(5, { lower_limit: 5, upper_limit: 5 })).toBeNull();
      expect(alertLimit(5.0001, { lower_limit: 5, upper_limit: 5 })).toBe('upper');
    }
  });

  it('z_score, t_test and log_normal give no boundary for a history without spread', () => {
    for (const plugin of [zScore, tTest, logNormal]) {
      expect(run(plugin, [5, 5, 5, 5], { upper_boundary: 0.99 })).toBeNull();
    }
  });
});
