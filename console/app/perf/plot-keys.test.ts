import { describe, expect, it } from 'vitest';
import { movePoint } from './plot-keys.js';
import type { PlotData } from './series.js';

// x = 0..5; "a" has points everywhere but x 2, "b" only at x 1 and 4, "c" only at x 5
const data = {
  xs: Float64Array.from([0, 1, 2, 3, 4, 5]),
  series: [
    { y: [1, 2, null, 4, 5, 6] },
    { y: [null, 7, null, null, 8, null] },
    { y: [null, null, null, null, null, 9] },
  ],
} as unknown as PlotData;
const none: ReadonlySet<number> = new Set();

describe('moving the plot cursor with the keyboard', () => {
  it('starts at the newest point of the first shown series, whatever the key', () => {
    expect(movePoint(data, none, null, 'ArrowUp')).toEqual({ series: 0, idx: 5 });
    expect(movePoint(data, new Set([0]), null, 'Home')).toEqual({ series: 1, idx: 4 });
  });

  it('steps over missing points along a series and stops at its ends', () => {
    expect(movePoint(data, none, { series: 0, idx: 3 }, 'ArrowLeft')).toEqual({ series: 0, idx: 1 });
    expect(movePoint(data, none, { series: 0, idx: 5 }, 'ArrowRight')).toBeUndefined();
  });

  it('moves between series to the point nearest the same x, not to the first point', () => {
    expect(movePoint(data, none, { series: 0, idx: 5 }, 'ArrowDown')).toEqual({ series: 1, idx: 4 });
    expect(movePoint(data, none, { series: 0, idx: 0 }, 'ArrowDown')).toEqual({ series: 1, idx: 1 });
    expect(movePoint(data, none, { series: 1, idx: 1 }, 'ArrowDown')).toEqual({ series: 2, idx: 5 });
    // up from the first series wraps to the last shown one; hidden ones are skipped
    expect(movePoint(data, new Set([2]), { series: 0, idx: 3 }, 'ArrowUp')).toEqual({ series: 1, idx: 4 });
  });

  it('goes to the first and last point of the series with Home and End', () => {
    expect(movePoint(data, none, { series: 1, idx: 4 }, 'Home')).toEqual({ series: 1, idx: 1 });
    expect(movePoint(data, none, { series: 0, idx: 1 }, 'End')).toEqual({ series: 0, idx: 5 });
  });
});
