import { evaluateModel } from 'benchtrack/plugin-kit';
import { describeModelContract } from 'benchtrack/plugin-kit/testing';
import { describe, expect, it } from 'vitest';
import ewma from './index.js';

describeModelContract(ewma, {
  module: new URL('./index.js', import.meta.url).href,
  params: { lower_boundary: 3, upper_boundary: 3 },
  invalidParams: [
    {
      params: { upper_boundary: -1 },
      message: 'threshold upper_boundary must be at least 0 for ewma, got -1',
    },
  ],
});

describe('ewma model', () => {
  const params = ewma.params.parse({ upper_boundary: 3 });

  it('weighs recent values more: after a shift the baseline moves further than the plain mean', () => {
    // newest first: five samples at 200 after twenty at 100; their plain mean is 120
    const history = Float64Array.from([...Array(5).fill(200), ...Array(20).fill(100)]);
    const limits = evaluateModel(ewma, history, params);
    expect(limits?.baseline).toBeCloseTo(132.98, 2);
    expect(limits?.lower).toBeNull();
    expect(limits?.upper).toBeGreaterThan(limits?.baseline ?? Infinity);
  });

  it('gives no boundary for a history without spread', () => {
    expect(evaluateModel(ewma, Float64Array.from([5, 5, 5, 5]), params)).toBeNull();
  });
});
