import { describe, expect, it } from 'vitest';
import { errorName } from '../errors.js';
import {
  parsePlotImageInput,
  plotImageBuffers,
  PLOT_IMAGE_MAX_SERIES,
  type PlotImageInput,
} from './image-input.js';

const line = (n = 3) => ({
  label: 'main / linux / bench',
  x: Float64Array.from({ length: n }, (_, i) => i),
  y: Float64Array.from({ length: n }, (_, i) => i * 2),
});
const input = (extra: Partial<PlotImageInput> = {}): PlotImageInput => ({
  xAxis: 'date_time',
  yAxis: 'auto',
  measure: { name: 'Latency', units: 'nanoseconds (ns)' },
  series: [line()],
  ...extra,
});

function messageOf(value: unknown): string {
  try {
    parsePlotImageInput(value);
  } catch (error) {
    expect(errorName(error)).toBe('InputError');
    return (error as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('parsePlotImageInput', () => {
  it('fills in the default size and keeps the typed arrays as they are', () => {
    const given = input();
    const parsed = parsePlotImageInput(given);
    expect(parsed.width).toBe(1200);
    expect(parsed.height).toBe(600);
    expect(parsed.series[0]?.x).toBe(given.series[0]?.x);
  });

  it('accepts what survives a structured clone (the way it reaches a worker)', () => {
    const full = input({
      title: 't',
      xRange: { start: 0, end: 5 },
      series: [
        { ...line(), lower: new Float64Array(3), upper: new Float64Array(3), alert: new Uint8Array(3) },
      ],
    });
    const cloned = structuredClone(full);
    expect(parsePlotImageInput(cloned).series[0]?.alert).toBeInstanceOf(Uint8Array);
  });

  it('names the series and column whose length differs from x', () => {
    const series = [line(), { ...line(4), upper: new Float64Array(2) }];
    expect(messageOf(input({ series }))).toBe(
      'invalid plot image input: series[1].upper: must have as many entries as x (4), got 2',
    );
  });

  it('requires typed arrays, not plain arrays', () => {
    const series = [{ ...line(), y: [1, 2, 3] }];
    expect(messageOf({ ...input(), series })).toContain('series[0].y: must be a Float64Array');
  });

  it('allows at most 8 series', () => {
    const series = Array.from({ length: PLOT_IMAGE_MAX_SERIES + 1 }, () => line());
    expect(messageOf(input({ series }))).toContain('series: must have at most 8 series');
    expect(() => parsePlotImageInput(input({ series: series.slice(1) }))).not.toThrow();
  });

  it('bounds the size and the x range', () => {
    expect(messageOf(input({ width: 100 }))).toContain('width');
    expect(messageOf(input({ height: 1.5 }))).toContain('height: must be an integer');
    expect(messageOf(input({ xRange: { start: 5, end: 1 } }))).toContain('xRange: start must be before end');
    expect(messageOf({ ...input(), yAxis: 'sqrt' })).toContain('yAxis');
  });
});

describe('plotImageBuffers', () => {
  it('lists each buffer once, so a transfer list has no duplicates', () => {
    const shared = new Float64Array(6);
    const series = [
      { label: 'a', x: shared.subarray(0, 3), y: shared.subarray(3, 6), alert: new Uint8Array(3) },
    ];
    expect(plotImageBuffers(input({ series }))).toEqual([shared.buffer, series[0]?.alert.buffer]);
  });
});
