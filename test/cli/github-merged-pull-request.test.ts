import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import { eventually } from '../helpers/eventually.js';
import { startApiServer, type ApiServer } from './api-server.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { runCliAsync } from './run-cli.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 240_000 });

/**
 * `benchtrack run --github-actions` on a push to main: the regression that 60 daily reports found (two of six
 * benchmarks 15% slower from v45 on) is told to the merged pull request that brought v45's commit, once.
 */
const BENCHMARKS = Array.from({ length: 6 }, (_, i) => `bench_${i}`);
const hashOf = (version: number) => (version + 1).toString(16).padStart(40, '0');
const random = new Random(7);

let api: ApiServer;
let github: FakeGitHub;
let token: string;
let pullRequestEvent: string;

function results(version: number): string {
  return JSON.stringify(
    Object.fromEntries(
      BENCHMARKS.map((name) => {
        const level = (name === 'bench_1' || name === 'bench_3') && version >= 45 ? 1.15 : 1;
        return [name, { latency: { value: 1000 * level * (1 + 0.02 * random.normal()) } }];
      }),
    ),
  );
}

const thresholds = { models: { latency: { test: 't_test', lower_boundary: 0.99, upper_boundary: 0.99 } } };

async function send(version: number): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z') + version * 86_400_000;
  const response = await fetch(`${api.url}/v0/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      project: 'engine',
      branch: 'main',
      testbed: 'linux',
      hash: hashOf(version),
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + 60_000).toISOString(),
      results: [results(version)],
      settings: { adapter: 'json' },
      thresholds,
    }),
  });
  expect(response.status, await response.text()).toBe(201);
}

/** `benchtrack run` of version `version` in a workflow of `event` (push or pull_request). */
function run(version: number, event: 'push' | 'pull_request') {
  return runCliAsync(
    [
      'run',
      '--project',
      'engine',
      '--branch',
      'main',
      '--testbed',
      'linux',
      '--hash',
      hashOf(version),
      '--adapter',
      'json',
      '--quiet',
      '--github-actions',
      'gh-token',
      ...['--threshold-measure', 'latency', '--threshold-test', 't_test'],
      ...['--threshold-lower-boundary', '0.99', '--threshold-upper-boundary', '0.99'],
    ],
    {
      input: results(version),
      env: {
        BENCHTRACK_HOST: api.url,
        BENCHTRACK_API_TOKEN: token,
        GITHUB_API_URL: github.url,
        GITHUB_REPOSITORY: 'acme/engine',
        GITHUB_SHA: hashOf(version),
        GITHUB_EVENT_NAME: event,
        ...(event === 'pull_request' ? { GITHUB_EVENT_PATH: pullRequestEvent } : {}),
      },
    },
  );
}

const regressionComments = (issue: number) =>
  github.comments.filter(
    (c) => c.issue === issue && c.body.startsWith('<div id="benchtrack.dev/regressions/'),
  );

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-merged-'));
  pullRequestEvent = join(dir, 'event.json');
  writeFileSync(
    pullRequestEvent,
    JSON.stringify({
      pull_request: {
        number: 7,
        head: { sha: hashOf(62), repo: { full_name: 'acme/engine' } },
        base: { repo: { full_name: 'acme/engine' } },
      },
    }),
  );
  [api, github] = await Promise.all([startApiServer(), startFakeGitHub('acme/engine')]);
  const session = await api.signUp('Ada Lovelace', 'ada@example.com');
  token = session.token;
  for (let version = 0; version < 60; version++) await send(version);
  // the change-point analysis runs after each report: wait until it confirmed the step
  await eventually(async () => {
    const response = await fetch(`${api.url}/v0/projects/engine/regressions?status=open&kind=regression`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await response.json()).toMatchObject([{ first_bad: { number: 45 } }]);
  }, 60_000);
  github.pulls.set(hashOf(45), [
    { number: 40, state: 'open', merged_at: null },
    { number: 41, state: 'closed', merged_at: '2026-02-15T10:00:00Z' },
  ]);
});
afterAll(async () => {
  await Promise.all([api?.close(), github?.close()]);
});

describe('benchtrack run --github-actions outside a pull request', () => {
  it('comments on the merged pull request of the first bad commit, once per regression', async () => {
    const first = await run(60, 'push');
    expect(first.status, first.stderr).toBe(0);
    expect(github.requests.some((r) => r.path === `/repos/acme/engine/commits/${hashOf(45)}/pulls`)).toBe(
      true,
    );
    const [comment] = regressionComments(41);
    expect(regressionComments(41)).toHaveLength(1);
    expect(comment?.body).toMatch(
      /^<div id="benchtrack\.dev\/regressions\/[0-9a-f-]{36}"><\/div>\n### Benchtrack: /,
    );
    expect(comment?.body).toContain('2 series changed between v44 and v45 (0000000)');
    expect(comment?.body).toMatch(/\| bench_1 \| Latency \| \+1\d\.\d% \|/);
    expect(comment?.body).toMatch(/\| bench_3 \| Latency \| \+1\d\.\d% \|/);
    expect(comment?.body).toMatch(
      /\[The regression in Benchtrack\]\(http:\/\/localhost:3000\/console\/projects\/engine\/regressions\/[0-9a-f-]{36}\)/,
    );
    // nothing on the open pull request, nor on the run's own (it has none)
    expect(github.comments.filter((c) => c.issue !== 41)).toEqual([]);

    const again = await run(61, 'push');
    expect(again.status, again.stderr).toBe(0);
    expect(regressionComments(41)).toHaveLength(1);
  });

  it('leaves merged pull requests alone in a pull request workflow', async () => {
    const before = github.requests.length;
    const result = await run(62, 'pull_request');
    expect(result.status, result.stderr).toBe(0);
    expect(github.requests.slice(before).some((r) => r.path.includes('/commits/'))).toBe(false);
    // it commented on its own pull request, as every run for one does
    expect(github.comments.filter((c) => c.issue === 7)).toHaveLength(1);
  });
});
