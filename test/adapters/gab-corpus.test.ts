import { describe, expect, it } from 'vitest';
import { selectAdapter, type BmfMetric } from '../../core/index.js';
import { readFixture, registryWithBuiltins } from './corpus.js';

/**
 * github-action-benchmark ("gab") fixtures: every file of a harness we support parses with the matching
 * adapter to the same benchmarks and values after unit conversion. gab names and units differ from ours
 * (and the reference's); every difference is listed in the tables below rather than skipped.
 */

interface GabBench {
  name: string;
  value: number;
  unit: string;
  range?: string;
  extra?: string;
}

const gab = JSON.parse(readFixture('gab/EXPECTED.json')) as Record<
  string,
  { tool: string; benches: GabBench[] }
>;
const registry = registryWithBuiltins();

/** How one gab entry maps onto our output: benchmark, measure, expected value (and bounds when comparable). */
interface Mapping {
  name: string;
  measure: string;
  value: number;
  lower?: number;
  upper?: number;
}

type Mapper = (bench: GabBench) => Mapping | { skip: string };

interface FileSpec {
  adapter: string;
  /** Why the mapping differs from "same name, same value". */
  differences: string;
  map: Mapper;
  /** Relative tolerance, only where the two tools compute the value by different arithmetic. */
  tolerance?: number;
}

const NANOS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  usec: 1e3,
  ms: 1e6,
  msec: 1e6,
  s: 1e9,
  sec: 1e9,
  nsec: 1,
};

const plusMinus = (range: string | undefined) => Number((range ?? '').replace(/^±\s*/, '').replace('%', ''));

const cargo: FileSpec = {
  adapter: 'rust_bench',
  differences:
    'same names; gab keeps "<n> ns/iter" and "± <n>", we convert to latency ns with absolute bounds',
  map: (b) => ({
    name: b.name,
    measure: 'latency',
    value: b.value * (NANOS[b.unit.replace('/iter', '')] as number),
    lower: b.value - plusMinus(b.range),
    upper: b.value + plusMinus(b.range),
  }),
};

const catch2Names: Record<string, string> = {
  'Fibonacci 10': 'Fibonacci: Fibonacci 10',
  'Fibonacci 20': 'Fibonacci: Fibonacci 20',
  'Fibonacci~ 5!': 'More Fibonacci: Fibonacci~ 5!',
  'Fibonacci-15_bench': 'More Fibonacci: Fibonacci-15_bench',
};

const catch2: FileSpec = {
  adapter: 'cpp_catch2',
  differences:
    'we prefix the test case ("Test Case: Benchmark", spec); gab keeps the printed unit (us) and a range without its unit, so only values are compared',
  map: (b) => ({
    name: catch2Names[b.name] ?? b.name,
    measure: 'latency',
    value: b.value * (NANOS[b.unit] as number),
  }),
};

/** gab moves Go's `-N` procs suffix into `extra`, we keep it in the name like the reference. */
function goName(b: GabBench): string {
  const procs = /(\d+) procs/.exec(b.extra ?? '')?.[1];
  const base = b.name.replace(/ \(github\.com\/[^)]*\)/, '').replace(/ - [^ ]+$/, '');
  return procs ? `${base}-${procs}` : base;
}

const go: FileSpec = {
  adapter: 'go_bench',
  differences:
    'gab strips "-N" procs from names, adds " (pkg)" when several packages ran, and emits a combined entry plus "name - unit" entries; we keep "-N", emit one benchmark with latency plus one measure per extra column',
  map: (b) => {
    if (/[\t ]/.test(b.unit)) return { skip: 'combined legacy entry (unit is the rest of the line)' };
    const unit = / - ([^ ]+)$/.exec(b.name)?.[1] ?? b.unit;
    const measure = unit === 'ns/op' ? 'latency' : unit;
    return { name: goName(b), measure, value: b.value };
  },
};

const SPECS: Record<string, FileSpec> = {
  'benchmarkdotnet.json': {
    adapter: 'c_sharp_dot_net',
    differences: 'gab names by FullName (Namespace.Type.Method), we by Namespace.Method like the reference',
    map: (b) => ({
      name: b.name.replace('.Benchmarks.', '.'),
      measure: 'latency',
      value: b.value,
      lower: b.value - plusMinus(b.range),
      upper: b.value + plusMinus(b.range),
    }),
  },
  'benchmarkjs_output.txt': {
    adapter: 'js_benchmark',
    differences: 'same names and ops/sec; gab keeps "±0.74%", we turn it into absolute throughput bounds',
    map: (b) => {
      const error = b.value * (plusMinus(b.range) / 100);
      return {
        name: b.name,
        measure: 'throughput',
        value: b.value,
        lower: b.value - error,
        upper: b.value + error,
      };
    },
  },
  'cargo_output.txt': cargo,
  'cargo_output2.txt': cargo,
  'cargo_output3.txt': cargo,
  'catch2_output_v2.txt': catch2,
  'catch2_output_v3.txt': catch2,
  'issue16_output.txt': {
    ...catch2,
    map: (b) => ({
      name: `Fibonacci: ${b.name}`,
      measure: 'latency',
      value: b.value * (NANOS[b.unit] as number),
    }),
  },
  'go_output.txt': go,
  'go_fiber_output.txt': go,
  'go_single_package_output.txt': go,
  'googlecpp_output.json': {
    adapter: 'cpp_google',
    differences: 'same names; gab keeps "ns/iter", we report latency in ns',
    map: (b) => ({
      name: b.name,
      measure: 'latency',
      value: b.value * (NANOS[b.unit.replace('/iter', '')] as number),
    }),
  },
  'jmh_output.json': {
    adapter: 'java_jmh',
    differences: 'same name and ops/s (throughput)',
    map: (b) => ({ name: b.name, measure: 'throughput', value: b.value }),
  },
  'jmh_output_2.json': {
    adapter: 'java_jmh',
    differences: 'params: gab appends \' ( {"paramA":"17",...} )\', we append " (paramA=17, paramB=33)"',
    map: (b) => ({
      name: 'org.openjdk.jmh.samples.JMHSample_01_HelloWorld.wellHelloThere (paramA=17, paramB=33)',
      measure: 'throughput',
      value: b.value,
    }),
  },
  'pytest_output.json': pytest(),
  'pytest_several_units.json': pytest(),
};

