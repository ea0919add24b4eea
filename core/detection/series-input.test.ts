import { describe, expect, it } from 'vitest';
import { errorName } from '../errors.js';
import { parseSeriesJson, relativeChange } from './series-input.js';

const failure = (text: string) => {
  try {
    parseSeriesJson(text);
  } catch (error) {
    return { name: errorName(error), message: (error as Error).message };
  }
  return undefined;
};

describe('parseSeriesJson', () => {
  it('reads {"values": [...]} and bare arrays', () => {
    expect(Array.from(parseSeriesJson('{"values": [1, 2.5, 3, 4, 5, 6]}'))).toEqual([1, 2.5, 3, 4, 5, 6]);
    expect(Array.from(parseSeriesJson('[5, 4, 3, 2, 1, 0]'))).toEqual([5, 4, 3, 2, 1, 0]);
  });

  it('rejects what is not a series of at least 6 finite numbers, saying what is wrong', () => {
    expect(failure('[1, 2, NaN, 4]')).toMatchObject({ name: 'InputError', message: /is not JSON/ });
    expect(failure('[1, 2, "NaN", 4]')).toEqual({
      name: 'InputError',
      message: `the series' values[2] must be a finite number, got "NaN"`,
    });
    expect(failure('{"values": [1, null, 3, 4]}')?.message).toBe(
      "the series' values[1] must be a finite number, got null",
    );
    expect(failure('[1, 2, 3, 4, 5]')?.message).toBe(
      'the series must have at least 6 values to be split, got 5',
    );
    expect(failure('{"value": [1, 2, 3, 4]}')?.message).toMatch(/must be \{"values": \[numbers\.\.\.\]\}/);
    expect(failure('null')?.name).toBe('InputError');
  });
});

describe('relativeChange', () => {
  it('is after / before - 1, or null from a zero mean', () => {
    expect(relativeChange(100, 110)).toBeCloseTo(0.1, 12);
    expect(relativeChange(0, 5)).toBeNull();
  });
});
