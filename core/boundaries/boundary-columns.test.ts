import { describe, expect, it } from 'vitest';
import { boundaryAt, createBoundaryColumns, hasBoundary, writeBoundary } from './boundary-columns.js';

describe('boundary columns', () => {
  it('start with no boundary for every series', () => {
    const columns = createBoundaryColumns(3);
    for (let i = 0; i < 3; i++) {
      expect(hasBoundary(columns, i)).toBe(false);
      expect(boundaryAt(columns, i)).toEqual({ baseline: null, lower_limit: null, upper_limit: null });
    }
  });

  it('round-trip limits, with null for a missing side and never NaN', () => {
    const columns = createBoundaryColumns(4);
    writeBoundary(columns, 0, { baseline: 100, lower: 90, upper: 110 });
    writeBoundary(columns, 1, { baseline: 100, lower: null, upper: 110 });
    writeBoundary(columns, 2, { baseline: null, lower: 0, upper: 0 });
    writeBoundary(columns, 3, null);
    expect(boundaryAt(columns, 0)).toEqual({ baseline: 100, lower_limit: 90, upper_limit: 110 });
    expect(boundaryAt(columns, 1)).toEqual({ baseline: 100, lower_limit: null, upper_limit: 110 });
    expect(boundaryAt(columns, 2)).toEqual({ baseline: null, lower_limit: 0, upper_limit: 0 });
    expect(boundaryAt(columns, 3)).toEqual({ baseline: null, lower_limit: null, upper_limit: null });
    expect([0, 1, 2, 3].map((i) => hasBoundary(columns, i))).toEqual([true, true, true, false]);
    expect(JSON.stringify([0, 1, 2, 3].map((i) => boundaryAt(columns, i)))).not.toContain('NaN');
  });

  it('decode an index past the end as no boundary', () => {
    expect(boundaryAt(createBoundaryColumns(1), 5)).toEqual({
      baseline: null,
      lower_limit: null,
      upper_limit: null,
    });
  });
});