/** gab reports stats.ops (iter/sec); like the reference we report the mean as latency, which gab prints in extra. */
function pytest(): FileSpec {
  return {
    adapter: 'python_pytest',
    differences:
      'gab reports throughput from stats.ops; we report latency (mean) in ns, compared with the mean gab prints in extra (converted from nsec/usec/msec/sec)',
    tolerance: 1e-12,
    map: (b) => {
      const [, mean, unit] = /mean: ([0-9.e+-]+) (\w+)/.exec(b.extra ?? '') ?? [];
      return { name: b.name, measure: 'latency', value: Number(mean) * (NANOS[unit ?? ''] as number) };
    },
  };
}

/** gab files our adapters do not read, and why. */
const NOT_SUPPORTED: Record<string, { adapter: string; reason: string }> = {
  'benchmarkluau_output.txt': { adapter: 'magic', reason: 'no Luau adapter in the reference or here' },
  'julia_output.json': {
    adapter: 'magic',
    reason: 'no Julia (BenchmarkTools.jl) adapter in the reference or here',
  },
  'customBiggerIsBetter_output.json': {
    adapter: 'magic',
    reason: "gab's own array format; our custom format is BMF (json)",
  },
  'customSmallerIsBetter_output.json': {
    adapter: 'magic',
    reason: "gab's own array format; our custom format is BMF (json)",
  },
  'customSmallerIsBetter_output2.json': {
    adapter: 'magic',
    reason: "gab's own array format; our custom format is BMF (json)",
  },
  'cargo_output_units.txt': {
    adapter: 'rust_bench',
    reason: 'cycles/iter and MS/s are not time units; rust_bench (like the reference) reads latency only',
  },
  'criterion_output.txt': {
    adapter: 'rust_bench',
    reason: 'Criterion\'s "bencher" format names contain spaces, which libtest names cannot (reference rule)',
  },
  'go_fiber_duplicate_names_output.txt': {
    adapter: 'go_bench',
    reason:
      'checked separately below: the same names in two packages collide (the later package wins, as in the reference)',
  },
};

describe('gab corpus', () => {
  it('covers every gab fixture', () => {
    expect([...Object.keys(SPECS), ...Object.keys(NOT_SUPPORTED)].sort()).toEqual(Object.keys(gab).sort());
  });

  it.each(Object.entries(SPECS))('%s', (file, spec) => {
    const match = selectAdapter(registry, spec.adapter).parse(readFixture(`gab/${file}`), {});
    expect(match, `${spec.adapter} found nothing`).not.toBeNull();
    const bmf = match?.bmf ?? {};
    const seen = new Set<string>();
    for (const bench of gab[file]?.benches ?? []) {
      const mapped = spec.map(bench);
      if ('skip' in mapped) continue;
      seen.add(mapped.name);
      const metric = bmf[mapped.name]?.[mapped.measure];
      expect(metric, `${mapped.name} ${mapped.measure} (${spec.differences})`).toBeDefined();
      expectClose(metric as BmfMetric, mapped, spec.tolerance);
    }
    expect(Object.keys(bmf).sort(), 'same benchmarks').toEqual([...seen].sort());
  });

  it.each(Object.entries(NOT_SUPPORTED).filter(([file]) => !file.startsWith('go_fiber')))(
    '%s is not read (%s)',
    (file, { adapter }) => {
      expect(selectAdapter(registry, adapter).parse(readFixture(`gab/${file}`), {})).toBeNull();
    },
  );

  it('go_fiber_duplicate_names_output.txt: one benchmark per name, the later package wins', () => {
    const bmf = selectAdapter(registry, 'go_bench').parse(
      readFixture('gab/go_fiber_duplicate_names_output.txt'),
      {},
    )?.bmf;
    expect(bmf).toEqual({
      'BenchmarkAppendMsgitem-4': {
        latency: { value: 0.3733 },
        'MB/s': { value: 2678.46 },
        'B/op': { value: 0 },
        'allocs/op': { value: 0 },
      },
      'BenchmarkUnmarshalitem-4': {
        latency: { value: 4.36 },
        'MB/s': { value: 229.35 },
        'B/op': { value: 0 },
        'allocs/op': { value: 0 },
      },
    });
  });
});

function expectClose(actual: BmfMetric, expected: Mapping, tolerance = 0): void {
  const pairs: [number | undefined, number | undefined, string][] = [
    [actual.value, expected.value, 'value'],
    ...(expected.lower === undefined
      ? []
      : [[actual.lower_value, expected.lower, 'lower'] as [number | undefined, number, string]]),
    ...(expected.upper === undefined
      ? []
      : [[actual.upper_value, expected.upper, 'upper'] as [number | undefined, number, string]]),
  ];
  for (const [got, want, field] of pairs) {
    if (tolerance === 0) expect(got, `${expected.name} ${field}`).toBe(want);
    else
      expect(
        Math.abs((got as number) - (want as number)) / Math.abs(want as number),
        `${expected.name} ${field}`,
      ).toBeLessThan(tolerance);
  }
}
