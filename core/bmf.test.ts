import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BMF_JSON_SCHEMA, generateBmfJsonSchema } from './bmf-json-schema.js';
import { bmfSchema, isValidBmf, parseBmf, parseBmfText } from './bmf.js';

describe('parseBmf', () => {
  it('accepts BMF and keeps only the metric fields', () => {
    const result = parseBmf({
      'sort/1000': { latency: { value: 1, lower_value: 0.5, upper_value: 2, note: 'x' } },
    });
    expect(result).toEqual({
      success: true,
      data: { 'sort/1000': { latency: { value: 1, lower_value: 0.5, upper_value: 2 } } },
    });
  });

  it('accepts an empty document, as the reference does', () => {
    expect(parseBmf({})).toEqual({ success: true, data: {} });
  });

  it.each([
    [
      { 'sort/1000': { latency: { value: 'fast' } } },
      'benchmark "sort/1000" measure "latency": value must be a finite number',
    ],
    [
      { 'sort/1000': { latency: { value: 1, lower_value: null } } },
      'benchmark "sort/1000" measure "latency": lower_value must be a finite number',
    ],
    [{ b: { latency: {} } }, 'benchmark "b" measure "latency": value must be a finite number'],
    [
      { b: { latency: { value: 1, lower_bound: 0 } } },
      'benchmark "b" measure "latency": lower_bound was removed from BMF: name it lower_value',
    ],
    [
      { b: { latency: { value: 1, upper_bound: 0 } } },
      'benchmark "b" measure "latency": upper_bound was removed from BMF: name it upper_value',
    ],
    [{ '': { latency: { value: 1 } } }, 'benchmark "": benchmark names must not be empty'],
    [{ b: { '': { value: 1 } } }, 'benchmark "b" measure "": measure names must not be empty'],
    [{ b: 3 }, 'benchmark "b": measures must be an object of measure name -> metric'],
    [
      { b: { latency: 3 } },
      'benchmark "b" measure "latency": a metric must be an object {value, lower_value?, upper_value?}',
    ],
    [[], 'BMF must be a JSON object of benchmark name -> measure name -> metric'],
    [{ ['x'.repeat(1025)]: { latency: { value: 1 } } }, 'benchmark names must be at most 1024 bytes'],
  ])('rejects %j naming the path', (input, message) => {
    const result = parseBmf(input);
    expect(result.success).toBe(false);
    expect(result.success ? [] : result.errors).toContainEqual(expect.stringContaining(message));
  });

  it('rejects non-finite numbers from JavaScript callers', () => {
    expect(parseBmf({ b: { m: { value: Number.POSITIVE_INFINITY } } }).success).toBe(false);
    expect(parseBmf({ b: { m: { value: Number.NaN } } }).success).toBe(false);
  });

  it('keeps a benchmark named __proto__ as data', () => {
    const result = parseBmfText('{"__proto__": {"latency": {"value": 1}}}');
    expect(result.success && Object.keys(result.data)).toEqual(['__proto__']);
  });

  it('reports JSON syntax errors', () => {
    const result = parseBmfText('{"a": ');
    expect(result.success ? [] : result.errors[0]).toMatch(/^not valid JSON/);
  });
});

describe('isValidBmf (the fast path of parseBmf)', () => {
  const number = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constant(Number.NaN),
    fc.string({ maxLength: 2 }),
    fc.constant(null),
  );
  const metric = fc.oneof(
    fc.record(
      { value: number, lower_value: number, upper_value: number, lower_bound: number, note: fc.string() },
      { requiredKeys: [] },
    ),
    fc.anything(),
  );
  const name = fc.oneof(
    fc.string({ maxLength: 3 }),
    fc.constantFrom('__proto__', 'constructor', 'x'.repeat(1025)),
  );
  const bmf = fc.oneof(
    fc.dictionary(name, fc.oneof(fc.dictionary(name, metric), fc.anything())),
    fc.anything(),
  );

  it('never accepts what the zod schema rejects, and accepts valid documents', () => {
    fc.assert(
      fc.property(bmf, (input) => {
        if (isValidBmf(input)) expect(bmfSchema.safeParse(input).success).toBe(true);
      }),
      { numRuns: 2000, seed: 7 },
    );
    expect(isValidBmf({ a: { latency: { value: 1, lower_value: 0, upper_value: 2 } } })).toBe(true);
  });
});

describe('BMF JSON Schema', () => {
  it('is draft-07', () => {
    expect(BMF_JSON_SCHEMA.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  it('is up to date with the zod schema (regenerate: npx tsx scripts/generate-bmf-schema.ts)', () => {
    const file = JSON.parse(readFileSync(new URL('./bmf.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(file).toEqual(generateBmfJsonSchema());
    expect(BMF_JSON_SCHEMA).toEqual(file);
  });
});
