import { describe, expect, it } from 'vitest';
import { selectAdapter, setOwn, type Average, type Bmf } from '../../core/index.js';
import { bmfDifferences, readFixture, registryWithBuiltins } from './corpus.js';

/**
 * Every case of the reference's own adapter tests (bencher/EXPECTED.json: 158 cases over 83 fixtures) is
 * asserted with exact `===` on every value and bound. JSON numbers are decoded like serde_json does (see
 * plugins/adapters/shared/serde-json.ts), so no tolerance is needed.
 */

interface Case {
  adapter: string;
  settings: { average?: Average };
  expect: Bmf;
  count?: number;
  partial?: boolean;
  invalid?: boolean;
  derived_full?: Bmf;
}

type Expected = Record<string, Case & { other_cases?: Case[] }>;

/**
 * Where Benchtrack deliberately differs from the reference (docs/adapters.md), per fixture: benchmark renames
 * (ours -> reference) and measures only we emit. They are applied to our output before comparing, so
 * everything else is still compared exactly, and the extra output itself is asserted below.
 */
const DEVIATIONS: Record<string, { renamed?: Record<string, string>; extra?: Bmf; adapters: string[] }> = {
  // go_bench keeps b.ReportMetric columns as measures named by their unit.
  'tool_output/go/bench/three.txt': {
    adapters: ['go_bench'],
    extra: { 'BenchmarkFib20WithAuxMetric-8': { auxMetricUnits: { value: 4 } } },
  },
  // java_jmh keeps params in the name, so parameterized runs of one method do not collide.
  'tool_output/java/jmh/six.json': {
    adapters: ['java_jmh'],
    renamed: Object.fromEntries(
      ['caffeine', 'guava', 'hashmap'].flatMap((pkg) => {
        const type = { caffeine: 'Caffeine', guava: 'Guava', hashmap: 'ConcurrentHashMap' }[pkg];
        return ['compute_sameKey', 'compute_spread'].map((method) => {
          const name = `com.github.${pkg}.caffeine.cache.ComputeBenchmark.${method}`;
          return [`${name} (computeType=${type})`, name];
        });
      }),
    ),
  },
};

const expected = JSON.parse(readFixture('bencher/EXPECTED.json')) as Expected;
const registry = registryWithBuiltins();

const cases = Object.entries(expected).flatMap(([file, primary]) =>
  [primary, ...(primary.other_cases ?? [])].map((c, index) => ({ file, index, ...c })),
);

describe('bencher corpus (reference test expectations)', () => {
  it('has the 158 cases over 83 fixtures the README describes', () => {
    expect(Object.keys(expected)).toHaveLength(83);
    expect(cases).toHaveLength(158);
  });

  it.each(cases.map((c) => [`${c.file} [${c.adapter} ${JSON.stringify(c.settings)}]`, c] as const))(
    '%s',
    (_, c) => {
      const selection = selectAdapter(registry, c.adapter);
      const match = selection.parse(readFixture(`bencher/${c.file}`), c.settings);
      if (c.invalid) {
        expect(match).toBeNull();
        return;
      }
      expect(match, 'the adapter found no benchmarks').not.toBeNull();
      const deviation = DEVIATIONS[c.file];
      const applies = deviation !== undefined && deviation.adapters.includes(match?.adapter.id ?? '');
      const actual = applies ? undoDeviation(match?.bmf ?? {}, deviation) : (match?.bmf ?? {});
      if (c.count !== undefined) expect(Object.keys(actual)).toHaveLength(c.count);
      expect(bmfDifferences(actual, c.expect, { partial: c.partial === true })).toEqual([]);
      // Partial upstream assertions come with the full output of an independent re-implementation; hold us to it.
      if (c.derived_full) expect(bmfDifferences(actual, c.derived_full)).toEqual([]);
    },
  );

  it('emits the documented extra output where it deviates on purpose', () => {
    const go = selectAdapter(registry, 'go_bench').parse(
      readFixture('bencher/tool_output/go/bench/three.txt'),
      {},
    );
    expect(go?.bmf['BenchmarkFib20WithAuxMetric-8']).toEqual({
      latency: { value: 25829 },
      auxMetricUnits: { value: 4 },
    });
    const jmh = selectAdapter(registry, 'java_jmh').parse(
      readFixture('bencher/tool_output/java/jmh/six.json'),
      {},
    );
    expect(Object.keys(jmh?.bmf ?? {}).sort()).toEqual(
      Object.keys(DEVIATIONS['tool_output/java/jmh/six.json']?.renamed ?? {}).sort(),
    );
  });
});

function undoDeviation(bmf: Bmf, deviation: { renamed?: Record<string, string>; extra?: Bmf }): Bmf {
  const out: Bmf = {};
  for (const [name, measures] of Object.entries(bmf)) {
    const original = deviation.renamed?.[name] ?? name;
    const extra = deviation.extra?.[original] ?? {};
    const kept = Object.fromEntries(
      Object.entries(measures).filter(([measure]) => !Object.hasOwn(extra, measure)),
    );
    setOwn(out, original, kept);
  }
  return out;
}
