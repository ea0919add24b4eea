import { describe, expect, it } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import { candidates } from './candidates.js';
import { doubledMidRanks } from './ranks.js';

describe('candidates', () => {
  it('proposes each step, including steps closer than a window, and little else', () => {
    const random = new Random(4);
    const x = Float64Array.from(
      { length: 600 },
      (_, i) => (i >= 200 ? 3 : 0) + (i >= 230 ? 3 : 0) + random.normal(),
    );
    const found = candidates(doubledMidRanks(x), 50, 3);
    for (const step of [200, 230]) expect(found.some((index) => Math.abs(index - step) <= 3)).toBe(true);
    expect(found.length).toBeLessThanOrEqual(6);
    for (let k = 1; k < found.length; k++)
      expect((found[k] as number) - (found[k - 1] as number)).toBeGreaterThanOrEqual(3);
  });
});
