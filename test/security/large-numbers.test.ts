import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

// Numbers at and beyond the range of a 64-bit integer (2^63 ≈ 9.2e18) where the API takes a double: static
// threshold boundaries, inline thresholds and metric values. Each is accepted and read back as sent, on both
// engines; none may answer 500.

let t: TestApp;
let ada: Session;
const P = '/v0/projects/large';
let clock = Date.parse('2026-06-01T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date(clock) });
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Large' });
  expect((await call('POST', `${P}/testbeds`, { name: 'linux' })).statusCode).toBe(201);
  expect((await call('POST', `${P}/measures`, { name: 'latency', units: 'ns' })).statusCode).toBe(201);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(ada.token), ...(payload ? { payload } : {}) });

function report(branch: string, value: number, thresholds?: object) {
  clock += 60_000;
  return call('POST', `${P}/reports`, {
    branch,
    testbed: 'linux',
    start_time: new Date(clock - 1000).toISOString(),
    end_time: new Date(clock).toISOString(),
    settings: { adapter: 'json' },
    results: [JSON.stringify({ parse: { latency: { value } } })],
    ...(thresholds ? { thresholds } : {}),
  });
}

const LARGE = [2 ** 63, 1e19, 1.7976931348623157e308];

describe('a static threshold with a boundary of 2^63 or more', () => {
  it.each(LARGE)('is created with upper_boundary %d and read back as sent', async (boundary) => {
    const branch = `static-${LARGE.indexOf(boundary)}`;
    expect((await call('POST', `${P}/branches`, { name: branch })).statusCode).toBe(201);
    const created = await call('POST', `${P}/thresholds`, {
      branch,
      testbed: 'linux',
      measure: 'latency',
      test: 'static',
      lower_boundary: -boundary,
      upper_boundary: boundary,
    });
    expect(created.statusCode, created.body).toBe(201);
    const read = await call('GET', `${P}/thresholds/${created.json().uuid}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().model).toMatchObject({ lower_boundary: -boundary, upper_boundary: boundary });
  });

  it('given inline in a report, limits its values and raises an alert on one beyond it', async () => {
    const thresholds = { models: { latency: { test: 'static', upper_boundary: 1e19 } } };
    const first = await report('inline', 5e18, thresholds);
    expect(first.statusCode, first.body).toBe(201);
    const beyond = await report('inline', 1e300);
    expect(beyond.statusCode, beyond.body).toBe(201);
    expect(beyond.json().results[0][0].measures[0].boundary).toMatchObject({ upper_limit: 1e19 });
    expect(beyond.json().alerts).toHaveLength(1);
    expect(beyond.json().alerts[0]).toMatchObject({ limit: 'upper' });
    expect(beyond.json().results[0][0].measures[0].metric.value).toBe(1e300);
  });
});
