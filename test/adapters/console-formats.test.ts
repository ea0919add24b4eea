import { describe, expect, it } from 'vitest';
import { selectAdapter, type AdapterSettings, type Bmf, type BmfMetric } from '../../core/index.js';
import { bmfDifferences, readFixture, registryWithBuiltins } from './corpus.js';

/**
 * Console output of real harness runs (test/fixtures/adapters/console, README there says how each was made),
 * read by the adapter of its harness and by `magic`, compared exactly (`===` on every number).
 */
const registry = registryWithBuiltins();
const console_ = (path: string) => readFixture(`console/${path}`);

// Single multiplications, as the adapters convert (docs/adapters.md, "Units and numbers").
const us = (x: number) => x * 1000;
const ms = (x: number) => x * 1_000_000;
const s = (x: number) => x * 1_000_000_000;
const latency = (value: number, delta?: number): { latency: BmfMetric } => ({
  latency:
    delta === undefined ? { value } : { value, lower_value: value - delta, upper_value: value + delta },
});

function expectExact(adapter: string, file: string, expected: Bmf, settings: AdapterSettings = {}): void {
  const output = console_(file);
  const own = selectAdapter(registry, adapter).parse(output, settings);
  expect(own, `${adapter} found no benchmarks in ${file}`).not.toBeNull();
  expect(bmfDifferences(own?.bmf ?? {}, expected)).toEqual([]);
  const magic = selectAdapter(registry, 'magic').parse(output, settings);
  expect(magic?.adapter.id, `magic's choice for ${file}`).toBe(adapter);
  expect(magic?.bmf).toEqual(own?.bmf);
}

function expectNothing(adapter: string, file: string, settings: AdapterSettings): void {
  expect(selectAdapter(registry, adapter).parse(console_(file), settings)).toBeNull();
}

describe('hyperfine console output (shell_hyperfine)', () => {
  it('reads the full style with colours, several commands, warnings and the Summary block', () => {
    expectExact('shell_hyperfine', 'shell/hyperfine/full-color.txt', {
      true: latency(ms(11.3), ms(3.8)),
      'sleep 0.01': latency(ms(21.7), ms(5.4)),
      'ls /': latency(ms(17.2), ms(16.2)),
    });
  });

  it('reads the basic style, seconds and milliseconds', () => {
    expectExact('shell_hyperfine', 'shell/hyperfine/basic-seconds.txt', {
      'sleep 1.05': latency(s(1.059), s(0.009)),
      'sleep 0.3': latency(ms(309.8), ms(10.6)),
    });
  });

  it('reads a terminal capture with progress bars redrawn by carriage returns', () => {
    expectExact('shell_hyperfine', 'shell/hyperfine/terminal-progress.txt', {
      'sleep 0.020': latency(ms(26.4), ms(3.6)),
      'sleep 0.040': latency(ms(66.0), ms(12.0)),
    });
  });

  it('reads single runs (abs ≡, no σ so no bounds) and command names containing ": "', () => {
    expectExact('shell_hyperfine', 'shell/hyperfine/single-run-warnings.txt', {
      'fails: on purpose': latency(0),
      nap: latency(ms(20.5)),
    });
  });

  it('reads the nocolor style and microseconds', () => {
    expectExact('shell_hyperfine', 'shell/hyperfine/nocolor.txt', {
      true: latency(ms(7.1), ms(3.9)),
      'echo hi': latency(ms(10.1), ms(5.6)),
    });
    expectExact('shell_hyperfine', 'shell/hyperfine/microseconds-handmade.txt', {
      './target/release/noop': latency(us(612.4), us(48.9)),
      './target/debug/noop': latency(ms(1.1), ms(0.1)),
    });
  });

  it('takes mean as the default, and finds nothing for median (the console prints none)', () => {
    expectExact(
      'shell_hyperfine',
      'shell/hyperfine/basic-seconds.txt',
      {
        'sleep 1.05': latency(s(1.059), s(0.009)),
        'sleep 0.3': latency(ms(309.8), ms(10.6)),
      },
      { average: 'mean' },
    );
    expectNothing('shell_hyperfine', 'shell/hyperfine/basic-seconds.txt', { average: 'median' });
  });
});

