import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const tool = (path: string) => `test/fixtures/adapters/bencher/tool_output/${path}`;

describe('benchtrack parse', () => {
  it('prints the BMF of a file', () => {
    const { status, stdout, stderr } = runCli([
      'parse',
      '--adapter',
      'rust_bench',
      tool('rust/bench/one.txt'),
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      'tests::benchmark': { latency: { value: 3161, lower_value: 2186, upper_value: 4136 } },
    });
    expect(stdout).toContain('\n  "tests::benchmark": {\n');
  });

  it('reads stdin when no file is given, and auto-detects by default (magic)', () => {
    const { status, stdout } = runCli(['parse'], 'Template(RunTime): 1.0 us.\n');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ Template: { latency: { value: 1000 } } });
  });

  it('accepts aliases, groups and --average', () => {
    const { status, stdout } = runCli([
      'parse',
      '-a',
      'hyperfine',
      '--average',
      'median',
      tool('shell/hyperfine/two.json'),
    ]);
    expect(status).toBe(0);
    expect(JSON.parse(stdout)['sleep 0.1'].latency.lower_value).toBe(102474685.72);
  });

  it('prints one document per file as an array, or one folded document with --fold', () => {
    const files = [tool('dart/benchmark_harness/one.txt'), tool('dart/benchmark_harness/two.txt')];
    const iterations = runCli(['parse', '--adapter', 'dart', ...files]);
    expect(iterations.status).toBe(0);
    expect(JSON.parse(iterations.stdout)).toEqual([
      { Template: { latency: { value: 1000 } } },
      { Template: { latency: { value: 1000 } }, ForLoop: { latency: { value: 2000 } } },
    ]);
    const folded = runCli(['parse', '--adapter', 'dart', '--fold', 'mean', ...files]);
    // The mean divides by the number of iterations, even for a benchmark missing from one of them.
    expect(JSON.parse(folded.stdout)).toEqual({
      Template: { latency: { value: 1000 } },
      ForLoop: { latency: { value: 1000 } },
    });
  });

  it('exits 1 naming the adapter when no benchmarks are found', () => {
    const { status, stdout, stderr } = runCli([
      'parse',
      '--adapter',
      'rust_bench',
      tool('rust/criterion/many.txt'),
    ]);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('benchtrack: no benchmarks found by adapter "rust_bench"');
  });

  it('says why the average is refused', () => {
    const { status, stderr } = runCli([
      'parse',
      '--adapter',
      'rust_bench',
      '--average',
      'mean',
      tool('rust/bench/one.txt'),
    ]);
    expect(status).toBe(1);
    expect(stderr).toContain('with average "mean"');
  });

  it('explains invalid BMF path by path for the json adapter', () => {
    const { status, stderr } = runCli(
      ['parse', '--adapter', 'json'],
      '{"sort/1000": {"latency": {"value": "fast"}}}',
    );
    expect(status).toBe(1);
    expect(stderr).toContain('benchmark "sort/1000" measure "latency": value must be a finite number');
  });

  it.each([
    [['parse', '--adapter', 'nope'], /unknown adapter "nope"; use one of: json, .*magic/],
    [['parse', '--average', 'mode'], /argument 'mode' is invalid\. Allowed choices are mean, median/],
    [['parse', '--fold', 'sum'], /Allowed choices are min, max, mean, median/],
    [['parse', '--adapter', 'json', 'missing.json'], /cannot read missing\.json: no such file/],
  ])('rejects %j with exit 1', (args, message) => {
    const { status, stderr } = runCli(args, '{}');
    expect(status).toBe(1);
    expect(stderr).toMatch(message);
  });

  it('loads a third-party adapter with --plugin', () => {
    const { status, stdout } = runCli(
      ['parse', '--plugin', './test/fixtures/plugins/custom-adapter.js', '--adapter', 'csv_metrics'],
      'sort/1000,latency,1532,1490,1601\n',
    );
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      'sort/1000': { latency: { value: 1532, lower_value: 1490, upper_value: 1601 } },
    });
  });

  it('documents itself with examples', () => {
    const { status, stdout } = runCli(['parse', '--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('Usage: benchtrack parse [options] [FILE...]');
    expect(stdout).toContain('cargo bench | benchtrack parse --adapter rust_bench');
  });
});
