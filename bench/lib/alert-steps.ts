import { postRun } from './post-run.js';
import { Random } from './random.js';

/**
 * The console's triage scenario: 40 latency benchmarks x 60 daily reports with 2% noise under a two-sided t-test
 * threshold, every benchmark 20% slower from version 40 (a few hundred alerts), ending yesterday.
 */
export const ALERT_STEPS = { reports: 60, benchmarks: 40, step: 40 } as const;

/** Seeds {@link ALERT_STEPS} into `project` (created by its first run) through `POST /v0/run`. */
export async function seedAlertSteps(api: string, project: string): Promise<void> {
  const { reports, benchmarks, step } = ALERT_STEPS;
  const random = new Random(11);
  const start = Date.now() - (reports + 1) * 86_400_000;
  for (let version = 0; version < reports; version++) {
    const level = version >= step ? 1.2 : 1;
    const results = Object.fromEntries(
      Array.from({ length: benchmarks }, (_, b) => [
        `bench-${b}`,
        { latency: { value: 1000 * level * (1 + 0.02 * random.normal()) } },
      ]),
    );
    const at = new Date(start + version * 86_400_000);
    await postRun(api, {
      project,
      branch: 'main',
      testbed: 'bench',
      hash: (version + 1).toString(16).padStart(40, '0'),
      start_time: at.toISOString(),
      end_time: new Date(at.getTime() + 60_000).toISOString(),
      results: [JSON.stringify(results)],
      settings: { adapter: 'json' },
      thresholds: { models: { latency: { test: 't_test', lower_boundary: 0.99, upper_boundary: 0.99 } } },
    });
  }
}
