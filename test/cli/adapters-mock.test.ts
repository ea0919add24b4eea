import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('benchtrack', () => {
  it('lists its commands', () => {
    const { status, stdout } = runCli(['--help']);
    expect(status).toBe(0);
    for (const command of ['parse', 'adapters', 'mock'])
      expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it('prints its version', () => {
    expect(runCli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('benchtrack adapters', () => {
  it('lists ids, aliases, what each reads, the groups and magic', () => {
    const { status, stdout } = runCli(['adapters']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^shell_hyperfine +hyperfine command benchmarks \(aliases: hyperfine\)$/m);
    expect(stdout).toMatch(/aliases: rust_iai_callgrind, iai_callgrind/);
    expect(stdout).toMatch(/^ +reads: go test -bench text/m);
    expect(stdout).toContain('rust     rust_bench -> rust_criterion -> rust_iai -> rust_gungraun');
    expect(stdout).toContain('magic (the default) tries: json -> c_sharp -> cpp');
  });

  it('prints JSON with --json', () => {
    const { status, stdout } = runCli(['adapters', '--json']);
    expect(status).toBe(0);
    const json = JSON.parse(stdout) as { adapters: { id: string; aliases: string[] }[]; magic: string[] };
    expect(json.adapters).toHaveLength(20);
    expect(json.adapters.find((a) => a.id === 'rust_iai')?.aliases).toEqual(['iai']);
    expect(json.magic[0]).toBe('json');
  });
});

describe('benchtrack mock', () => {
  it('prints five latency benchmarks by default, values in [10c, 10(c+1)) with 0.9x/1.1x bounds', () => {
    const { status, stdout } = runCli(['mock']);
    expect(status).toBe(0);
    const bmf = JSON.parse(stdout) as Record<
      string,
      Record<string, { value: number; lower_value: number; upper_value: number }>
    >;
    expect(Object.keys(bmf)).toEqual([0, 1, 2, 3, 4].map((c) => `benchtrack::mock_${c}`));
    Object.values(bmf).forEach((measures, c) => {
      expect(Object.keys(measures)).toEqual(['latency']);
      const { value, lower_value, upper_value } = measures.latency as {
        value: number;
        lower_value: number;
        upper_value: number;
      };
      expect(value).toBeGreaterThanOrEqual(10 * c);
      expect(value).toBeLessThan(10 * (c + 1));
      expect(lower_value).toBe(value * 0.9);
      expect(upper_value).toBe(value * 1.1);
    });
  });

  it('is reproducible with --seed and honours --count, --measure (repeatable) and --pow', () => {
    const args = [
      'mock',
      '--seed',
      '6',
      '--count',
      '3',
      '--measure',
      'latency',
      '--measure',
      'throughput',
      '--pow',
      '3',
    ];
    const first = runCli(args);
    expect(first.status).toBe(0);
    expect(runCli(args).stdout).toBe(first.stdout);
    const bmf = JSON.parse(first.stdout) as Record<string, Record<string, { value: number }>>;
    expect(Object.keys(bmf)).toHaveLength(3);
    expect(Object.keys(bmf['benchtrack::mock_2'] ?? {})).toEqual(['latency', 'throughput']);
    expect(bmf['benchtrack::mock_2']?.throughput?.value).toBeGreaterThanOrEqual(2000);
    expect(runCli(['mock', '--seed', '7', '--count', '3']).stdout).not.toBe(
      runCli(['mock', '--seed', '6', '--count', '3']).stdout,
    );
  });

  it('exits 1 after printing with --fail', () => {
    const { status, stdout, stderr } = runCli(['mock', '--fail', '--count', '1']);
    expect(status).toBe(1);
    expect(Object.keys(JSON.parse(stdout))).toEqual(['benchtrack::mock_0']);
    expect(stderr).toContain('--fail');
  });

  it('fails half of the time with --flaky, the same way for the same seed', () => {
    // Seeds 1 and 2 land on different sides of the coin (see cli/lib/mock-bmf.test.ts).
    expect(runCli(['mock', '--flaky', '--seed', '1']).status).toBe(1);
    expect(runCli(['mock', '--flaky', '--seed', '2']).status).toBe(0);
  });

  it('rejects bad numbers', () => {
    const { status, stderr } = runCli(['mock', '--count', '-1']);
    expect(status).toBe(1);
    expect(stderr).toContain("option '--count <count>' argument '-1' is invalid");
  });
});
