import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineModel, type ModelLimits, type ModelParams } from '../plugins/contracts.js';
import { evaluateModel } from './evaluate.js';

/** Reports what it was given, so the tests see what evaluateModel passes through. */
function recorder(result: (samples: Float64Array) => ModelLimits | null | unknown) {
  const seen: number[][] = [];
  const plugin = defineModel<ModelParams>({
    id: 'recorder',
    description: 'test double',
    params: z.object({}) as unknown as z.ZodType<ModelParams>,
    limits(samples) {
      seen.push([...samples]);
      return result(samples) as ModelLimits | null;
    },
  });
  return { plugin, seen };
}

const ok = (samples: Float64Array) => ({ baseline: samples[0] ?? 0, lower: 1, upper: 2 });

describe('evaluateModel', () => {
  it('gives no boundary for an empty history without calling the model', () => {
    const { plugin, seen } = recorder(ok);
    expect(evaluateModel(plugin, new Float64Array(0), { upper_boundary: 1 })).toBeNull();
    expect(seen).toEqual([]);
  });

  it('gives no boundary below min_sample_size, and computes at it', () => {
    const { plugin } = recorder(ok);
    const params = { min_sample_size: 3, upper_boundary: 1 };
    expect(evaluateModel(plugin, new Float64Array([5, 6]), params)).toBeNull();
    expect(evaluateModel(plugin, new Float64Array([5, 6, 7]), params)).toEqual({
      baseline: 5,
      lower: 1,
      upper: 2,
    });
  });

  it('passes only the newest max_sample_size samples', () => {
    const { plugin, seen } = recorder(ok);
    evaluateModel(plugin, new Float64Array([4, 3, 2, 1]), { max_sample_size: 2, upper_boundary: 1 });
    expect(seen).toEqual([[4, 3]]);
  });

  it('gives no boundary for a history holding NaN or Infinity', () => {
    const { plugin, seen } = recorder(ok);
    expect(evaluateModel(plugin, new Float64Array([1, Number.NaN]), { upper_boundary: 1 })).toBeNull();
    expect(evaluateModel(plugin, new Float64Array([1, Infinity]), { upper_boundary: 1 })).toBeNull();
    expect(seen).toEqual([]);
  });

  it('turns any non-finite limit into no boundary', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity]) {
      const { plugin } = recorder(() => ({ baseline: 1, lower: null, upper: bad }));
      expect(evaluateModel(plugin, new Float64Array([1, 2]), { upper_boundary: 1 })).toBeNull();
    }
  });

  it('keeps null sides', () => {
    const { plugin } = recorder(() => ({ baseline: null, lower: null, upper: 3 }));
    expect(evaluateModel(plugin, new Float64Array([1]), { upper_boundary: 3 })).toEqual({
      baseline: null,
      lower: null,
      upper: 3,
    });
  });

  it('names the model when it returns something that is not limits', () => {
    const { plugin } = recorder(() => ({ baseline: '1', lower: null, upper: null }));
    expect(() => evaluateModel(plugin, new Float64Array([1]), { upper_boundary: 1 })).toThrow(
      'model recorder returned a baseline of type string; use a number or null',
    );
    const undef = recorder(() => undefined).plugin;
    expect(() => evaluateModel(undef, new Float64Array([1]), { upper_boundary: 1 })).toThrow(
      'model recorder returned undefined instead of limits or null',
    );
  });
});
