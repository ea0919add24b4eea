import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import {
  boundaryAt,
  errorName,
  evaluateModel,
  hasBoundary,
  type BoundaryColumns,
  type ModelParams,
  type ModelPlugin,
} from '../../core/index.js';
import iqr from '../../plugins/models/iqr.js';
import { builtinModelModules } from '../../plugins/models/index.js';
import staticModel from '../../plugins/models/static.js';
import tTest from '../../plugins/models/t-test.js';
import type { BoundaryJob } from '../../core/index.js';
import { computeBoundaries, INLINE_MAX_VALUES } from '../../workers/compute-boundaries.js';
import { WorkerPool } from '../../workers/pool.js';

const pool = new WorkerPool(pino({ level: 'silent', customLevels: { critical: 60 } }), { maxThreads: 2 });
afterAll(() => pool.close());

const brokenModule = new URL('../fixtures/plugins/broken-model.ts', import.meta.url).href;
const models = [
  { module: builtinModelModules.t_test, id: 't_test', params: { upper_boundary: 0.99 } },
  { module: builtinModelModules.static, id: 'static', params: { lower_boundary: 1, upper_boundary: 2 } },
  { module: builtinModelModules.iqr, id: 'iqr', params: { lower_boundary: 1.5, upper_boundary: 1.5 } },
];
const plugins: [ModelPlugin, ModelParams][] = [
  [tTest, { upper_boundary: 0.99 }],
  [staticModel, { lower_boundary: 1, upper_boundary: 2 }],
  [iqr, { lower_boundary: 1.5, upper_boundary: 1.5 }],
];

/** A deterministic job: series i has (i * 7) % 65 samples around 100 and model i % 3. */
function makeJob(count: number): { job: BoundaryJob; series: Float64Array[] } {
  const series = Array.from({ length: count }, (_, i) =>
    Float64Array.from({ length: (i * 7) % 65 }, (_, j) => 100 + ((i * 31 + j * 17) % 23) / 7),
  );
  const offsets = new Uint32Array(count + 1);
  series.forEach((s, i) => (offsets[i + 1] = (offsets[i] as number) + s.length));
  const values = new Float64Array(offsets[count] as number);
  series.forEach((s, i) => values.set(s, offsets[i]));
  const modelIndex = Uint16Array.from({ length: count }, (_, i) => i % 3);
  return { job: { offsets, values, modelIndex, models }, series };
}

function expectSameColumns(a: BoundaryColumns, b: BoundaryColumns): void {
  for (const column of ['baseline', 'lower', 'upper'] as const) {
    expect(a[column].length).toBe(b[column].length);
    expect(Buffer.from(a[column].buffer, a[column].byteOffset, a[column].byteLength)).toEqual(
      Buffer.from(b[column].buffer, b[column].byteOffset, b[column].byteLength),
    );
  }
}

