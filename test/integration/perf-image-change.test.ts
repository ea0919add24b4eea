import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { submitRun } from '../helpers/runs.js';

// A perf image's legend gives each line's change from its baseline at its newest point: the figure the CLI prints.
let t: TestApp;
let ada: Session;
const P = '/v0/projects/legend';
const POINTS = 12;
const query = 'branches=main&testbeds=linux&benchmarks=decode,encode&measures=latency';

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Legend' });
  const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (let n = 0; n < POINTS; n++) {
    const last = n === POINTS - 1;
    await submitRun(api, ada.token, {
      project: 'legend',
      start: new Date(Date.UTC(2026, 0, 1 + n)),
      results: {
        decode: { latency: { value: (100 + (n % 3)) * (last ? 1.3 : 1) } },
        encode: { latency: { value: 300 + (n % 4) * 5 } },
      },
      thresholds: { latency: { test: 't_test', upper_boundary: 0.99 } },
    });
  }
});
afterAll(() => t.close());

/** The text content of every <text> element. */
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

describe('perf image legend', () => {
  it("shows each line's change from the baseline at its newest point, as the CLI writes it", async () => {
    const perf = await t.app.inject({ method: 'GET', url: `${P}/perf?${query}`, headers: bearer(ada.token) });
    expect(perf.statusCode, perf.body).toBe(200);
    const expected = (
      perf.json() as {
        results: {
          benchmark: { name: string };
          metrics: { metric: { value: number }; boundary: { baseline: number } | null }[];
        }[];
      }
    ).results.map(({ benchmark, metrics }) => {
      const newest = metrics[metrics.length - 1]!;
      const change =
        ((newest.metric.value - newest.boundary!.baseline) / Math.abs(newest.boundary!.baseline)) * 100;
      return `${benchmark.name}  ${change >= 0 ? '+' : ''}${change.toFixed(2)}%`;
    });
    expect(expected[0]).toMatch(/^decode {2}\+3\d\.\d\d%$/);

    const image = await t.app.inject({
      method: 'GET',
      url: `${P}/perf/img?${query}&format=svg`,
      headers: bearer(ada.token),
    });
    expect(image.statusCode, image.body).toBe(200);
    expect(texts(image.body)).toEqual(expect.arrayContaining(expected));
  });
});