describe('Google Benchmark console output (cpp_google)', () => {
  const G = 1024 ** 3;
  it('reads rows with user counters, repetitions through their aggregates, and ns/us/ms/s', () => {
    expectExact('cpp_google', 'cpp/google/console.txt', {
      'BM_memcpy/64': {
        ...latency(5.61),
        bytes_per_second: { value: 31.5866 * G },
        items_per_second: { value: 529.935 * 1e6 },
      },
      'BM_memcpy/65536': {
        ...latency(3105),
        bytes_per_second: { value: 68.3471 * G },
        items_per_second: { value: 1.1198 * 1e6 },
      },
      // Three repetitions, then _mean, _median, _stddev and _cv (a percentage) rows: one benchmark.
      'BM_string_copy/repeats:3': latency(8.57, 1.81),
      'BM_sleep/50': {
        ...latency(us(222)),
        rate: { value: 36.4921 * 1000 },
        wakeups: { value: 2.888 * 1000 },
      },
      'BM_sleep/2000/iterations:20': {
        ...latency(ms(2.73)),
        rate: { value: 18.1183 * 1000 },
        wakeups: { value: 20 },
      },
      // Aggregates only (ReportAggregatesOnly): the mean row's counters.
      'BM_sleep/300000/iterations:4/repeats:3': {
        ...latency(s(0.301), s(0)),
        rate: { value: 8.20173 * 1000 },
        wakeups: { value: 4 },
      },
    });
  });

  it('reads --benchmark_repetitions runs, whose names carry no repeats:', () => {
    expectExact('cpp_google', 'cpp/google/console-repetitions-flag.txt', {
      'BM_memcpy/64': {
        ...latency(8.17, 0.787),
        bytes_per_second: { value: 39.7122 * G },
        items_per_second: { value: 666.26 * 1e6 },
      },
    });
  });

  it('reads IEC suffixes as powers of 1024 and plain ones as powers of 1000 (but bytes_per_second)', () => {
    const output = [
      'Benchmark        Time     CPU   Iterations UserCounters...',
      '----------------------------------------------------------',
      'BM_a          1.50 ns  1.50 ns  1000 bytes_per_second=2Gi/s items=3Ki frames_per_second=4M/s small=5m',
    ].join('\n');
    expect(selectAdapter(registry, 'cpp_google').parse(output, {})?.bmf).toEqual({
      BM_a: {
        ...latency(1.5),
        bytes_per_second: { value: 2 * G },
        items: { value: 3 * 1024 },
        frames_per_second: { value: 4 * 1e6 },
        small: { value: 5 * 0.001 },
      },
    });
  });

  it('needs the table header, and refuses median like the JSON reading', () => {
    expect(selectAdapter(registry, 'cpp_google').parse('BM_a  1.50 ns  1.50 ns  1000\n', {})).toBeNull();
    expectNothing('cpp_google', 'cpp/google/console.txt', { average: 'median' });
  });
});

describe('pytest-benchmark console table (python_pytest)', () => {
  it('reads several groups, thousands separators and (ratio) columns, ns and ms', () => {
    expectExact('python_pytest', 'python/pytest/table-groups.txt', {
      'test_sum[1]': latency(154.9849, 176.3098),
      'test_sum[100]': latency(1133.7559, 1555.4085),
      test_fib_10: latency(12592.6687, 16910.8568),
      test_fib_15: latency(174081.6329, 242235.0706),
      test_sleep_short: latency(ms(2.67), ms(1.2413)),
      test_sleep_long: latency(ms(1103.5208), ms(0.6099)),
    });
  });

  it('reads median ± IQR when asked', () => {
    expectExact(
      'python_pytest',
      'python/pytest/table-groups.txt',
      {
        'test_sum[1]': latency(78.0349, 6.3447),
        'test_sum[100]': latency(560.1335, 58.988),
        test_fib_10: latency(6089.87, 673.9),
        test_fib_15: latency(71769.9, 4959.5),
        test_sleep_short: latency(ms(2.1139), ms(0.703)),
        test_sleep_long: latency(ms(1103.5208), ms(0.8625)),
      },
      { average: 'median' },
    );
  });

  it('reads a coloured terminal capture in us and s', () => {
    expectExact('python_pytest', 'python/pytest/table-terminal.txt', {
      test_fib_10: latency(us(9.6056), us(17.1619)),
      test_sleep_long: latency(s(1.128), s(0.0336)),
    });
  });

  it('passes over the "Computing stats ..." progress joined to the table by carriage returns', () => {
    expectExact('python_pytest', 'python/pytest/computing-stats.txt', {
      'test_sum[1]': latency(61.6206, 77.8922),
      'test_sum[100]': latency(347.6828, 66.5134),
      test_fib_10: latency(7767.2811, 9333.8073),
    });
  });

  it('finds nothing when the columns of the requested average were not printed', () => {
    const output = [
      'Name (time in us)     Min       Max      Mean',
      '---------------------------------------------',
      'test_a            1.0 (1.0)  3.0 (1.0)  2.0 (1.0)',
      '---------------------------------------------',
    ].join('\n');
    expect(selectAdapter(registry, 'python_pytest').parse(output, {})).toBeNull();
  });
});