describe('computeBoundaries', () => {
  it('computes every series with its own model, decoding "no boundary" to null', async () => {
    const { job, series } = makeJob(60);
    const columns = await computeBoundaries(pool, job, { mode: 'pool' });
    expect(columns.baseline.length).toBe(60);
    series.forEach((samples, i) => {
      const [plugin, params] = plugins[i % 3] as [ModelPlugin, ModelParams];
      const direct = evaluateModel(plugin, samples, plugin.params.parse(params));
      expect(boundaryAt(columns, i), `series ${i}`).toEqual({
        baseline: direct?.baseline ?? null,
        lower_limit: direct?.lower ?? null,
        upper_limit: direct?.upper ?? null,
      });
      expect(hasBoundary(columns, i)).toBe(direct !== null);
    });
    expect(boundaryAt(columns, 0)).toEqual({ baseline: null, lower_limit: null, upper_limit: null });
    expect(boundaryAt(columns, 1)).toEqual({ baseline: null, lower_limit: 1, upper_limit: 2 });
  });

  it('moves the job to the worker and the columns back, detaching the sent buffers', async () => {
    const { job } = makeJob(30);
    const columns = await computeBoundaries(pool, job, { mode: 'pool' });
    expect(job.values.byteLength).toBe(0);
    expect(job.offsets.byteLength).toBe(0);
    expect(columns.baseline.buffer.byteLength).toBe(30 * 8);
  });

  it('copies a view rather than detaching the buffer it shares', async () => {
    const { job } = makeJob(30);
    const big = new Float64Array(job.values.length + 10);
    big.set(job.values, 10);
    const view = big.subarray(10);
    const columns = await computeBoundaries(pool, { ...job, values: view }, { mode: 'pool' });
    expect(big.byteLength).toBe((job.values.length + 10) * 8);
    expectSameColumns(columns, await computeBoundaries(pool, makeJob(30).job, { mode: 'inline' }));
  });

  it('splits a large job across threads and gives the same bits as inline', async () => {
    const count = Math.ceil((4 * INLINE_MAX_VALUES) / 32);
    const inline = await computeBoundaries(pool, makeJob(count).job, { mode: 'inline' });
    const { job } = makeJob(count);
    expect(job.values.length).toBeGreaterThan(2 * INLINE_MAX_VALUES);
    const pooled = await computeBoundaries(pool, job, { mode: 'pool' });
    expect(job.values.byteLength).toBeGreaterThan(0);
    expectSameColumns(pooled, inline);
    expectSameColumns(await computeBoundaries(pool, makeJob(count).job), inline);
  });

  it("runs a report of 200 series x 64 values (the ingest bench's) inline in auto mode", async () => {
    const offsets = Uint32Array.from({ length: 201 }, (_, i) => i * 64);
    const values = Float64Array.from({ length: 200 * 64 }, (_, j) => 100 + (j % 23) / 7);
    const job = { offsets, values, modelIndex: new Uint16Array(200), models };
    await computeBoundaries(pool, job);
    expect(job.values.byteLength).toBe(200 * 64 * 8);
  });

  it('runs a small job inline in auto mode, leaving its buffers in place', async () => {
    const { job } = makeJob(10);
    expect(job.values.length).toBeLessThan(INLINE_MAX_VALUES);
    await computeBoundaries(pool, job);
    expect(job.values.byteLength).toBeGreaterThan(0);
  });

  it('handles a job with no series', async () => {
    const job = {
      offsets: new Uint32Array([0]),
      values: new Float64Array(0),
      modelIndex: new Uint16Array(0),
      models,
    };
    for (const mode of ['inline', 'pool'] as const) {
      expect((await computeBoundaries(pool, { ...job }, { mode })).baseline.length).toBe(0);
    }
  });
});

describe('computeBoundaries errors keep their name across the thread boundary', () => {
  const rejectsWith = async (make: () => BoundaryJob, name: string, message: string | RegExp) => {
    for (const mode of ['inline', 'pool'] as const) {
      const error = await computeBoundaries(pool, make(), { mode }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(errorName(error), `${mode}: ${String(error)}`).toBe(name);
      expect((error as Error).message).toMatch(message);
    }
  };

  it('rejects offsets that do not match the values', async () => {
    await rejectsWith(
      () => ({ ...makeJob(3).job, offsets: new Uint32Array([0, 5, 9, 999]) }),
      'InputError',
      'boundary job offsets must start at 0 and end at values.length',
    );
  });

  it('rejects a model index out of range', async () => {
    await rejectsWith(
      () => ({ ...makeJob(3).job, modelIndex: new Uint16Array([0, 7, 0]) }),
      'InputError',
      'boundary job series 1 uses model 7, but there are 3',
    );
  });

  it('rejects invalid parameters with the model’s own message', async () => {
    await rejectsWith(
      () => ({
        ...makeJob(3).job,
        models: [{ ...models[0]!, params: { upper_boundary: 1.2 } }, models[1]!, models[2]!],
      }),
      'InputError',
      'threshold upper_boundary must be in [0.5, 1.0) for t_test, got 1.2',
    );
  });

  it('names a module that does not hold the model', async () => {
    await rejectsWith(
      () => ({ ...makeJob(3).job, models: [{ ...models[0]!, id: 'z_score' }, models[1]!, models[2]!] }),
      'PluginError',
      /exports no model plugin "z_score"/,
    );
  });

  it('checks a model module in the worker as the registry does on the main thread (API version included)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchtrack-model-'));
    const file = join(dir, 'future-model.mjs');
    writeFileSync(
      file,
      `export default { kind: 'model', id: 'future', apiVersion: 99, description: 'from a later release',
        params: { safeParse: (v) => ({ success: true, data: v }) }, limits: () => null };`,
    );
    try {
      await rejectsWith(
        () => ({
          ...makeJob(3).job,
          models: [{ module: pathToFileURL(file).href, id: 'future', params: {} }],
          modelIndex: new Uint16Array(3),
        }),
        'PluginError',
        /declares apiVersion 99, which this Benchtrack does not support/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the model and the series when a model throws', async () => {
    const job = () => ({
      offsets: new Uint32Array([0, 2, 4]),
      values: new Float64Array([1, 2, 13, 4]),
      modelIndex: new Uint16Array([0, 0]),
      models: [{ module: brokenModule, id: 'broken', params: { upper_boundary: 1 } }],
    });
    await rejectsWith(
      job,
      'PluginError',
      /^model broken from file:.*broken-model\.ts failed on series 1: unlucky sample$/,
    );
  });
});
