import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApiServer, type ApiServer } from './api-server.js';
import { ROOT, runCliAsync } from './run-cli.js';

// Each test runs the real CLI several times (about a second each from source); the whole suite shares two cores.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

interface Expected {
  readonly adapter: string;
  readonly settings: Record<string, unknown>;
  readonly invalid: boolean;
  readonly expect: Record<string, Record<string, { value: number }>>;
}

const FIXTURES = `${ROOT}test/fixtures/adapters/bencher/`;
const expected = JSON.parse(readFileSync(`${FIXTURES}EXPECTED.json`, 'utf8')) as Record<string, Expected>;

/** A benchmark key that is a UUID names an existing benchmark, which a fresh project does not have. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-/;

/** One valid fixture per adapter, parsed with default settings. */
const cases = new Map<string, [string, Expected]>();
for (const [file, entry] of Object.entries(expected)) {
  const fresh = !Object.keys(entry.expect).some((key) => UUID.test(key));
  if (fresh && !entry.invalid && Object.keys(entry.settings).length === 0 && !cases.has(entry.adapter)) {
    cases.set(entry.adapter, [file, entry]);
  }
}
// rust_gungraun tries its JSON reader, then its text reader: the text fixture exercises both.
const gungraun = cases.get('rust_gungraun_stdout');
if (gungraun) cases.set('rust_gungraun', gungraun);

let api: ApiServer;
beforeAll(async () => {
  api = await startApiServer();
});
afterAll(async () => {
  await api?.close();
});

describe('benchtrack run --file, for every adapter', () => {
  it('has a fixture for each of the 20 adapters', () => {
    expect(cases.size).toBe(20);
  });

  it.each([...cases.entries()])('%s', async (adapter, [file, entry]) => {
    const result = await runCliAsync(
      [
        'run',
        '--project',
        'adapters',
        '--adapter',
        adapter,
        '--file',
        `${FIXTURES}${file}`,
        '--format',
        'json',
      ],
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
    expect(report.adapter).toBe(adapter);
    const stored = new Map(
      (report.results[0] ?? []).flatMap((r) =>
        r.measures.flatMap((m) => [
          [`${r.benchmark.name} ${m.measure.slug}`, m.metric.value],
          // A measure the project does not know is created under the name the output gives.
          [`${r.benchmark.name} ${m.measure.name}`, m.metric.value],
        ]),
      ),
    );
    for (const [benchmark, measures] of Object.entries(entry.expect)) {
      for (const [measure, metric] of Object.entries(measures)) {
        expect(stored.get(`${benchmark} ${measure}`), `${benchmark} ${measure}`).toBeCloseTo(metric.value, 6);
      }
    }
  });
});
