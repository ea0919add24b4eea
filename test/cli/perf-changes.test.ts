import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { runCli, type CliResult } from './run-cli.js';

// Each test runs the real CLI against a real API process; the suite shares two cores with others.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let api: ApiServer;
let token: string;
const REPORTS = 30;
const STEP_AT = 18;
const hash = (n: number) => (0x100 + n).toString(16).padEnd(40, 'c');

function cli(args: readonly string[]): CliResult {
  return runCli(args, undefined, { env: { BENCHTRACK_HOST: api.url, BENCHTRACK_API_TOKEN: token } });
}

async function send(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

beforeAll(async () => {
  api = await startApiServer();
  const session = await api.signUp('Ada Lovelace', 'ada@example.com');
  token = session.token;
  await send(`/v0/organizations/${session.user.slug}/projects`, { name: 'Engine', slug: 'engine' });
  for (let n = 0; n < REPORTS; n++) {
    const value = (n < STEP_AT ? 200 : 150) + (((n * 37) % 11) / 5 - 1);
    await send('/v0/projects/engine/reports', {
      branch: 'main',
      hash: hash(n),
      testbed: 'ci',
      start_time: new Date(Date.UTC(2026, 0, 1 + n)).toISOString(),
      end_time: new Date(Date.UTC(2026, 0, 1 + n, 1)).toISOString(),
      results: [JSON.stringify({ parse: { latency: { value } } })],
      settings: { adapter: 'json' },
    });
  }
});
afterAll(async () => {
  await api?.close();
});

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

describe('benchtrack perf --changes', () => {
  it('prints the change points of each series as JSON, and as a table', () => {
    const json = cli(['perf', 'engine', ...selection, '--changes']);
    expect(json.status, json.stderr).toBe(0);
    const [series] = JSON.parse(json.stdout).results;
    expect(series.points).toBe(REPORTS);
    expect(series.change_points).toHaveLength(1);
    expect(series.change_points[0]).toMatchObject({ index: STEP_AT, version: { hash: hash(STEP_AT) } });
    const table = cli(['perf', 'engine', ...selection, '--changes', '--table', 'markdown']);
    expect(table.status, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\| Branch +\| Testbed +\| Benchmark +\| Measure +\| Index \| Version \| Hash/);
    expect(lines[2]).toMatch(
      /^\| main +\| ci +\| parse +\| Latency +\| +18 \| +\d+ \| 112ccccccccc \|.*\| +-2\d\.\d\d% \|/,
    );
    expect(lines.at(-1)).toBe('1 change point in 1 series');
  });

  it('passes the detector settings, and reports the API rule when one is out of range', () => {
    const strict = cli(['perf', 'engine', ...selection, '--changes', '--min-magnitude', '0.5']);
    expect(JSON.parse(strict.stdout).results[0].change_points).toEqual([]);
    const bad = cli(['perf', 'engine', ...selection, '--changes', '--max-pvalue', '2']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('querystring.max_pvalue: must be a number in (0, 1], got 2');
    const alone = cli(['perf', 'engine', ...selection, '--window-len', '30']);
    expect(alone.status).toBe(1);
    expect(alone.stderr).toContain('--max-pvalue, --min-magnitude and --window-len go with --changes');
  });
});
