import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSerdeJson, serdeNumber } from './serde-json.js';

describe('serdeNumber (serde_json 1.0 without float_roundtrip)', () => {
  it.each([
    // The asserted values of the reference corpus where correct rounding (JSON.parse) differs by 1 ULP.
    ['-1835785.2124654083', -1835785.2124654085],
    ['113640916.67262991', 113640916.67262992],
    // Within 15 digits both agree; integers round correctly.
    ['0.1', 0.1],
    ['-0', -0],
    ['18446744073709551615', 2 ** 64],
    ['1.5252013234402195E8', 152520132.34402195],
    ['1e-400', 0],
    ['-1e-400', -0],
  ])('%s -> %d', (token, expected) => {
    expect(Object.is(serdeNumber(token), expected)).toBe(true);
  });

  it('rejects what serde_json rejects: out of range', () => {
    expect(serdeNumber('1e309')).toBeUndefined();
    expect(serdeNumber('1e99999999999')).toBeUndefined();
    expect(serdeNumber('0e99999999999')).toBe(0);
  });

  it('drops digits past the u64 significand (a 20-digit integer above u64::MAX)', () => {
    // 18446744073709551616 overflows: serde keeps 1844674407370955161 and multiplies by 10.
    expect(serdeNumber('18446744073709551616')).toBe(Number(1844674407370955161n) * 10);
  });

  it('agrees with JSON.parse to within 2 ULP on doubles of normal magnitude (two roundings at most)', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, min: -1e300, max: 1e300 }).filter((x) => x === 0 || Math.abs(x) > 1e-300),
        (x) => {
          const text = JSON.stringify(x);
          const ours = serdeNumber(text) as number;
          const exact = JSON.parse(text) as number;
          expect(Math.abs(ours - exact)).toBeLessThanOrEqual(Math.abs(exact) * 2 ** -51);
        },
      ),
      { numRuns: 2000, seed: 3 },
    );
  });
});

describe('parseSerdeJson', () => {
  it('parses JSON values, keeping __proto__ as data', () => {
    const value = parseSerdeJson(
      '{"a": [1, -2.5, true, null, "x\\n\\u00e9"], "__proto__": {"b": {}}}',
    ) as Record<string, unknown>;
    expect(value.a).toEqual([1, -2.5, true, null, 'x\né']);
    expect(Object.keys(value)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each([
    '',
    '{',
    '[1,]',
    '{"a":1,}',
    '01',
    '1.',
    '.5',
    '"\t"',
    '[1] 2',
    'nul',
    `${'['.repeat(129)}${']'.repeat(129)}`,
  ])('rejects %j', (text) => {
    expect(parseSerdeJson(text)).toBeUndefined();
  });

  it("accepts nesting up to serde_json's limit", () => {
    expect(parseSerdeJson(`${'['.repeat(128)}${']'.repeat(128)}`)).toBeDefined();
  });
});
