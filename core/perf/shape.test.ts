import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uuidAt, uuidWords } from './shape.js';

describe('UUIDs as four 32-bit words', () => {
  it('round-trips any UUID, leading zeros and high bits included', () => {
    fc.assert(
      fc.property(fc.array(fc.uuid(), { minLength: 1, maxLength: 20 }), (uuids) => {
        const words = uuidWords(uuids);
        expect(uuids.map((_, i) => uuidAt(words, uuids.length, i))).toEqual(uuids);
      }),
    );
    const edge = ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'];
    expect(edge.map((_, i) => uuidAt(uuidWords(edge), 2, i))).toEqual(edge);
  });
});
