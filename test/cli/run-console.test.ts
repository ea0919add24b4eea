import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { ROOT, runCliAsync } from './run-cli.js';

// Each case runs the real CLI from source against a real API server; the machine is shared.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const CONSOLE = `${ROOT}test/fixtures/adapters/console/`;

let api: ApiServer;
beforeAll(async () => {
  api = await startApiServer();
});
afterAll(async () => {
  await api?.close();
});

/** Console output that `benchtrack run` answered with "no benchmarks found" before it was read. */
describe('benchtrack run --file with console output, adapter left to magic', () => {
  it.each([
    ['shell/hyperfine/basic-seconds.txt', 'sleep 0.3', 'latency', 309.8 * 1e6],
    ['cpp/google/console.txt', 'BM_memcpy/64', 'items_per_second', 529.935 * 1e6],
    ['python/pytest/computing-stats.txt', 'test_fib_10', 'latency', 7767.2811],
    ['js/time/node.txt', 'db: insert 1000 rows', 'latency', 39.053 * 1e6],
  ])('%s', async (file, benchmark, measure, value) => {
    const result = await runCliAsync(
      ['run', '--project', 'console', '--file', `${CONSOLE}${file}`, '--format', 'json'],
      { env: { BENCHTRACK_HOST: api.url } },
    );
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as {
      adapter: string;
      results: {
        benchmark: { name: string };
        measures: { measure: { slug: string; name: string }; metric: { value: number } }[];
      }[][];
    };
    expect(report.adapter).toBe('magic');
    const found = (report.results[0] ?? [])
      .find((r) => r.benchmark.name === benchmark)
      ?.measures.find((m) => m.measure.slug === measure || m.measure.name === measure);
    expect(found?.metric.value, `${benchmark} ${measure}`).toBe(value);
  });
});
