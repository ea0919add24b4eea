import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { modelRef, PluginRegistry, type ModelPlugin, type RegisteredPlugin } from '../../core/index.js';
import { computeBoundaries } from '../../workers/compute-boundaries.js';
import { describeModelContract } from '../../kit/testing.js';
import { createTestPool } from '../../kit/testing/model.js';

/** Loaded the way configuration names a plugin file: a path, turned into a module specifier by the registry. */
const registry = new PluginRegistry();
const [entry] = (await registry.load('../fixtures/plugins/custom-model.ts', {
  baseDir: dirname(fileURLToPath(import.meta.url)),
})) as RegisteredPlugin<ModelPlugin>[];
if (entry === undefined || entry.module === undefined) throw new Error('the fixture model did not load');

describeModelContract(entry.plugin, {
  module: entry.module,
  params: { lower_boundary: 3, upper_boundary: 3 },
  invalidParams: [
    {
      params: { upper_boundary: -1 },
      message: 'threshold upper_boundary must be at least 0 for median_mad, got -1',
    },
  ],
});

describe('a third-party model from a file', () => {
  it('is recorded with the file URL it came from', () => {
    expect(entry.module).toMatch(/^file:\/\/.*\/test\/fixtures\/plugins\/custom-model\.ts$/);
    expect(registry.get('model', 'median_mad').plugin).toBe(entry.plugin);
  });

  it('computes limits in a worker thread next to built-in models', async () => {
    const { builtinModelModules } = await import('../../plugins/models/index.js');
    const pool = createTestPool();
    try {
      const values = new Float64Array([100, 101, 99, 100, 102, 98, 100, 1000, 100, 101, 99, 100]);
      const columns = await computeBoundaries(
        pool,
        {
          offsets: new Uint32Array([0, 8, 12]),
          values,
          modelIndex: new Uint16Array([0, 1]),
          models: [
            modelRef(entry, { upper_boundary: 3 }),
            { module: builtinModelModules.t_test, id: 't', params: { upper_boundary: 0.99 } },
          ],
        },
        { mode: 'pool' },
      );
      // median 100, |deviations| sorted 0,0,0,1,1,2,2,900 -> MAD 1, scaled 1.4826; the 1000 outlier is ignored
      expect(columns.baseline[0]).toBe(100);
      expect(columns.upper[0]).toBeCloseTo(100 + 3 * 1.4826, 12);
      expect(Number.isNaN(columns.lower[0])).toBe(true);
      expect(columns.baseline[1]).toBe(100);
      expect(columns.upper[1]).toBeGreaterThan(100);
    } finally {
      await pool.close();
    }
  });

  it('cannot reach a worker without its module specifier', () => {
    const bare = new PluginRegistry().register(entry.plugin);
    expect(() => modelRef(bare as RegisteredPlugin<ModelPlugin>, { upper_boundary: 3 })).toThrow(
      'model median_mad was registered without its module specifier, so worker threads cannot load it',
    );
  });
});
