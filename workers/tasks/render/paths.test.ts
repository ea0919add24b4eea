import { describe, expect, it } from 'vitest';
import type { PlotImageSeries } from '../../../core/index.js';
import { alertPoints, bandPath, chains, decimate, pieces, polyline, simplify } from './paths.js';
import type { PreparedSeries } from './points.js';
import { linearScale, logScale } from './scale.js';

const identity = linearScale([0, 1000], [0, 1000]);

function prepared(source: Partial<PlotImageSeries> & Pick<PlotImageSeries, 'x' | 'y'>): PreparedSeries {
  return { source: { label: 's', ...source }, order: Uint32Array.from(source.x.keys()) };
}

describe('decimate', () => {
  it('keeps first, lowest, highest and last point of each pixel column, in order', () => {
    const chain = [10.1, 5, 10.3, 1, 10.5, 9, 10.7, 4, 10.9, 6, 11.2, 3];
    expect(decimate(chain)).toEqual([10.1, 5, 10.3, 1, 10.5, 9, 10.9, 6, 11.2, 3]);
  });

  it('shrinks 100,000 points to at most four per column without losing the extremes', () => {
    const chain: number[] = [];
    for (let i = 0; i < 100_000; i++) chain.push(i / 100, Math.sin(i) * 50);
    const out = decimate(chain);
    expect(out.length / 2).toBeLessThanOrEqual(4 * 1000);
    const ys = (c: number[]) => c.filter((_, k) => k % 2 === 1);
    expect(Math.max(...ys(out))).toBe(Math.max(...ys(chain)));
    expect(Math.min(...ys(out))).toBe(Math.min(...ys(chain)));
  });
});

describe('simplify', () => {
  it('drops points on a straight line and keeps corners', () => {
    expect(simplify([0, 0, 1, 1, 2, 2, 3, 3, 4, 0], 0.25)).toEqual([0, 0, 3, 3, 4, 0]);
  });

  it('keeps every point farther than the tolerance from the simplified line', () => {
    const chain = [0, 0, 1, 0.2, 2, 0, 3, 0.6, 4, 0];
    expect(simplify(chain, 0.25)).toEqual([0, 0, 2, 0, 3, 0.6, 4, 0]);
    expect(simplify(chain, 0.1)).toEqual(chain);
  });
});

describe('chains', () => {
  const x = Float64Array.from([0, 1, 2, 3, 4, 5]);
  const y = Float64Array.from([1, Number.NaN, 3, Number.POSITIVE_INFINITY, -5, 6]);

  it('skips NaN and infinite values and joins across them for values', () => {
    const [line, more] = chains(prepared({ x, y }), y, identity, identity, false, 0);
    expect(more).toBeUndefined();
    expect(line).toEqual([0, 1, 2, 3, 4, -5, 5, 6]);
  });

  it('ends a chain at a missing value for limits', () => {
    expect(chains(prepared({ x, y }), y, identity, identity, true, 0)).toEqual([
      [0, 1],
      [2, 3],
      [4, -5, 5, 6],
    ]);
  });

  it('skips values a log axis cannot show', () => {
    const [line] = chains(prepared({ x, y }), y, identity, logScale([1, 10], [0, 100]), false, 0);
    expect(line?.filter((_, k) => k % 2 === 0)).toEqual([0, 2, 5]);
  });
});

describe('pieces and polyline', () => {
  it('cuts a chain into overlapping pieces that cover every segment once', () => {
    const chain = Array.from({ length: 20 }, (_, i) => i);
    const cut = pieces(chain, 4);
    expect(cut).toEqual([
      [0, 1, 2, 3, 4, 5, 6, 7],
      [6, 7, 8, 9, 10, 11, 12, 13],
      [12, 13, 14, 15, 16, 17, 18, 19],
    ]);
    expect(pieces(chain, 64)).toEqual([chain]);
  });

  it('writes rounded coordinates with implicit line-tos', () => {
    expect(polyline([1.04, 2.06, 3, 4.55])).toBe('M1,2.1 3,4.6');
  });
});

describe('bandPath', () => {
  it('closes one area per run where both limits exist', () => {
    const x = Float64Array.from([0, 10, 20, 30, 40]);
    const y = new Float64Array(5).fill(5);
    const lower = Float64Array.from([1, 1, Number.NaN, 2, 2]);
    const upper = Float64Array.from([9, 9, 9, 8, 8]);
    const d = bandPath(prepared({ x, y, lower, upper }), identity, identity, 0);
    expect(d).toBe('M0,9 10,9 L10,1 0,1Z M30,8 40,8 L40,2 30,2Z');
  });

  it('is empty without both limits', () => {
    const x = Float64Array.from([0, 1]);
    expect(bandPath(prepared({ x, y: x, upper: x }), identity, identity, 0)).toBe('');
  });
});

describe('alertPoints', () => {
  it('marks drawable points whose alert flag is set', () => {
    const x = Float64Array.from([0, 1, 2, 3]);
    const y = Float64Array.from([5, 6, Number.NaN, 8]);
    const alert = Uint8Array.from([0, 1, 1, 1]);
    expect(alertPoints(prepared({ x, y, alert }), identity, identity)).toEqual([1, 6, 3, 8]);
  });
});
