import { expect } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import { bearer } from './accounts.js';
import type { TestApp } from './app.js';

/** The reports and benchmarks of the regression tests: 60 daily reports of six latency benchmarks. */
export const REPORTS = 60;
export const BENCHMARKS = Array.from({ length: 6 }, (_, i) => `bench_${i}`);
/** A t-test threshold on both sides, as the regression tests use it. */
export const T_TEST = { test: 't_test', lower_boundary: 0.99, upper_boundary: 0.99 };

/** The level of benchmark `name` at version `version` (1000 ns x the level, with 2% noise). */
export type Level = (name: string, version: number) => number;

/**
 * Posts `REPORTS` daily runs of `BENCHMARKS` on main / linux from 1 January 2026, one version each (numbered from
 * 0, each with its own hash), at the levels `level` gives with seeded 2% Gaussian noise, under `T_TEST` unless
 * `thresholds` is false; then waits for the analyses after each report.
 */
export async function postStepSeries(
  t: TestApp,
  token: string,
  project: string,
  level: Level,
  seed: number,
  thresholds = true,
): Promise<void> {
  const random = new Random(seed);
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let version = 0; version < REPORTS; version++) {
    const results = Object.fromEntries(
      BENCHMARKS.map((name) => [
        name,
        { latency: { value: 1000 * level(name, version) * (1 + 0.02 * random.normal()) } },
      ]),
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/run',
      headers: bearer(token),
      payload: {
        project,
        branch: 'main',
        testbed: 'linux',
        hash: (version + 1).toString(16).padStart(40, '0'),
        start_time: new Date(start + version * 86_400_000).toISOString(),
        end_time: new Date(start + version * 86_400_000 + 60_000).toISOString(),
        results: [JSON.stringify(results)],
        settings: { adapter: 'json' },
        ...(thresholds ? { thresholds: { models: { latency: T_TEST } } } : {}),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  await t.settled();
}
