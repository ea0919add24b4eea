import { expect } from 'vitest';
import { bearer } from './accounts.js';
import type { TestApp } from './app.js';

/** A commit hash for job bodies (the API does not check that it exists). */
export const HASH = 'a'.repeat(40);

export interface CreatedRunner {
  readonly uuid: string;
  readonly slug: string;
  readonly key: string;
  readonly organization: string | null;
}

/** Creates a runner as `token`'s user (a server administrator, or a leader with `organization`). */
export async function createRunner(
  t: TestApp,
  token: string,
  body: { name: string; specs: string[]; organization?: string },
): Promise<CreatedRunner> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v0/runners',
    headers: bearer(token),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The body of a queued job: `sh bench.sh` of a repository at HASH, reported as JSON results on main. */
export function jobBody(spec: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    spec,
    repository: 'https://example.com/bench.git',
    hash: HASH,
    command: ['sh bench.sh'],
    branch: 'main',
    settings: { adapter: 'json' },
    ...extra,
  };
}

export async function queueJob(
  t: TestApp,
  token: string,
  project: string,
  body: Record<string, unknown>,
): Promise<{ uuid: string; state: string }> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/projects/${project}/jobs`,
    headers: bearer(token),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A runner's calls, with its key. */
export function runnerCalls(t: TestApp, runner: { slug: string }, key: () => string) {
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(key()), payload });
  return {
    claim: (wait = 0) => post(`/v0/runners/${runner.slug}/claim`, { wait }),
    heartbeat: (job: string, payload: object) =>
      post(`/v0/runners/${runner.slug}/jobs/${job}/heartbeat`, payload),
    finish: (job: string, payload: object) => post(`/v0/runners/${runner.slug}/jobs/${job}/finish`, payload),
    report: (project: string, job: { uuid: string; attempt: number; spec: string }, value = 1) =>
      post(`/v0/projects/${project}/reports`, {
        branch: 'main',
        testbed: job.spec,
        start_time: '2026-01-01T00:00:00.000Z',
        end_time: '2026-01-01T00:00:01.000Z',
        results: [JSON.stringify({ bench: { latency: { value } } })],
        settings: { adapter: 'json' },
        job: { uuid: job.uuid, attempt: job.attempt },
      }),
  };
}
