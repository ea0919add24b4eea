import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERF_POINTS_MAX, REPORT_LIST_EXPANDED_RESULTS_MAX, WorkLimit } from '../../core/index.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 14 items 4 and 12: answers in the documented error shape, empty and inconsistent BMF, and the size
 * limits of perf answers and lists. Each attack states its status and checks that nothing was written.
 */

let t: TestApp;
let ada: Session;
const P = '/v0/projects/limits';
let clock = Date.parse('2026-06-01T00:00:00Z');

/** One heavy request at a time and one waiting, so the test can fill the limit by hand. */
const heavyLimit = new WorkLimit({ what: 'heavy requests', concurrency: 1, queue: 1, retryAfterSeconds: 2 });

beforeAll(async () => {
  t = await createTestApp(
    { server: { bind_address: '127.0.0.1:0', request_body_max_bytes: 8 * 1024 * 1024 } },
    { now: () => new Date(clock), heavyLimit },
  );
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Limits' });
});
afterAll(() => t.close());

const counts = () =>
  t.storage.read(async (r) => ({
    reports: await r.reports.count({}),
    branches: await r.branches.count({}),
    testbeds: await r.testbeds.count({}),
    benchmarks: await r.benchmarks.count({}),
    measures: await r.measures.count({}),
  }));

function postReport(results: string[], extra: object = {}) {
  clock += 60_000;
  return t.app.inject({
    method: 'POST',
    url: `${P}/reports`,
    headers: bearer(ada.token),
    payload: {
      branch: 'main',
      testbed: 'linux',
      start_time: new Date(clock - 1000).toISOString(),
      end_time: new Date(clock).toISOString(),
      settings: { adapter: 'json' },
      results,
      ...extra,
    },
  });
}

/** The documented error body: exactly `{request_id, error_code?, message}`. */
function expectErrorShape(body: unknown): { request_id: string; error_code?: string; message: string } {
  expect(body).toEqual({
    request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    error_code: expect.any(String),
    message: expect.any(String),
  });
  return body as { request_id: string; error_code?: string; message: string };
}

