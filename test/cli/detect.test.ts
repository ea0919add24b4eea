import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectChangePoints } from '../../core/detection/detect.js';
import { runCli } from './run-cli.js';

const TIGERBEETLE = 'test/fixtures/detection/otava/tigerbeetle_365.json';

describe('benchtrack detect', () => {
  it('prints the change points of a file as JSON, with the settings given', () => {
    const { status, stdout, stderr } = runCli([
      'detect',
      '--format',
      'json',
      '--max-pvalue',
      '0.01',
      '--min-magnitude',
      '0.05',
      '--window-len',
      '30',
      TIGERBEETLE,
    ]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const { change_points: points } = JSON.parse(stdout) as {
      change_points: { index: number; before: number; after: number; change: number; p_value: number }[];
    };
    expect(points.map((p) => p.index)).toEqual([15, 71]);
    const values = (JSON.parse(readFileSync(TIGERBEETLE, 'utf8')) as { values: number[] }).values;
    const mean = (from: number, to: number) =>
      values.slice(from, to).reduce((s, v) => s + v, 0) / (to - from);
    expect(points[0]?.before).toBeCloseTo(mean(0, 15), 6);
    expect(points[0]?.after).toBeCloseTo(mean(15, 71), 6);
    expect(points[1]?.after).toBeCloseTo(mean(71, 365), 6);
    expect(points[1]?.change).toBeCloseTo(mean(71, 365) / mean(15, 71) - 1, 12);
    const detected = detectChangePoints(Float64Array.from(values), {
      max_pvalue: 0.01,
      min_magnitude: 0.05,
      window_len: 30,
    });
    expect(points.map((p) => p.p_value)).toEqual(detected.map((p) => p.pValue));
    expect(points[1]?.p_value).toBeLessThan(1e-8);
  });

  it('reads a bare array from stdin ("-" or no FILE) and prints a table by default', () => {
    const series = JSON.stringify([10, 10.2, 9.9, 10.1, 10, 12, 12.1, 11.9, 12.2, 12]);
    const table = runCli(['detect', '-'], series);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/│\s+5 │\s+10.04 │\s+12.04 │\s+\+19.92% │/);
    expect(table.stdout).toContain(
      '1 change point in 10 values (max_pvalue 0.0005, min_magnitude 0, window_len 50)',
    );
    const json = runCli(['detect', '--format', 'json'], series);
    expect(JSON.parse(json.stdout).change_points[0].index).toBe(5);
  });

  it.each([
    ['[1, 2, "x", 4, 5]', `benchtrack: the series' values[2] must be a finite number, got "x"`],
    ['[1, NaN, 3, 4]', 'benchtrack: the series is not JSON'],
    ['{"values": [1, 2, 3, 4, 5]}', 'benchtrack: the series must have at least 6 values to be split, got 5'],
  ])('rejects %s with exit code 1 and a message', (input, message) => {
    const { status, stdout, stderr } = runCli(['detect'], input);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.startsWith(message)).toBe(true);
  });

  it('rejects a setting out of its range, naming the option and the rule', () => {
    const { status, stderr } = runCli(['detect', '--window-len', '1', TIGERBEETLE]);
    expect(status).toBe(1);
    expect(stderr).toContain(
      "option '--window-len <points>' argument '1' is invalid. must be an integer from 3 to 1000, got 1",
    );
  });
});
