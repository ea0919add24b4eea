import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PluginRegistry, selectAdapter, type AdapterPlugin } from '../../core/index.js';
import { describeAdapterContract } from '../../kit/testing.js';

// Loaded the way `plugins: ["./custom-adapter.js"]` in the configuration loads it: by module specifier.
const registry = new PluginRegistry();
const [loaded] = await registry.load('./custom-adapter.js', {
  baseDir: fileURLToPath(new URL('../fixtures/plugins/', import.meta.url)),
});
const plugin = loaded?.plugin as AdapterPlugin;

describe('third-party adapter loaded by module specifier', () => {
  it('registers under its id, with the module it came from', () => {
    expect(plugin.id).toBe('csv_metrics');
    expect(loaded?.module).toMatch(/^file:.*custom-adapter\.js$/);
    expect(registry.find('adapter', 'csv_metrics')?.plugin).toBe(plugin);
  });

  it('is selected by --adapter like a built-in', () => {
    const match = selectAdapter(registry, 'csv_metrics').parse('sort/1000,latency,1532,1490,1601\n', {});
    expect(match?.bmf).toEqual({
      'sort/1000': { latency: { value: 1532, lower_value: 1490, upper_value: 1601 } },
    });
  });
});

describeAdapterContract(plugin, {
  sample: 'sort/1000,latency,1532,1490,1601\nsort/10,latency,12\nsort/10,throughput,8e7\n',
});
