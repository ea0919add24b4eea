import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ENGINE_LATENCIES,
  ENGINE_RUN,
  parseLatency,
  startResourcesApi,
  type ResourcesApi,
} from './resources-api.js';
import { runCli } from './run-cli.js';

// resources.test.ts's perf, plots, server and help, on an API of their own, so the two files run at once. Each
// test runs the real CLI several times; the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let resources: ResourcesApi;
const cli: ResourcesApi['cli'] = (args, input) => resources.cli(args, input);
const json: ResourcesApi['json'] = (args, input) => resources.json(args, input);

// The project resources.test.ts builds before its perf: Engine, with the runs 10, 11, 10 and 100 (an alert) of parse
// on main and ci, under a percentage threshold.
beforeAll(async () => {
  resources = await startResourcesApi();
  resources.token = json(['token', 'create', '--name', 'ci']).token;
  json(['project', 'create', resources.org, '--name', 'Engine', '--slug', 'engine']);
  for (const value of ENGINE_LATENCIES) json(ENGINE_RUN, parseLatency(value));
});
afterAll(async () => {
  await resources?.api.close();
});

describe('perf and plots', () => {
  const selection = [
    '--branches',
    'main',
    '--testbeds',
    'ci',
    '--benchmarks',
    'parse',
    '--measures',
    'latency',
  ];

  it('queries the history as JSON, tables in several styles, CSV and a PNG', () => {
    const perf = json(['perf', 'engine', ...selection]);
    expect(perf.results[0].metrics.map((m: { metric: { value: number } }) => m.metric.value)).toEqual([
      10, 11, 10, 100,
    ]);
    const markdown = cli(['perf', 'engine', ...selection, '--table', 'markdown'])
      .stdout.trimEnd()
      .split('\n');
    expect(markdown).toHaveLength(6);
    expect(markdown[0]).toMatch(
      /^\| Project \| Branch \| Testbed \| Benchmark \| Measure \| Iteration \| Start Time .*\| Upper Boundary Limit \|$/,
    );
    expect(markdown[5]).toMatch(/^\| Engine +\| main +\| ci +\| parse +\| Latency +\| +0 \|.*\| +100 \|/);
    const ascii = cli(['perf', 'engine', ...selection, '--table']).stdout.split('\n');
    expect(ascii[0]).toMatch(/^\+-+\+/);
    expect(cli(['perf', 'engine', ...selection, '--table', 'rounded']).stdout).toMatch(/^╭─+┬/);
    expect(cli(['perf', 'engine', ...selection, '--csv']).stdout).toMatch(
      /^branch,testbed,benchmark,measure,/,
    );
    const png = join(resources.api.dir, 'perf.png');
    expect(cli(['perf', 'engine', ...selection, '--image', png, '--title', 'Parse']).status).toBe(0);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    const bad = cli(['perf', 'engine', ...selection, '--table', 'fancy']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('Allowed choices are ascii, ascii_rounded, modern');
  });

  it('pins, lists, updates, renders and unpins plots', () => {
    const plot = json([
      'plot',
      'create',
      'engine',
      '--title',
      'Parse',
      '--window',
      '2592000',
      ...selection,
      '--upper-boundary',
    ]);
    expect(plot).toMatchObject({ title: 'Parse', upper_boundary: true, x_axis: 'date_time', index: 0 });
    expect(json(['plot', 'list', 'engine']).map((p: { uuid: string }) => p.uuid)).toEqual([plot.uuid]);
    const updated = json(['plot', 'update', 'engine', plot.uuid, '--title', '_', '--y-axis', 'log']);
    expect(updated).toMatchObject({ title: null, y_axis: 'log' });
    const png = join(resources.api.dir, 'plot.png');
    expect(cli(['plot', 'view', 'engine', plot.uuid, '--image', png]).stdout).toMatch(
      /^Wrote .*plot\.png \(\d+ bytes\)\.$/m,
    );
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    expect(cli(['plot', 'delete', 'engine', plot.uuid]).stdout).toBe(`Deleted plot ${plot.uuid}.\n`);
    expect(json(['plot', 'list', 'engine'])).toEqual([]);
  });
});

describe('server', () => {
  it('prints its version (the same as the client: no warning), spec and configuration, strictly parsed', () => {
    const version = cli(['server', 'version', '--strict']);
    expect(JSON.parse(version.stdout).version).toMatch(/^\d+\.\d+\.\d+/);
    expect(version.stderr).toBe('');
    expect(json(['server', 'spec']).openapi).toMatch(/^3\./);
    expect(json(['server', 'config', 'view']).security.secret_key).toBe('************');
    expect(json(['server', 'config', 'console']).url).toBe('http://localhost:3000');
    expect(cli(['project', 'list', '--strict']).status).toBe(0);
  });

  it('updates the configuration from stdin', () => {
    const config = json(['server', 'config', 'view']);
    config.console.url = 'http://console.example.com';
    expect(json(['server', 'config', 'update'], JSON.stringify(config)).console.url).toBe(
      'http://console.example.com',
    );
    expect(json(['server', 'config', 'console']).url).toBe('http://console.example.com');
  });
});

describe('help', () => {
  it.each([
    ['branch', 'view'],
    ['threshold', 'create'],
    ['alert', 'dismiss'],
    ['server', 'config', 'update'],
    ['archive'],
  ])('shows examples for %s', (...command) => {
    const help = runCli([...command, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`Examples:\\n {2}benchtrack ${command[0]} `));
    expect(help.stdout).toContain('--host <url>');
  });
});
