import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { runCliAsync } from './run-cli.js';

// Each test runs the real CLI several times (about a second each from source); the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const SHA = 'a'.repeat(40);
let api: ApiServer;
let github: FakeGitHub;
let dir: string;

function event(fork: boolean): string {
  const file = join(dir, fork ? 'fork.json' : 'event.json');
  writeFileSync(
    file,
    JSON.stringify({
      pull_request: {
        number: 7,
        head: { sha: SHA, repo: { full_name: fork ? 'someone/engine' : 'acme/engine' } },
        base: { repo: { full_name: 'acme/engine' } },
      },
    }),
  );
  return file;
}

function githubEnv(fork: boolean): NodeJS.ProcessEnv {
  return {
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'acme/engine',
    GITHUB_SHA: 'b'.repeat(40),
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event(fork),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
  };
}

function run(flags: readonly string[], input: string, { fork = false } = {}) {
  return runCliAsync(
    ['run', '--project', 'gh', '--adapter', 'json', '--quiet', '--github-actions', 'gh-token', ...flags],
    { input, env: { BENCHTRACK_HOST: api.url, ...githubEnv(fork) } },
  );
}

const thresholds = [
  '--threshold-measure',
  'latency',
  '--threshold-test',
  'percentage',
  '--threshold-upper-boundary',
  '0.5',
];
const bmf = (value: number) => `{"parse": {"latency": {"value": ${value}}}}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'benchtrack-gh-'));
  [api, github] = await Promise.all([startApiServer(), startFakeGitHub('acme/engine')]);
  // Other people's comments fill the first page, so the marker must be looked for on the next one.
  for (let i = 0; i < 120; i++) github.comments.push({ id: i + 1, body: `comment ${i}` });
});
afterAll(async () => {
  await Promise.all([api?.close(), github?.close()]);
});

describe('benchtrack run --github-actions', () => {
  it('opens a check run before running, completes it, writes the job summary and comments once', async () => {
    const result = await run(thresholds, bmf(10));
    expect(result.status, result.stderr).toBe(0);
    const [create, complete] = github.requests.filter((r) => r.path.includes('check-runs'));
    expect(create).toMatchObject({
      method: 'POST',
      authorization: 'Bearer gh-token',
      body: { name: 'Benchtrack Report (gh)', head_sha: SHA, status: 'in_progress' },
    });
    expect(complete?.body).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      output: { title: 'No alerts' },
    });
    expect(complete?.body.output.summary).toMatch(
      /<td><a href="http:\/\/localhost:3000\/perf\/gh\?branches=[^"]+">parse<\/a><\/td>/,
    );
    const ours = github.comments.filter((c) => c.body.startsWith('<div id="benchtrack.dev/projects/gh/id/'));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body).toContain('<div id="benchtrack.dev/projects/gh/id/main/linux/json"></div>');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('Benchtrack report: gh');
  });

  it('updates the same comment on the next run, and fails the check on an alert', async () => {
    for (const value of [11, 10]) expect((await run(thresholds, bmf(value))).status).toBe(0);
    const result = await run([...thresholds, '--error-on-alert'], bmf(100));
    expect(result.status).toBe(1);
    const ours = github.comments.filter((c) => c.body.startsWith('<div id="benchtrack.dev/projects/gh/'));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body).toContain('🚨 1 alert');
    const last = [...github.checkRuns.values()].at(-1);
    expect(last).toMatchObject({ conclusion: 'failure', output: { title: '1 alert' } });
    expect(
      github.requests.filter(
        (r) => r.method === 'PATCH' && r.path.startsWith('/repos/acme/engine/issues/comments/'),
      ),
    ).toHaveLength(3);
  });

  it('keeps one comment per --ci-id, honours --ci-only-on-alert, --ci-only-thresholds and --ci-no-metrics', async () => {
    const count = () => github.comments.filter((c) => c.body.startsWith('<div id="benchtrack.dev/')).length;
    expect((await run(['--ci-id', 'quiet', '--ci-only-on-alert', ...thresholds], bmf(10))).status).toBe(0);
    expect(count()).toBe(1);
    expect(
      (await run(['--ci-id', 'bare', '--ci-only-thresholds', '--testbed', 'other'], bmf(10))).status,
    ).toBe(0);
    expect(count()).toBe(1);
    expect((await run(['--ci-id', 'lean', '--ci-no-metrics', ...thresholds], bmf(10))).status).toBe(0);
    const lean = github.comments.find((c) => c.body.includes('/id/lean"'));
    expect(lean?.body).toContain('<th>Alert</th>');
    expect(lean?.body).not.toContain('<th>Value</th>');
  });

  it('cuts the check summary and the comment at 65,535 characters without breaking the markup', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [
        `benchmark number ${i} with a long descriptive name`,
        { latency: { value: i + 1 } },
      ]),
    );
    const result = await run(['--ci-id', 'big'], JSON.stringify(many));
    expect(result.status, result.stderr).toBe(0);
    const summary = [...github.checkRuns.values()].at(-1).output.summary as string;
    const comment = github.comments.find((c) => c.body.includes('/id/big"'))?.body ?? '';
    for (const text of [summary, comment]) {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(65_535);
      expect(Buffer.byteLength(text)).toBeGreaterThan(60_000);
      expect(text).toMatch(/<p>\d+ more results not shown here\.<\/p>/);
      for (const tag of ['table', 'tr', 'td', 'a', 'tbody']) {
        expect(text.split(`<${tag}>`).length + text.split(`<${tag} `).length - 1, tag).toBe(
          text.split(`</${tag}>`).length,
        );
      }
    }
  });

  it('completes the check run as failed when the benchmark fails before a report', async () => {
    const result = await runCliAsync(
      ['run', '--project', 'gh', '--quiet', '--github-actions', 'gh-token', '--ci-id', 'broken', 'exit 7'],
      { env: { ...githubEnv(false), BENCHTRACK_HOST: api.url } },
    );
    expect(result.status).toBe(1);
    const check = [...github.checkRuns.values()].at(-1);
    expect(check).toMatchObject({
      name: 'Benchtrack Report (broken)',
      status: 'completed',
      conclusion: 'failure',
    });
    expect(check.output.summary).toContain('the command `exit 7` exited with status 7');
  });

  it('warns and skips the check and comment for a pull request from a fork (read-only token)', async () => {
    const before = github.requests.length;
    const result = await run([], bmf(10), { fork: true });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('a pull request from a fork gets a read-only GITHUB_TOKEN');
    expect(github.requests.length).toBe(before);
  });
});
