import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { medianOf, sortWith } from './sort.js';

describe('sortWith', () => {
  it('sorts like TypedArray sort and moves the carried positions with their keys', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 300 }), (values) => {
        const keys = Float64Array.from(values);
        const order = Uint32Array.from(values, (_, i) => i);
        sortWith(keys, order);
        expect(Array.from(keys)).toEqual(Array.from(Float64Array.from(values).sort()));
        expect(Array.from(order).sort((a, b) => a - b)).toEqual(values.map((_, i) => i));
        order.forEach((position, i) => expect(values[position]).toBe(keys[i]));
      }),
    );
  });

  it('sorts only the range asked', () => {
    const keys = Float64Array.of(9, 3, 2, 1, 0);
    sortWith(keys, null, 1, 4);
    expect(Array.from(keys)).toEqual([9, 1, 2, 3, 0]);
  });
});

describe('medianOf', () => {
  it('gives the middle value, or the mean of the two middle values', () => {
    expect(medianOf(Float64Array.of(5, 1, 3))).toBe(3);
    expect(medianOf(Float64Array.of(4, 1, 3, 2))).toBe(2.5);
    expect(medianOf(Float64Array.of(7, 9, 1, 5, 100), 1, 4)).toBe(5);
  });
});