describe('Catch2 --benchmark-no-analysis (cpp_catch2)', () => {
  it('reads one row per benchmark: the mean, no bounds; wrapped test case and benchmark names', () => {
    const longCase =
      "Sleeping and a long test case name that needs more than one line of the console reporter's width to print";
    expectExact('cpp_catch2', 'cpp/catch2/no-analysis.txt', {
      'Fibonacci: fib 10': latency(58.4758),
      'Fibonacci: fib 20': latency(us(8.85887)),
      [`${longCase}: sleep 2 ms`]: latency(ms(2.13662)),
      [`${longCase}: vector push_back of many elements, named at length to wrap`]: latency(128.016),
      'Seconds: sleep 1.1 s': latency(s(1.11281)),
    });
    expectNothing('cpp_catch2', 'cpp/catch2/no-analysis.txt', { average: 'median' });
  });
});

describe("Node's console.time / timeEnd / timeLog (js_time)", () => {
  it('reads "label: 1.853ms", seconds, labels containing ": " and timeLog lines with data (the last reading wins)', () => {
    expectExact('js_time', 'js/time/node.txt', {
      parse: latency(ms(2.366)),
      // timeLog at 22.796ms with data, then timeEnd at 39.053ms.
      'db: insert 1000 rows': latency(ms(39.053)),
      default: latency(ms(0.003)),
      'slow step': latency(s(1.244)),
      loop: latency(ms(12.258)),
    });
  });

  it('reads minutes (m:ss.mmm) and hours (h:mm:ss.mmm), converted from seconds', () => {
    expectExact('js_time', 'js/time/node-minutes.txt', {
      'cache: warm': latency(s(1.505)),
      'nightly import': latency(s(60 + 1.289)),
    });
    expectExact('js_time', 'js/time/node-hours-handmade.txt', {
      migrate: latency(s(3600 + 2 * 60 + 3.456)),
      vacuum: latency(s(7200 + 0)),
    });
  });

  it('prefers the reading that ends the line, so a label may hold what looks like a time', () => {
    expect(selectAdapter(registry, 'js_time').parse('step: 2ms budget: 1.5ms\n', {})?.bmf).toEqual({
      'step: 2ms budget': latency(ms(1.5)),
    });
  });
});

describe('go test -json (go_bench)', () => {
  it('reads benchmark lines from the output events, a line split across two events included', () => {
    const zero = { 'B/op': { value: 0 }, 'allocs/op': { value: 0 } };
    expectExact('go_bench', 'go/bench/test-json.txt', {
      'BenchmarkFib10-2': { ...latency(241.3), ...zero },
      'BenchmarkJoin-2': {
        ...latency(46.18),
        'MB/s': { value: 64.96 },
        'B/op': { value: 5 },
        'allocs/op': { value: 1 },
      },
      'BenchmarkSizes/x-2': { ...latency(19.78), depth: { value: 5 }, ...zero },
      'BenchmarkSizes/xxx-2': { ...latency(13170), depth: { value: 15 }, ...zero },
    });
  });

  it('keeps packages tested in parallel apart', () => {
    const event = (pkg: string, text: string) =>
      JSON.stringify({ Action: 'output', Package: pkg, Output: text });
    const output = [
      event('a', 'BenchmarkA-2 \t'),
      event('b', 'BenchmarkB-2 \t 100\t 7 ns/op\n'),
      event('a', ' 200\t 5 ns/op\n'),
      '# a build line that is not an event',
    ].join('\n');
    expect(selectAdapter(registry, 'go_bench').parse(output, {})?.bmf).toEqual({
      'BenchmarkB-2': latency(7),
      'BenchmarkA-2': latency(5),
    });
  });
});
