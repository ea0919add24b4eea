import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(clock) });
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
