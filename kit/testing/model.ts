import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boundaryAt,
  evaluateModel,
  PluginRegistry,
  type ModelLimits,
  type ModelParams,
  type ModelPlugin,
} from '../../core/index.js';
import { computeBoundaries } from '../../workers/compute-boundaries.js';
import { WorkerPool } from '../../workers/pool.js';

export interface ModelContractOptions {
  /** The module specifier the plugin is exported from (its default export); worker threads load it from here. */
  readonly module: string;
  /** Valid parameters with both boundaries set. Default: both 0.99, valid for every built-in boundary rule. */
  readonly params?: ModelParams;
  /** The fewest samples the model computes limits from (default 2); fewer must give no boundary. */
  readonly minSamples?: number;
  /**
   * What a history without spread (all samples equal) gives: `none` (no boundary, the default: a model whose
   * distribution needs a positive scale) or `limits` (finite limits, e.g. a location-only model).
   */
  readonly constantHistory?: 'none' | 'limits';
  /** Parameters the model must reject, each with (part of) the message it must give. */
  readonly invalidParams?: readonly { readonly params: unknown; readonly message: string | RegExp }[];
  /** A pool to run the worker check in (the caller closes it); without one the suite starts and closes its own. */
  readonly pool?: WorkerPool;
}

/** A one-thread pool with a silent logger, for tests. */
export function createTestPool(): WorkerPool {
  return new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), { maxThreads: 1 });
}

/** Deterministic histories: positive (log_normal needs it), with spread, up to 64 samples. */
function histories(minSamples: number, count: number, seed: number): Float64Array[] {
  const sample = fc
    .array(fc.integer({ min: 5_000, max: 15_000 }), { minLength: Math.max(2, minSamples), maxLength: 64 })
    .filter((values) => new Set(values).size > 1)
    .map((values) => Float64Array.from(values, (value) => value / 100));
  return fc.sample(sample, { seed, numRuns: count });
}

function expectSame(actual: ModelLimits | null, expected: ModelLimits | null): void {
  if (expected === null) return void expect(actual).toBeNull();
  expect(actual).not.toBeNull();
  for (const side of ['baseline', 'lower', 'upper'] as const)
    expect(Object.is(actual?.[side], expected[side])).toBe(true);
}

/**
 * The contract every threshold model passes (built-in or third-party): a valid plugin; deterministic and pure;
 * no boundary for empty, short, non-finite and (where declared) constant histories; finite limits otherwise,
 * with an unset side null; parameter validation that names the model and the parameter; parameters and
 * limits that survive structured cloning; and the same answer in a worker thread as inline.
 */
