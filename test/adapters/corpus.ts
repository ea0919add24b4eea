import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PluginRegistry, type Bmf } from '../../core/index.js';
import { builtinAdapters } from '../../plugins/adapters/index.js';

/** The fixture corpus copied byte for byte from the shared fixtures (see its README for provenance). */
export const FIXTURES = fileURLToPath(new URL('../fixtures/adapters/', import.meta.url));

export function readFixture(relative: string): string {
  return readFileSync(new URL(relative, `file://${FIXTURES}`), 'utf8');
}

export function registryWithBuiltins(): PluginRegistry {
  const registry = new PluginRegistry();
  for (const adapter of builtinAdapters) registry.register(adapter);
  return registry;
}

/**
 * Exact comparison of two BMF documents: same benchmarks, same measures, same bounds present, and every
 * number identical (`===`). Returns the differences, so a failure names every mismatch at once.
 */
export function bmfDifferences(actual: Bmf, expected: Bmf, options: { partial?: boolean } = {}): string[] {
  const problems: string[] = [];
  const actualNames = Object.keys(actual);
  const expectedNames = Object.keys(expected);
  if (!options.partial) {
    for (const name of actualNames)
      if (!Object.hasOwn(expected, name)) problems.push(`unexpected benchmark ${JSON.stringify(name)}`);
  }
  for (const name of expectedNames) {
    const got = Object.hasOwn(actual, name) ? actual[name] : undefined;
    const want = expected[name] as Bmf[string];
    if (!got) {
      problems.push(`missing benchmark ${JSON.stringify(name)}`);
      continue;
    }
    if (!options.partial) {
      for (const m of Object.keys(got))
        if (!Object.hasOwn(want, m)) problems.push(`${name}: unexpected measure ${m}`);
    }
    for (const [measure, metric] of Object.entries(want)) {
      const g = Object.hasOwn(got, measure) ? got[measure] : undefined;
      if (!g) {
        problems.push(`${name}: missing measure ${measure}`);
        continue;
      }
      for (const field of ['value', 'lower_value', 'upper_value'] as const) {
        if (g[field] !== metric[field])
          problems.push(`${name} ${measure} ${field}: got ${g[field]}, want ${metric[field]}`);
      }
    }
  }
  return problems;
}
