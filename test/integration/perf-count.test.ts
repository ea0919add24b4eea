import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERF_POINTS_MAX, type ReadRepositories, type Storage } from '../../core/index.js';
import { metricColumns } from '../../kit/testing/storage/fixtures.js';
import { createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { submitRun } from '../helpers/runs.js';

/**
 * An oversized perf query is refused by its one capped read: the database stops scanning one past the cap and never
 * orders (nor joins to reports and alerts) a selection that cannot be answered; a count that stops at the first
 * point tells the refusal from an empty selection. The series holds three times the cap.
 */

const REPORTS = 30;
const ITERATIONS = 5_000;
const P = '/v0/projects/count-first';

let t: TestApp;
let ada: Session;
let series: number;
let head: number;

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Count First' });
  const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const first = await submitRun(api, ada.token, {
    project: 'count-first',
    start: new Date('2026-01-01T00:00:00Z'),
    results: { hot: { latency: { value: 1 } } },
  });
  // the rest straight through the storage contract, at the first report's version: ingest through HTTP would
  // take minutes for 150,000 points
  await t.storage.transaction(async (tx) => {
    const report = (await tx.reports.find({ uuid: first.uuid }))!;
    series = (await tx.metrics.byReports([report.id]))[0]!.series_id;
    head = report.head_id;
    for (let k = 1; k <= REPORTS; k++) {
      const start = report.start_time.getTime() + k * 3_600_000;
      const { id: _first, ...fields } = report;
      const stored = await tx.reports.insert({
        ...fields,
        uuid: crypto.randomUUID(),
        start_time: new Date(start),
        end_time: new Date(start + 60_000),
        created: new Date(start + 60_000),
      });
      const points = Array.from({ length: ITERATIONS }, (_, iteration) => ({
        series,
        iteration,
        value: k + iteration / ITERATIONS,
      }));
      await tx.metrics.append(stored, metricColumns(points));
    }
  });
}, 300_000);
afterAll(() => t?.close());

/** Calls of the metric reads the service makes through `storage.read` while `fn` runs, by name. */
async function metricReads(storage: Storage, fn: () => Promise<unknown>): Promise<string[]> {
  const calls: string[] = [];
  const read = storage.read;
  const observed = (r: ReadRepositories): ReadRepositories => ({
    ...r,
    metrics: new Proxy(r.metrics, {
      get(metrics, name, receiver) {
        const value: unknown = Reflect.get(metrics, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(name));
          return Reflect.apply(value, metrics, args);
        };
      },
    }),
  });
  storage.read = <T>(
    inside: (repos: ReadRepositories) => Promise<T>,
    options?: Parameters<Storage['read']>[1],
  ): Promise<T> => read.call(storage, (r) => inside(observed(r)), options) as Promise<T>;
  try {
    await fn();
  } finally {
    storage.read = read;
  }
  return calls;
}

const query = `branches=main&testbeds=linux&benchmarks=hot&measures=latency`;

describe('a perf query over more than the cap', () => {
  it('is refused after the capped read and a count of one point, for the answer and the image', async () => {
    const answer = await metricReads(t.storage, async () => {
      const response = await t.app.inject({ url: `${P}/perf?${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(`more than ${PERF_POINTS_MAX} points`);
    });
    expect(answer).toEqual(['perf', 'perfCount']);
    const image = await metricReads(t.storage, async () => {
      const response = await t.app.inject({ url: `${P}/perf/img?${query}` });
      expect(response.statusCode).toBe(400);
    });
    expect(image).toEqual(['perfLines', 'perfCount']);
  });

  it('is refused faster than the database reads the selection cut at the cap, measured in the same run', async () => {
    const request = { series: Int32Array.of(series), heads: Int32Array.of(head) };
    const refusal: number[] = [];
    const ordered: number[] = [];
    for (let i = 0; i < 2; i++) {
      let started = performance.now();
      const response = await t.app.inject({ url: `${P}/perf?${query}` });
      refusal.push(performance.now() - started);
      expect(response.statusCode).toBe(400);
      started = performance.now();
      const read = await t.storage.read((r) => r.metrics.perf({ ...request, limit: PERF_POINTS_MAX + 1 }));
      ordered.push(performance.now() - started);
      expect(read.count).toBe(PERF_POINTS_MAX + 1);
    }
    const best = (times: number[]) => Math.min(...times);
    console.log(
      `refusal ${best(refusal).toFixed(1)} ms, ordered read cut at the cap ${best(ordered).toFixed(1)} ms (ratio ${(best(refusal) / best(ordered)).toFixed(2)})`,
    );
    expect(best(refusal)).toBeLessThan(best(ordered) / 4);
  });

  it('answers a query within the cap in one read', async () => {
    const end = Date.parse('2026-01-01T00:00:00Z') + 5 * 3_600_000 + 60_000;
    const calls = await metricReads(t.storage, async () => {
      const response = await t.app.inject({ url: `${P}/perf?${query}&end_time=${end}` });
      expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
      expect(response.json().results[0].metrics).toHaveLength(1 + 5 * ITERATIONS);
    });
    expect(calls).toEqual(['perf']);
  });
});
