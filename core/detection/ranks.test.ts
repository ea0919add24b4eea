import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { doubledMidRanks, RankWindows } from './ranks.js';

describe('doubledMidRanks', () => {
  it('gives twice the 1-based mid-rank, ties sharing theirs', () => {
    expect(Array.from(doubledMidRanks(Float64Array.of(3, 1, 2, 2, -5)))).toEqual([10, 4, 7, 7, 2]);
  });
});

describe('RankWindows.split', () => {
  /** U, z and separation counted pair by pair. */
  function direct(x: Float64Array, from: number, at: number, to: number) {
    let u = 0;
    for (let i = from; i < at; i++)
      for (let j = at; j < to; j++) u += (x[j] as number) > (x[i] as number) ? 1 : x[j] === x[i] ? 0.5 : 0;
    const n1 = at - from;
    const n2 = to - at;
    const n = n1 + n2;
    const groups = new Map<number, number>();
    for (let i = from; i < to; i++) groups.set(x[i] as number, (groups.get(x[i] as number) ?? 0) + 1);
    const ties = [...groups.values()].reduce((s, t) => s + t ** 3 - t, 0);
    const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
    return {
      u,
      z: variance > 0 ? (u - (n1 * n2) / 2) / Math.sqrt(variance) : 0,
      separated: u === 0 || u === n1 * n2,
    };
  }

  it('counts the Mann-Whitney U, its tie-corrected z and complete separation', () => {
    const window = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 4, maxLength: 40 }).chain((values) =>
      fc.record({
        x: fc.constant(Float64Array.from(values)),
        from: fc.integer({ min: 0, max: values.length - 4 }),
        width: fc.integer({ min: 4, max: values.length }),
        cut: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
    );
    fc.assert(
      fc.property(window, ({ x, from, width, cut }) => {
        const to = Math.min(x.length, from + width);
        const at = from + 1 + Math.floor(cut * (to - from - 2));
        const split = new RankWindows(x).split(from, at, to, 1);
        const want = direct(x, from, at, to);
        expect(split.u).toBe(want.u);
        expect(split.z).toBeCloseTo(want.z, 9);
        expect(split.separated).toBe(want.separated && want.z !== 0);
      }),
    );
  });

  it('finds the best split at least minSide from each end, and compares each side brought along its slope', () => {
    const ripple = Float64Array.from({ length: 40 }, (_, i) => ((i * 7) % 5) + (i >= 25 ? 100 : 0));
    expect(new RankWindows(ripple).split(0, 10, 40, 3).best).toBe(25);
    expect(new RankWindows(ripple).split(0, 10, 40, 16).best).toBe(24);
    // a slope of 1 per index and a step: brought along the slope, the ranks see only the step
    const x = Float64Array.from({ length: 40 }, (_, i) => i + (i >= 25 ? 100 : 0));
    const windows = new RankWindows(x);
    const level = windows.split(0, 25, 40, 3, { before: 1, after: 1 });
    expect(level.separated).toBe(true);
    expect(windows.split(0, 10, 40, 3, { before: 1, after: 1 }).separated).toBe(false);
  });
});
