import { describe, expect, it } from 'vitest';
import { selectAdapter } from '../../core/index.js';
import { readFixture, registryWithBuiltins } from './corpus.js';

/** Where we go beyond the reference on purpose (docs/adapters.md, "Deliberate differences"). */
const registry = registryWithBuiltins();
const parse = (adapter: string, output: string, average?: 'mean' | 'median') =>
  selectAdapter(registry, adapter).parse(output, average ? { average } : {})?.bmf ?? null;

describe('go_bench keeps every column', () => {
  it('reads -benchmem, SetBytes and ReportMetric columns as measures named by their unit', () => {
    const output = [
      'goos: linux',
      'BenchmarkEncode-8   \t 1000000\t      1052 ns/op\t 973.40 MB/s\t     512 B/op\t       3 allocs/op',
      'BenchmarkFrames-8 \t 200 \t 5000000 ns/op \t 59.8 frames/s \t 1.25e+03 ignored',
      'PASS',
    ].join('\n');
    expect(parse('go_bench', output)).toEqual({
      'BenchmarkEncode-8': {
        latency: { value: 1052 },
        'MB/s': { value: 973.4 },
        'B/op': { value: 512 },
        'allocs/op': { value: 3 },
      },
      // Columns are read while they are <number> <unit> pairs; the exponent form is not a number here.
      'BenchmarkFrames-8': { latency: { value: 5000000 }, 'frames/s': { value: 59.8 } },
    });
  });

  it('still rejects lines the reference rejects (the first column must be a time per op)', () => {
    expect(parse('go_bench', 'BenchmarkX-8 100 5 B/op 3 allocs/op')).toBeNull();
  });
});

describe('java_jmh keeps params in the name', () => {
  const run = (params: Record<string, string> | undefined, score: number) => ({
    benchmark: 'org.example.Bench.sort',
    ...(params ? { params } : {}),
    primaryMetric: { score, scoreConfidence: [score - 1, score + 1], scoreUnit: 'ns/op' },
    secondaryMetrics: {},
  });

  it('gives parameterized runs of one method their own benchmarks', () => {
    const output = JSON.stringify([
      run({ size: '10', order: 'random' }, 5),
      run({ size: '1000', order: 'random' }, 500),
      run(undefined, 7),
    ]);
    expect(parse('java_jmh', output)).toEqual({
      'org.example.Bench.sort (size=10, order=random)': {
        latency: { value: 5, lower_value: 4, upper_value: 6 },
      },
      'org.example.Bench.sort (size=1000, order=random)': {
        latency: { value: 500, lower_value: 499, upper_value: 501 },
      },
      'org.example.Bench.sort': { latency: { value: 7, lower_value: 6, upper_value: 8 } },
    });
  });
});

describe('cpp_google reads repetitions through their aggregates', () => {
  const row = (name: string, extra: Record<string, unknown>, real: number) => ({
    name,
    run_name: 'BM_sort/1024',
    threads: 1,
    iterations: 100,
    real_time: real,
    cpu_time: real,
    time_unit: 'us',
    ...extra,
  });
  const output = JSON.stringify({
    context: { caches: [] },
    benchmarks: [
      row('BM_sort/1024', { run_type: 'iteration', repetitions: 3, repetition_index: 0 }, 10),
      row('BM_sort/1024', { run_type: 'iteration', repetitions: 3, repetition_index: 1 }, 12),
      row('BM_sort/1024', { run_type: 'iteration', repetitions: 3, repetition_index: 2 }, 14),
      row('BM_sort/1024_mean', { run_type: 'aggregate', aggregate_name: 'mean' }, 12),
      row('BM_sort/1024_median', { run_type: 'aggregate', aggregate_name: 'median' }, 12),
      row('BM_sort/1024_stddev', { run_type: 'aggregate', aggregate_name: 'stddev' }, 2),
      row(
        'BM_sort/1024_cv',
        { run_type: 'aggregate', aggregate_name: 'cv', aggregate_unit: 'percentage' },
        0.16,
      ),
      { name: 'BM_copy', run_name: 'BM_copy', run_type: 'iteration', real_time: 3, time_unit: 'ns' },
    ],
  });

  it('reports the mean aggregate with the stddev as bounds, under the run name', () => {
    expect(parse('cpp_google', output)).toEqual({
      'BM_sort/1024': { latency: { value: 12000, lower_value: 10000, upper_value: 14000 } },
      BM_copy: { latency: { value: 3 } },
    });
  });

  it('keeps refusing the median average, like the reference', () => {
    expect(parse('cpp_google', output, 'median')).toBeNull();
  });
});

describe('cpp_google reads user counters', () => {
  it('makes every numeric field that is not a row field a measure named by the counter', () => {
    const output = JSON.stringify({
      context: { caches: [] },
      benchmarks: [
        {
          name: 'BM_io',
          run_type: 'iteration',
          iterations: 8,
          real_time: 5,
          cpu_time: 4,
          time_unit: 'ns',
          bytes_per_second: 1.5e9,
          items_per_second: 2.5e8,
          wakeups: 8,
          label: 'text is not a counter',
        },
      ],
    });
    expect(parse('cpp_google', output)).toEqual({
      BM_io: {
        latency: { value: 5 },
        bytes_per_second: { value: 1.5e9 },
        items_per_second: { value: 2.5e8 },
        wakeups: { value: 8 },
      },
    });
  });

  it('gives a real JSON run the same benchmarks and measures as its console reading', () => {
    const bmf = parse('cpp_google', readFixture('console/cpp/google/counters.json'));
    const shape = (b: typeof bmf) =>
      Object.entries(b ?? {}).map(([name, m]) => [name, Object.keys(m).sort()]);
    expect(shape(bmf)).toEqual([
      ['BM_memcpy/64', ['bytes_per_second', 'items_per_second', 'latency']],
      ['BM_sleep/50', ['latency', 'rate', 'wakeups']],
    ]);
  });
});
