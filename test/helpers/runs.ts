import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { bearer } from './accounts.js';
import type { TestApp } from './app.js';

export interface RunOptions {
  readonly project: string;
  readonly branch?: string;
  readonly testbed?: string;
  readonly start: Date;
  /** BMF: benchmark -> measure -> metric. */
  readonly results: Record<
    string,
    Record<string, { value: number; lower_value?: number; upper_value?: number }>
  >;
  readonly thresholds?: Record<string, unknown>;
}

/** Submits a run over HTTP, as `benchtrack run` does, and returns the report. */
export async function submitRun(api: string, token: string, run: RunOptions): Promise<{ uuid: string }> {
  const response = await fetch(`${api}/v0/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      project: run.project,
      branch: run.branch ?? 'main',
      testbed: run.testbed ?? 'linux',
      hash: randomBytes(20).toString('hex'),
      start_time: run.start.toISOString(),
      end_time: new Date(run.start.getTime() + 60_000).toISOString(),
      results: [JSON.stringify(run.results)],
      settings: { adapter: 'json' },
      ...(run.thresholds ? { thresholds: { models: run.thresholds } } : {}),
    }),
  });
  const body = await response.text();
  expect(response.status, body).toBe(201);
  return JSON.parse(body) as { uuid: string };
}

/**
 * A steady history of `days` daily runs of each benchmark, then a last run where `jump` benchmark is 60 %
 * slower: with a t-test threshold on latency, that last run raises one alert.
 */
export async function seedHistory(
  api: string,
  token: string,
  project: string,
  { benchmarks, days = 12, jump }: { benchmarks: readonly string[]; days?: number; jump?: string },
): Promise<{ last: { uuid: string } }> {
  const start = Date.now() - (days + 1) * 86_400_000;
  let last: { uuid: string } | undefined;
  for (let day = 0; day <= days; day++) {
    const results: RunOptions['results'] = {};
    benchmarks.forEach((name, k) => {
      const base = (k + 1) * 1000 * (1 + 0.01 * Math.sin(day));
      const value = day === days && name === jump ? base * 1.6 : base;
      results[name] = { latency: { value, lower_value: value * 0.98, upper_value: value * 1.02 } };
    });
    last = await submitRun(api, token, {
      project,
      start: new Date(start + day * 86_400_000),
      results,
      thresholds: { latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 } },
    });
  }
  return { last: last! };
}

/**
 * What a user sees of a project seeded with `seedHistory` (benchmarks parse and sort): its reports, alerts and
 * perf answer, each asserted 200. Two databases that answer the same here hold the same project.
 */
export async function projectAnswers(app: TestApp, token: string, project: string) {
  const get = async (url: string) => {
    const response = await app.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as unknown;
  };
  return {
    reports: await get(`/v0/projects/${project}/reports?per_page=255&expand=true`),
    alerts: await get(`/v0/projects/${project}/alerts?per_page=255`),
    perf: await get(
      `/v0/projects/${project}/perf?branches=main&testbeds=linux&benchmarks=parse,sort&measures=latency`,
    ),
  };
}
