import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { defineModel } from '../plugins/contracts.js';
import { modelParamsSchema, parseModelParams } from './params.js';

const probability = modelParamsSchema('t_test', { boundary: 'probability' });
const multiplier = modelParamsSchema('iqr', { boundary: 'multiplier' });
const absolute = modelParamsSchema('static', { boundary: 'absolute', history: false });

function messages(schema: typeof probability, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('modelParamsSchema', () => {
  it('accepts the threshold fields and drops the unset ones (null means unset)', () => {
    expect(
      probability.parse({ min_sample_size: 2, max_sample_size: 64, window: 3600, upper_boundary: 0.99 }),
    ).toEqual({ min_sample_size: 2, max_sample_size: 64, window: 3600, upper_boundary: 0.99 });
    expect(probability.parse({ lower_boundary: 0.5, upper_boundary: null, window: null })).toEqual({
      lower_boundary: 0.5,
    });
  });

  it('keeps statistical boundaries in [0.5, 1.0)', () => {
    expect(messages(probability, { upper_boundary: 1.2 })).toEqual([
      'threshold upper_boundary must be in [0.5, 1.0) for t_test, got 1.2',
    ]);
    expect(messages(probability, { lower_boundary: 0.49 })).toEqual([
      'threshold lower_boundary must be in [0.5, 1.0) for t_test, got 0.49',
    ]);
    expect(messages(probability, { upper_boundary: 1 })).toHaveLength(1);
    expect(messages(probability, { upper_boundary: 0.5, lower_boundary: 0.9999 })).toEqual([]);
  });

  it('keeps multipliers at or above 0', () => {
    expect(messages(multiplier, { upper_boundary: -0.1 })).toEqual([
      'threshold upper_boundary must be at least 0 for iqr, got -0.1',
    ]);
    expect(messages(multiplier, { upper_boundary: 0, lower_boundary: 40 })).toEqual([]);
  });

  it('takes any finite static limit, lower at most upper', () => {
    expect(messages(absolute, { lower_boundary: -5, upper_boundary: 1e12 })).toEqual([]);
    expect(messages(absolute, { lower_boundary: 5, upper_boundary: 5 })).toEqual([]);
    expect(messages(absolute, { lower_boundary: 110, upper_boundary: 105 })).toEqual([
      'threshold lower_boundary must not exceed upper_boundary (105) for static, got 110',
    ]);
  });

  it('requires at least one boundary', () => {
    expect(messages(probability, {})).toEqual([
      'threshold lower_boundary or upper_boundary must be set for t_test, got neither',
    ]);
  });

  it('requires sample sizes of at least 2 with min <= max', () => {
    expect(messages(multiplier, { upper_boundary: 1, min_sample_size: 1, max_sample_size: 1 })).toEqual([
      'threshold min_sample_size must be an integer from 2 to 4294967295 for iqr, got 1',
      'threshold max_sample_size must be an integer from 2 to 4294967295 for iqr, got 1',
    ]);
    expect(messages(multiplier, { upper_boundary: 1, min_sample_size: 10, max_sample_size: 8 })).toEqual([
      'threshold min_sample_size must not exceed max_sample_size (8) for iqr, got 10',
    ]);
    expect(messages(multiplier, { upper_boundary: 1, max_sample_size: 2 ** 32 })).toHaveLength(1);
    expect(messages(multiplier, { upper_boundary: 1, min_sample_size: 2.5 })).toEqual([
      'threshold min_sample_size must be an integer for iqr, got 2.5',
    ]);
  });

  it('requires a window of at least one whole second', () => {
    expect(messages(probability, { upper_boundary: 0.9, window: 0 })).toEqual([
      'threshold window must be a whole number of seconds from 1 to 4294967295 for t_test, got 0',
    ]);
  });

  it('forbids sample sizes and window for a model that reads no history', () => {
    expect(
      messages(absolute, { upper_boundary: 1, min_sample_size: 2, max_sample_size: 8, window: 60 }),
    ).toEqual([
      'threshold min_sample_size must not be set (its limits are absolute and read no history) for static, got 2',
      'threshold max_sample_size must not be set (its limits are absolute and read no history) for static, got 8',
      'threshold window must not be set (its limits are absolute and read no history) for static, got 60',
    ]);
  });

  it('rejects wrong types, non-finite numbers and unknown fields by name', () => {
    expect(messages(probability, { upper_boundary: '0.9' })).toEqual([
      'threshold upper_boundary must be a finite number for t_test, got "0.9"',
    ]);
    expect(messages(probability, { upper_boundary: Number.NaN })).toEqual([
      'threshold upper_boundary must be a finite number for t_test, got NaN',
    ]);
    expect(messages(probability, { upper_boundary: Infinity })).toEqual([
      'threshold upper_boundary must be a finite number for t_test, got Infinity',
    ]);
    expect(messages(probability, { upper_boundary: 0.9, upper_boundry: 0.9 })[0]).toMatch(
      /^threshold upper_boundry is not a parameter of t_test \(parameters: min_sample_size, /,
    );
    expect(messages(probability, 'x')).toEqual([
      'threshold parameters must be an object for t_test, got "x"',
    ]);
  });
});

describe('parseModelParams', () => {
  const plugin = defineModel({ id: 't_test', description: 'd', params: probability, limits: () => null });

  it('returns the parsed parameters', () => {
    expect(parseModelParams(plugin, { upper_boundary: 0.99 })).toEqual({ upper_boundary: 0.99 });
  });

  it('throws one InputError listing every problem', () => {
    let error: unknown;
    try {
      parseModelParams(plugin, { upper_boundary: 1.2, lower_boundary: 0.1 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      'threshold lower_boundary must be in [0.5, 1.0) for t_test, got 0.1; threshold upper_boundary must be in [0.5, 1.0) for t_test, got 1.2',
    );
    expect((error as InputError).details).toMatchObject({ model: 't_test' });
  });
});
