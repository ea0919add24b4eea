import { describe, expect, it } from 'vitest';
import { formatNumber, linearTicks, logTicks, niceStep } from './ticks.js';

const labels = (ticks: readonly { label: string }[]) => ticks.map((t) => t.label);

describe('niceStep', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceStep(100, 10)).toBe(10);
    expect(niceStep(100, 8)).toBe(20);
    expect(niceStep(100, 30)).toBe(5);
    expect(niceStep(0.7, 7)).toBeCloseTo(0.1);
    expect(niceStep(3e9, 4)).toBe(1e9);
  });
});

describe('linearTicks', () => {
  it('widens a y domain to whole steps and labels every step', () => {
    const { domain, ticks } = linearTicks(3, 97, 5);
    expect(domain).toEqual([0, 100]);
    expect(labels(ticks)).toEqual(['0', '20', '40', '60', '80', '100']);
  });

  it('keeps an x domain and only the ticks inside it', () => {
    const { domain, ticks } = linearTicks(98.5, 151.5, 6, { widen: false, integer: true });
    expect(domain).toEqual([98.5, 151.5]);
    expect(labels(ticks)).toEqual(['100', '110', '120', '130', '140', '150']);
  });

  it('never steps below 1 on an integer axis', () => {
    const { ticks } = linearTicks(1, 3, 20, { integer: true, widen: false });
    expect(ticks.map((t) => t.value)).toEqual([1, 2, 3]);
  });

  it('widens a zero-width range around the value instead of dividing by zero', () => {
    const flat = linearTicks(50, 50, 4);
    expect(flat.domain[0]).toBeLessThan(50);
    expect(flat.domain[1]).toBeGreaterThan(50);
    const zero = linearTicks(0, 0, 4);
    expect(zero.domain).toEqual([-1, 1]);
  });

  it('keeps the domain and every tick finite on a range as wide as a double allows', () => {
    const { domain, ticks } = linearTicks(-Number.MAX_VALUE, Number.MAX_VALUE, 8);
    expect(domain.every(Number.isFinite)).toBe(true);
    expect(domain[0]).toBeLessThanOrEqual(-Number.MAX_VALUE);
    expect(domain[1]).toBeGreaterThanOrEqual(Number.MAX_VALUE);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.every((t) => Number.isFinite(t.value) && !/e\+|NaN|Infinity/.test(t.label))).toBe(true);
  });

  it('ends on a range narrower than a double can resolve at its magnitude', () => {
    // 1e17 / step is past 2^53: stepping an index by one no longer changed it, and the loop never ended
    const { domain, ticks } = linearTicks(1e17, 1e17 + 16, 8);
    expect(domain[0]).toBeLessThan(1e17);
    expect(domain[1]).toBeGreaterThan(1e17 + 16);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks.length).toBeLessThanOrEqual(10);
  });

  it('labels decimal steps without floating-point noise', () => {
    expect(labels(linearTicks(0.1, 0.7, 6).ticks)).toEqual(['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7']);
  });
});

describe('logTicks', () => {
  it('puts a tick on each power of ten inside the range', () => {
    const { domain, ticks } = logTicks(8, 12_000_000, 8);
    expect(domain).toEqual([8, 12_000_000]);
    expect(labels(ticks)).toEqual(['10', '100', '1k', '10k', '100k', '1M', '10M']);
  });

  it('thins the decades when there are more than the count', () => {
    expect(labels(logTicks(1, 1e12, 5).ticks)).toEqual(['1', '1k', '1M', '1G', '1T']);
    expect(labels(logTicks(1, 1e12, 4).ticks)).toEqual(['1', '1M', '1T']);
    expect(labels(logTicks(1, 1e5, 3).ticks)).toEqual(['1', '100', '10k']);
  });

  it('adds 2 and 5 within two decades', () => {
    expect(labels(logTicks(1.5, 120, 8).ticks)).toEqual(['2', '5', '10', '20', '50', '100']);
  });

  it('ends on ranges out to the smallest and largest doubles, with bounded ticks', () => {
    for (const [min, max] of [
      [Number.MIN_VALUE, Number.MAX_VALUE],
      [0, 10],
      [1e-9, Number.POSITIVE_INFINITY],
    ] as const) {
      const { domain, ticks } = logTicks(min, max, 8);
      expect(domain.every((v) => Number.isFinite(v) && v > 0)).toBe(true);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks.length).toBeLessThanOrEqual(10);
      expect(ticks.every((t) => Number.isFinite(t.value) && t.value > 0)).toBe(true);
    }
  });

  it('falls back to linear ticks on a range too narrow for three log ticks', () => {
    const { ticks } = logTicks(95, 105, 5);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.every((t) => t.value >= 95 && t.value <= 105)).toBe(true);
  });
});

describe('formatNumber', () => {
  it.each([
    [0, 1, '0'],
    [1500, 500, '1.5k'],
    [1000, 250, '1k'],
    [1_250_000, 250_000, '1.25M'],
    [250e6, 50e6, '250M'],
    [3e9, 1e9, '3G'],
    [-2000, 1000, '-2k'],
    [999, 1, '999'],
    [0.0042, 0.0002, '0.0042'],
    [0.25, 0.05, '0.25'],
    [2.5e-6, 5e-7, '2.5e-6'],
    [1e-4, 1e-4, '1e-4'],
    [1e300, 1e299, '1e300'],
    [-2.5e20, 5e19, '-2.5e20'],
  ])('formats %d with step %d as %s', (value, step, expected) => {
    expect(formatNumber(value, step)).toBe(expected);
  });
});
