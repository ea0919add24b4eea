import { expect } from 'vitest';
import { Random } from '../../bench/lib/random.js';
import { bearer, type Session } from './accounts.js';
import type { TestApp } from './app.js';

/** The level of benchmark `name` at version `version`: 1 is unchanged, 1.15 is 15% slower. */
export type Level = (name: string, version: number) => number;

export const T_TEST_BOTH = { test: 't_test', lower_boundary: 0.99, upper_boundary: 0.99 };

/**
 * Daily reports of latency benchmarks (1000 ns x their level, with 2% seeded Gaussian noise) on main and linux,
 * versions numbered from 0 with a hash each (`(version + 1)` in hex, 40 digits), under a t-test threshold on both
 * sides unless `thresholds` is false; waits until every report's regression analysis has run.
 */
export async function seedSteps(
  t: TestApp,
  session: Session,
  options: {
    project: string;
    benchmarks: readonly string[];
    level: Level;
    seed: number;
    reports?: number;
    thresholds?: boolean;
    start?: number;
  },
): Promise<void> {
  const random = new Random(options.seed);
  const start = options.start ?? Date.parse('2026-01-01T00:00:00Z');
  for (let version = 0; version < (options.reports ?? 60); version++) {
    const results = Object.fromEntries(
      options.benchmarks.map((name) => [
        name,
        { latency: { value: 1000 * options.level(name, version) * (1 + 0.02 * random.normal()) } },
      ]),
    );
    const response = await t.app.inject({
      method: 'POST',
      url: '/v0/run',
      headers: bearer(session.token),
      payload: {
        project: options.project,
        branch: 'main',
        testbed: 'linux',
        hash: stepHash(version),
        start_time: new Date(start + version * 86_400_000).toISOString(),
        end_time: new Date(start + version * 86_400_000 + 60_000).toISOString(),
        results: [JSON.stringify(results)],
        settings: { adapter: 'json' },
        ...(options.thresholds === false ? {} : { thresholds: { models: { latency: T_TEST_BOTH } } }),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  await t.settled();
}

/** The commit hash {@link seedSteps} gives version `version`. */
export const stepHash = (version: number) => (version + 1).toString(16).padStart(40, '0');