export function describeModelContract(plugin: ModelPlugin, options: ModelContractOptions): void {
  const params: ModelParams = options.params ?? { lower_boundary: 0.99, upper_boundary: 0.99 };
  const minSamples = options.minSamples ?? 2;
  const parsed = () => plugin.params.parse(params);
  const limits = (samples: Float64Array, p: ModelParams = parsed()) => plugin.limits(samples, p);

  describe(`model contract: ${plugin.id}`, () => {
    it('is a valid model plugin, exported by its module', async () => {
      const entry = new PluginRegistry().register(plugin, { module: options.module });
      expect(entry.plugin.kind).toBe('model');
      const exported = (await import(options.module)) as { default?: unknown; plugins?: unknown };
      const list = [exported.default ?? exported.plugins].flat();
      expect(list.some((candidate) => (candidate as ModelPlugin | undefined)?.id === plugin.id)).toBe(true);
    });

    it('is deterministic, leaves its input untouched and returns finite limits with unset sides null', () => {
      for (const samples of histories(minSamples, 40, 1)) {
        const copy = samples.slice();
        const first = limits(samples);
        expect(first, `history ${[...samples]}`).not.toBeNull();
        expectSame(limits(samples), first);
        expect([...samples]).toEqual([...copy]);
        for (const side of ['baseline', 'lower', 'upper'] as const) {
          const value = first?.[side];
          expect(value === null || Number.isFinite(value)).toBe(true);
        }
        expect(Number.isFinite(first?.lower) && Number.isFinite(first?.upper)).toBe(true);
        if (params.lower_boundary !== undefined && params.upper_boundary !== undefined) {
          const upperOnly = plugin.params.parse({ ...params, lower_boundary: undefined });
          expect(limits(samples, upperOnly)?.lower).toBeNull();
          expect(limits(samples, upperOnly)?.upper).toBe(first?.upper);
        }
      }
    });

    it('gives no boundary for an empty history', () => {
      expect(limits(new Float64Array(0))).toBeNull();
    });

    it(`gives no boundary below ${minSamples} sample(s)`, () => {
      for (let n = 1; n < minSamples; n++) expect(limits(new Float64Array(n).fill(100 + n))).toBeNull();
    });

    it('gives no boundary for a history holding NaN or an infinity', () => {
      for (const bad of [Number.NaN, Infinity, -Infinity]) {
        for (const at of [0, 3, 7]) {
          const samples = Float64Array.from({ length: 8 }, (_, i) => 100 + (i % 3));
          samples[at] = bad;
          expect(limits(samples), `${bad} at ${at}`).toBeNull();
        }
      }
    });

    it(`gives ${options.constantHistory === 'limits' ? 'finite limits' : 'no boundary'} for a history without spread`, () => {
      for (const n of [Math.max(minSamples, 2), 10, 64]) {
        const result = limits(new Float64Array(n).fill(42.5));
        if (options.constantHistory === 'limits') {
          expect(result).not.toBeNull();
          for (const value of [result?.baseline, result?.lower, result?.upper]) {
            expect(value === null || Number.isFinite(value)).toBe(true);
          }
        } else {
          expect(result).toBeNull();
        }
      }
    });

    it('validates parameters, naming the model and the parameter', () => {
      expect(plugin.params.safeParse(params).success).toBe(true);
      const rejects = (input: unknown, ...parts: (string | RegExp)[]) => {
        const result = plugin.params.safeParse(input);
        expect(result.success, JSON.stringify(input)).toBe(false);
        const text = result.error?.issues.map((issue) => issue.message).join('; ') ?? '';
        for (const part of [plugin.id, ...parts]) expect(text).toMatch(part);
      };
      rejects({}, 'lower_boundary or upper_boundary');
      rejects({ ...params, min_sample_size: 1 }, 'min_sample_size');
      rejects({ ...params, max_sample_size: 1 }, 'max_sample_size');
      rejects({ ...params, window: 0 }, 'window');
      rejects({ ...params, upper_boundary: Number.NaN }, 'upper_boundary');
      rejects({ ...params, upper_boundary: 'high' }, 'upper_boundary');
      rejects({ ...params, not_a_parameter: 1 }, 'not_a_parameter');
      for (const invalid of options.invalidParams ?? []) rejects(invalid.params, invalid.message);
    });

    it('survives structured cloning: parameters and limits', () => {
      const p = parsed();
      const cloned = structuredClone(p);
      expect(cloned).toEqual(p);
      expect(plugin.params.parse(cloned)).toEqual(p);
      for (const samples of histories(minSamples, 10, 2)) {
        const result = limits(samples, cloned);
        expect(structuredClone(result)).toEqual(result);
        expectSame(result, limits(samples, p));
      }
    });

    describe('in a worker thread', () => {
      let pool: WorkerPool;
      beforeAll(() => void (pool = options.pool ?? createTestPool()));
      afterAll(() => (options.pool ? undefined : pool.close()));

      it('gives the same answer as inline, bit for bit', async () => {
        const series = [
          ...histories(minSamples, 30, 3),
          new Float64Array(0),
          new Float64Array(Math.max(1, minSamples - 1)).fill(7),
          new Float64Array([1, Number.NaN, 3]),
          new Float64Array(16).fill(42.5),
        ];
        const job = () => {
          const offsets = new Uint32Array(series.length + 1);
          series.forEach((s, i) => (offsets[i + 1] = (offsets[i] as number) + s.length));
          const values = new Float64Array(offsets[series.length] as number);
          series.forEach((s, i) => values.set(s, offsets[i]));
          const models = [{ module: options.module, id: plugin.id, params }];
          return { offsets, values, modelIndex: new Uint16Array(series.length), models };
        };
        const inWorker = await computeBoundaries(pool, job(), { mode: 'pool' });
        const inline = await computeBoundaries(pool, job(), { mode: 'inline' });
        expect(pool.threads).toBeGreaterThan(0);
        for (const column of ['baseline', 'lower', 'upper'] as const) {
          expect([...inWorker[column]].map(String)).toEqual([...inline[column]].map(String));
          expect(Buffer.from(inWorker[column].buffer)).toEqual(Buffer.from(inline[column].buffer));
        }
        series.forEach((samples, i) => {
          const direct = evaluateModel(plugin, samples, parsed());
          expect(boundaryAt(inWorker, i)).toEqual({
            baseline: direct?.baseline ?? null,
            lower_limit: direct?.lower ?? null,
            upper_limit: direct?.upper ?? null,
          });
        });
      });
    });
  });
}
