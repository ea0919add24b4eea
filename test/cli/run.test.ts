import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { runCli, runCliAsync } from './run-cli.js';

// Each test runs the real CLI several times (about a second each from source); the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

let api: ApiServer;
const env = () => ({ BENCHTRACK_HOST: api.url });

beforeAll(async () => {
  api = await startApiServer();
});
afterAll(async () => {
  await api?.close();
});

const thresholdFlags = [
  '--threshold-measure',
  'latency',
  '--threshold-test',
  'percentage',
  '--threshold-upper-boundary',
  '0.1',
  '--threshold-min-sample-size',
  '2',
];

describe('benchtrack mock | benchtrack run', () => {
  it('runs with thresholds until an alert fires, and --error-on-alert says so in the exit code', () => {
    const run = (seed: number, pow: number) =>
      runCli(['run', '--project', 'alerting', '--adapter', 'json', '--err', ...thresholdFlags], undefined, {
        env: env(),
        input: runCli(['mock', '--seed', String(seed), '--pow', String(pow)]).stdout,
      });
    for (const seed of [1, 2, 3]) {
      const quiet = run(seed, 1);
      expect(quiet.stderr).not.toContain('alert');
      expect(quiet.status).toBe(0);
      expect(quiet.stdout).toContain('benchtrack::mock_4');
    }
    // Ten times the history: every benchmark is far above its upper limit.
    const loud = run(4, 2);
    expect(loud.status).toBe(1);
    expect(loud.stderr).toContain('the report has 5 alerts (--error-on-alert)');
    expect(loud.stdout).toMatch(
      /│ benchtrack::mock_1 +│ Latency \(ns\) +│ +[\d.]+ │ +[\d.]+ │ +│ +[\d.]+ │ +\+\d+\.\d\d% │ above upper limit/,
    );
    expect(loud.stdout).toMatch(/5 alerts:\n {2}benchtrack::mock_0 Latency: [\d.]+ is above the upper limit/);
    expect(loud.stdout).toMatch(
      /http:\/\/localhost:3000\/console\/projects\/alerting\/alerts\/[0-9a-f-]{36}/,
    );
    expect(loud.stdout).toMatch(
      /View the report: http:\/\/localhost:3000\/console\/projects\/alerting\/reports\/[0-9a-f-]{36}/,
    );
  });

  it('prints the report as JSON with --format json, and exits 0 on alerts without --err', () => {
    const result = runCli(
      ['run', '--project', 'alerting', '--adapter', 'json', '--format', 'json', '--quiet', ...thresholdFlags],
      undefined,
      {
        env: env(),
        input: runCli(['mock', '--seed', '5', '--pow', '3']).stdout,
      },
    );
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.counts.alerts.total).toBe(5);
    expect(report.project.slug).toBe('alerting');
    expect(report.results[0]).toHaveLength(5);
    expect(result.stderr).toBe('');
  });
});