describe('framework errors in the documented shape', () => {
  it('answers an over-long path segment with 414 {request_id, error_code, message}', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/v0/projects/${'a'.repeat(500)}` });
    expect(response.statusCode).toBe(414);
    const body = expectErrorShape(response.json());
    expect(body.error_code).toBe('invalid_input');
    expect(body.message).toContain('longer than 100 characters');
    expect(body.message).not.toContain('a'.repeat(101));
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['x-total-count']).toBe('0');
  });

  it('answers a malformed percent-encoding with 400 {request_id, error_code, message}', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v0/projects/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(expectErrorShape(response.json()).error_code).toBe('invalid_input');
  });
});

describe('BMF that would store an empty or inconsistent report', () => {
  it.each([
    [['{}'], 'results is an empty BMF document ({})'],
    [['{"sort": {}}'], 'results names 1 benchmark but no measures'],
    [['{"sort": {"latency": {"value": 1}}}', '{}'], 'results[1] is an empty BMF document ({})'],
  ])('refuses %j with 400 saying which, and stores nothing', async (results, message) => {
    const before = await counts();
    const response = await postReport(results);
    expect(response.statusCode, response.body).toBe(400);
    expect(expectErrorShape(response.json()).message).toContain(message);
    expect(await counts()).toEqual(before);
  });

  it('says so when the harness genuinely printed nothing, and stores nothing', async () => {
    const before = await counts();
    for (const adapter of ['json', 'magic', 'rust_bench']) {
      const response = await postReport(['', ' \n'], { settings: { adapter } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('results[0] is empty: the harness printed no results');
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses lower_value > upper_value with 400 naming both, and stores nothing', async () => {
    const before = await counts();
    const response = await postReport([
      JSON.stringify({ sort: { latency: { value: 5, lower_value: 7, upper_value: 3 } } }),
    ]);
    expect(response.statusCode, response.body).toBe(400);
    const { message } = expectErrorShape(response.json());
    expect(message).toContain('benchmark "sort" measure "latency"');
    expect(message).toContain('lower_value (7) is greater than upper_value (3)');
    expect(await counts()).toEqual(before);
  });

  it('takes equal bounds and a value outside them (the bounds are the harness’s, not a rule on value)', async () => {
    const response = await postReport([
      JSON.stringify({ sort: { latency: { value: 5, lower_value: 3, upper_value: 3 } } }),
    ]);
    expect(response.statusCode, response.body).toBe(201);
  });
});

describe('perf answers and lists have size limits', () => {
  const BENCHMARKS = 50;
  const ITERATIONS = 1024; // 51,200 points in one report, over the cap
  const names = Array.from({ length: BENCHMARKS }, (_, i) => `bench-${String(i).padStart(2, '0')}`);
  let sortUuid: string;

  beforeAll(async () => {
    expect(BENCHMARKS * ITERATIONS).toBeGreaterThan(PERF_POINTS_MAX);
    expect(BENCHMARKS * ITERATIONS).toBeGreaterThan(REPORT_LIST_EXPANDED_RESULTS_MAX);
    const iteration = (k: number) =>
      JSON.stringify(Object.fromEntries(names.map((name, i) => [name, { latency: { value: 100 + i + k } }])));
    const big = await postReport(Array.from({ length: ITERATIONS }, (_, k) => iteration(k)));
    expect(big.statusCode, big.body.slice(0, 300)).toBe(201);
    const small = await postReport([
      JSON.stringify({ sort: { latency: { value: 1 }, throughput: { value: 2 } } }),
    ]);
    expect(small.statusCode).toBe(201);
    sortUuid = small.json().results[0][0].benchmark.uuid;
  });

  const perf = (query: string) =>
    t.app.inject({ method: 'GET', url: `${P}/perf?branches=main&testbeds=linux&${query}` });

  it(`refuses a perf answer of more than ${PERF_POINTS_MAX} points with 400 saying how to narrow it`, async () => {
    for (const format of ['json', 'csv', 'arrow']) {
      const response = await perf(`benchmarks=${names.join(',')}&measures=latency&format=${format}`);
      expect(response.statusCode, format).toBe(400);
      const { message } = expectErrorShape(response.json());
      expect(message).toContain(`more than ${PERF_POINTS_MAX} points`);
      expect(message).toContain('start_time and end_time');
      expect(message).toContain('fewer branches, testbeds, benchmarks or measures');
    }
    const narrowed = await perf(`benchmarks=${names.slice(0, 40).join(',')}&measures=latency`);
    expect(narrowed.statusCode).toBe(200);
    expect(narrowed.json().results).toHaveLength(40);
  });

  it('answers a benchmark repeated 255 times (and named by slug and UUID) as one series', async () => {
    const repeated = Array.from({ length: 255 }, () => 'sort').join(',');
    const response = await perf(`benchmarks=${repeated}&measures=latency,latency`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json().results).toHaveLength(1);
    const mixed = await perf(`benchmarks=sort,${sortUuid},sort&measures=latency,throughput`);
    expect(mixed.statusCode, mixed.body.slice(0, 300)).toBe(200);
    expect(mixed.json().results.map((r: { measure: { slug: string } }) => r.measure.slug)).toEqual([
      'latency',
      'throughput',
    ]);
    const branches = await t.app.inject({
      method: 'GET',
      url: `${P}/perf?branches=main,main,main&testbeds=linux,linux&benchmarks=sort&measures=latency`,
    });
    expect(branches.json().results).toHaveLength(1);
  });

  it(`bounds expanded report lists to ${REPORT_LIST_EXPANDED_RESULTS_MAX} results, saying what fits`, async () => {
    const expanded = await t.app.inject({ method: 'GET', url: `${P}/reports?per_page=255&expand=true` });
    expect(expanded.statusCode).toBe(400);
    const { message } = expectErrorShape(expanded.json());
    expect(message).toContain(`at most ${REPORT_LIST_EXPANDED_RESULTS_MAX} results`);
    expect(message).toContain('lower per_page (1 fits here)');
    const newest = await t.app.inject({ method: 'GET', url: `${P}/reports?per_page=1&expand=true` });
    expect(newest.statusCode).toBe(200);
    const plain = await t.app.inject({ method: 'GET', url: `${P}/reports?per_page=255` });
    expect(plain.statusCode).toBe(200);
  });

  it('answers 503 with Retry-After when the heavy requests in flight and waiting are at their limit', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}${P}/perf?branches=main&testbeds=linux&benchmarks=sort&measures=latency`;
    const held = heavyLimit.enter(); // the one running place
    const queued = fetch(url); // the one waiting place
    await waitFor(() => heavyLimit.state.waiting === 1);
    const refused = await fetch(url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(expectErrorShape(await refused.json()).message).toContain(
      'the server is busy with heavy requests',
    );
    // shedding load is logged as a warning in one line, not as a fault with its stack
    const lines = t
      .logText()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string; err?: unknown });
    const refusal = lines.find((line) => line.reason?.startsWith('the server is busy with heavy requests'));
    expect(refusal).toMatchObject({ level: 40, msg: 'request refused for now', retry_after: 2 });
    expect(refusal?.err).toBeUndefined();
    expect(lines.filter((line) => line.msg === 'request failed')).toEqual([]);
    // a plain list is not heavy and still answers
    expect((await fetch(`http://127.0.0.1:${port}${P}/reports?per_page=1`)).status).toBe(200);
    held.leave();
    expect((await queued).status).toBe(200);
    await waitFor(() => heavyLimit.state.running === 0);
  });

  it('frees the place of a client that leaves while it waits', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}${P}/perf?branches=main&testbeds=linux&benchmarks=sort&measures=latency`;
    const held = heavyLimit.enter();
    const abort = new AbortController();
    const leaving = fetch(url, { signal: abort.signal }).catch(() => 'aborted');
    await waitFor(() => heavyLimit.state.waiting === 1);
    abort.abort();
    expect(await leaving).toBe('aborted');
    await waitFor(() => heavyLimit.state.waiting === 0);
    held.leave();
    expect(heavyLimit.state).toEqual({ running: 0, waiting: 0 });
    expect((await fetch(url)).status).toBe(200);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
