import { postRun } from './post-run.js';
import { Random } from './random.js';

export const CONSOLE_SERIES = 255;
export const CONSOLE_POINTS = 100;
export const CONSOLE_PROJECT = 'console-bench';

/**
 * The console benches' project: 255 benchmarks x 100 daily reports of one measure with a t-test threshold, so
 * every point has boundaries (the perf API's largest selection), posted through the API.
 */
export async function seedConsoleProject(api: string): Promise<void> {
  const random = new Random(10);
  const start = Date.now() - (CONSOLE_POINTS + 1) * 86_400_000;
  const level = Array.from({ length: CONSOLE_SERIES }, (_, i) => 1000 + i * 10);
  for (let day = 0; day < CONSOLE_POINTS; day++) {
    const bmf: Record<string, { latency: { value: number } }> = {};
    level.forEach((base, i) => {
      level[i] = base * (1 + (random.next() - 0.5) * 0.02);
      bmf[`bench-${String(i).padStart(3, '0')}`] = { latency: { value: level[i]! } };
    });
    const at = new Date(start + day * 86_400_000);
    await postRun(api, {
      project: CONSOLE_PROJECT,
      branch: 'main',
      testbed: 'bench',
      start_time: at.toISOString(),
      end_time: new Date(at.getTime() + 60_000).toISOString(),
      results: [JSON.stringify(bmf)],
      settings: { adapter: 'json' },
      thresholds: { models: { latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 32 } } },
    });
  }
}

/** The query of the explorer opened on every series of the project (branches, testbeds, ... by UUID). */
export async function consoleSelection(api: string): Promise<string> {
  const uuids = async (kind: string) => {
    const response = await fetch(`${api}/v0/projects/${CONSOLE_PROJECT}/${kind}?per_page=255`);
    return ((await response.json()) as { uuid: string }[]).map((d) => d.uuid).join(',');
  };
  const [branches, testbeds, benchmarks, measures] = await Promise.all(
    ['branches', 'testbeds', 'benchmarks', 'measures'].map(uuids),
  );
  return `branches=${branches}&testbeds=${testbeds}&benchmarks=${benchmarks}&measures=${measures}`;
}
