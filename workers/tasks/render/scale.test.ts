import { describe, expect, it } from 'vitest';
import { AUTO_LOG_RATIO, chooseYScale, linearScale, logScale } from './scale.js';

const range = (min: number, max: number, minPositive = min > 0 ? min : Number.NaN) => ({
  min,
  max,
  minPositive,
});

describe('chooseYScale', () => {
  it('keeps auto linear while the data spans less than three orders of magnitude', () => {
    expect(chooseYScale('auto', range(10, 10 * AUTO_LOG_RATIO - 1))).toBe('linear');
    expect(chooseYScale('auto', range(10, 10 * AUTO_LOG_RATIO))).toBe('log');
  });

  it('keeps auto linear when any value is zero or negative', () => {
    expect(chooseYScale('auto', range(0, 1e9, 1))).toBe('linear');
    expect(chooseYScale('auto', range(-5, 1e9, 1))).toBe('linear');
  });

  it('honours an explicit axis, but falls back to linear for log with nothing above zero', () => {
    expect(chooseYScale('log', range(100, 101))).toBe('log');
    expect(chooseYScale('linear', range(1, 1e9))).toBe('linear');
    expect(chooseYScale('log', range(-3, 0))).toBe('linear');
    expect(chooseYScale('auto', range(Number.NaN, Number.NaN))).toBe('linear');
  });
});

describe('scales', () => {
  it('maps a linear domain onto a reversed pixel range', () => {
    const y = linearScale([0, 100], [500, 100]);
    expect(y.map(0)).toBe(500);
    expect(y.map(100)).toBe(100);
    expect(y.map(25)).toBe(400);
    expect(y.log).toBe(false);
  });

  it('maps decades to equal distances on a log scale and cannot place zero or negatives', () => {
    const y = logScale([1, 1000], [300, 0]);
    expect(y.map(1)).toBe(300);
    expect(y.map(10)).toBeCloseTo(200);
    expect(y.map(100)).toBeCloseTo(100);
    expect(y.map(0)).toBeNaN();
    expect(y.map(-1)).toBeNaN();
    expect(y.log).toBe(true);
  });
});