describe('benchtrack run', () => {
  it('runs a shell command --iter times, one iteration each, and a program directly with --exec', () => {
    const shell = runCli(
      [
        'run',
        '--project',
        'commands',
        '--iter',
        '3',
        '--format',
        'json',
        'echo "{\\"shell\\": {\\"latency\\": {\\"value\\": 7}}}"',
      ],
      undefined,
      { env: env() },
    );
    expect(shell.status, shell.stderr).toBe(0);
    const report = JSON.parse(shell.stdout);
    expect(report.results).toHaveLength(3);
    expect(report.results[2][0].benchmark.name).toBe('shell');
    // The command's output is echoed on stderr, not stdout.
    expect(shell.stderr).toContain('{"shell": {"latency": {"value": 7}}}');

    const exec = runCli(
      [
        'run',
        '--project',
        'commands',
        '--format',
        'json',
        '--exec',
        'node',
        '-e',
        'console.log(JSON.stringify({direct: {latency: {value: 1}}}))',
      ],
      undefined,
      { env: env() },
    );
    expect(exec.status, exec.stderr).toBe(0);
    expect(JSON.parse(exec.stdout).results[0][0].benchmark.name).toBe('direct');
  });

  it('tracks --build-time and --file-size as benchmarks of their own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'benchtrack-run-'));
    writeFileSync(join(dir, 'app.js'), 'x'.repeat(1234));
    const result = runCli(
      [
        'run',
        '--project',
        'build',
        '--build-time',
        '--file-size',
        join(dir, 'app.js'),
        '--format',
        'json',
        'sleep 0.2',
      ],
      undefined,
      { env: env() },
    );
    expect(result.status, result.stderr).toBe(0);
    const results = JSON.parse(result.stdout).results[0] as {
      benchmark: { name: string };
      measures: { measure: { slug: string }; metric: { value: number } }[];
    }[];
    const byName = new Map(results.map((r) => [r.benchmark.name, r.measures[0]]));
    expect(byName.get(join(dir, 'app.js'))?.metric.value).toBe(1234);
    expect(byName.get('sleep 0.2')?.measure.slug).toBe('build-time');
    expect(byName.get('sleep 0.2')?.metric.value).toBeGreaterThanOrEqual(0.2);
  });

  it('reads one iteration per --file, and folds them with --fold', () => {
    const tool = (file: string) =>
      `test/fixtures/adapters/bencher/tool_output/dart/benchmark_harness/${file}`;
    const flags = ['run', '--project', 'files', '--adapter', 'dart', '--format', 'json', '--quiet'];
    const files = ['--file', tool('one.txt'), '--file', tool('two.txt')];
    const iterations = runCli([...flags, ...files], undefined, { env: env() });
    expect(iterations.status, iterations.stderr).toBe(0);
    expect(JSON.parse(iterations.stdout).results).toHaveLength(2);
    const folded = runCli([...flags, ...files, '--fold', 'max'], undefined, { env: env() });
    expect(folded.status, folded.stderr).toBe(0);
    const results = JSON.parse(folded.stdout).results as { benchmark: { name: string } }[][];
    expect(results).toHaveLength(1);
    expect(results[0]?.map((r) => r.benchmark.name).sort()).toEqual(['ForLoop', 'Template']);
  });

  it('stops when the command fails, unless --allow-failure', () => {
    const failing = runCli(['run', '--project', 'commands', 'exit 3'], undefined, { env: env() });
    expect(failing.status).toBe(1);
    expect(failing.stderr).toContain(
      'the command `exit 3` exited with status 3; pass --allow-failure to skip failed iterations',
    );
    const flaky = runCli(
      [
        'run',
        '--project',
        'commands',
        '--iter',
        '2',
        '--allow-failure',
        '--format',
        'json',
        'test -e $MARK && echo \'{"b": {"latency": {"value": 2}}}\'; s=$?; touch $MARK; exit $s',
      ],
      undefined,
      {
        env: { ...env(), MARK: join(mkdtempSync(join(tmpdir(), 'benchtrack-mark-')), 'mark') },
      },
    );
    expect(flaky.status, flaky.stderr).toBe(0);
    expect(flaky.stderr).toContain('skipped (--allow-failure)');
    expect(JSON.parse(flaky.stdout).results).toHaveLength(1);
  });

  it('writes a self-contained HTML page with --format html', () => {
    const result = runCli(
      ['run', '--project', 'html', '--adapter', 'json', '--format', 'html', '--quiet'],
      undefined,
      {
        env: env(),
        input: '{"<script>alert(1)</script>": {"latency": {"value": 3}}}',
      },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(result.stdout).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(result.stdout).not.toMatch(/<script|<link|src=/);
    expect(result.stdout).toMatch(/<\/html>\n$/);
  });

  it('prints the run without sending it with --dry-run, with the git context and inline thresholds', () => {
    const result = runCli(
      [
        'run',
        '--dry-run',
        '--project',
        'p',
        '--branch',
        'feature',
        '--start-point',
        'main',
        '--start-point-clone-thresholds',
        '--threshold-measure',
        'latency',
        '--threshold-test',
        't_test',
        '--threshold-upper-boundary',
        '0.99',
        '--threshold-lower-boundary',
        '_',
        '--thresholds-reset',
        '--adapter',
        'json',
        '--backdate',
        '1700000000',
      ],
      '{"a": {"latency": {"value": 1}}}',
      { env: { BENCHTRACK_HOST: 'http://127.0.0.1:9' } },
    );
    expect(result.status, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({
      project: 'p',
      branch: 'feature',
      start_point: { branch: 'main', clone_thresholds: true },
      thresholds: { models: { latency: { test: 't_test', upper_boundary: 0.99 } }, reset: true },
      start_time: '2023-11-14T22:13:20.000Z',
      settings: { adapter: 'json' },
    });
    expect(body.thresholds.models.latency).not.toHaveProperty('lower_boundary');
    expect(body.context['benchtrack.dev/v0/branch/hash']).toMatch(/^[0-9a-f]{40}$/);
    expect(body.context['benchtrack.dev/v0/testbed/os']).toBe('Linux');
    expect(body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('creates the project from the git repository when --project is not given', async () => {
    const repo = join(mkdtempSync(join(tmpdir(), 'benchtrack-repo-')), 'my-app');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
        cwd: repo,
        encoding: 'utf8',
      }).trim();
    mkdirSync(repo);
    git('init', '-q', '-b', 'topic');
    git('commit', '-q', '--allow-empty', '-m', 'first');
    const result = await runCliAsync(['run', '--adapter', 'json', '--format', 'json', '--quiet'], {
      env: env(),
      input: '{"a": {"latency": {"value": 1}}}',
      cwd: repo,
    });
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.project.name).toBe('my-app');
    expect(report.branch.name).toBe('topic');
    expect(report.branch.head.version.hash).toBe(git('rev-parse', 'HEAD'));
    expect(report.testbed.name).toBe('Linux');
  });

  it.each([
    [['--no-hash'], '--no-hash is no longer supported: drop it'],
    [
      ['--branch-start-point', 'main'],
      '--branch-start-point is no longer supported: use --start-point <BRANCH>',
    ],
    [['--branch-reset'], '--branch-reset is no longer supported: use --start-point-reset'],
    [['--if-branch', 'x'], '--if-branch is no longer supported: use --branch <BRANCH>'],
    [['--else-if-branch', 'main'], '--else-if-branch is no longer supported: use --start-point <BRANCH>'],
    [['--html'], '--html is no longer supported: use --format html'],
  ])('fails on the deprecated %j, naming the flag to use', (flags, message) => {
    const result = runCli(['run', ...flags, '--dry-run', 'true'], undefined, { env: env() });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it('explains misaligned threshold groups and an empty input', () => {
    const groups = runCli([
      'run',
      '--dry-run',
      '--threshold-measure',
      'a',
      '--threshold-measure',
      'b',
      '--threshold-test',
      't_test',
      'true',
    ]);
    expect(groups.status).toBe(1);
    expect(groups.stderr).toContain(
      'give one --threshold-test per --threshold-measure (got 1 tests for 2 measures)',
    );
    const empty = runCli(['run', '--dry-run']);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('nothing to run: pass a benchmark command');
  });

  it('says where it tried to connect and what to do when the API is not there', () => {
    const result = runCli(['run', '--attempts', '2', '--retry-after', '0.05', 'true'], undefined, {
      env: { BENCHTRACK_HOST: 'http://127.0.0.1:9' },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('retrying in 0.05 s (attempt 2 of 2)');
    expect(result.stderr).toContain('cannot reach the API at http://127.0.0.1:9');
    expect(result.stderr).toContain('start a local server with `benchtrack up`');
  });
});
