import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DETECTION_DEFAULTS,
  detectChangePoints,
  type ChangePointJob,
  type PlotImageInput,
} from '../../core/index.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let ada: Session;
const P = '/v0/projects/changes';
const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));
const hash = (n: number) => n.toString(16).padStart(40, 'a');
/** A deterministic ±1% ripple. */
const ripple = (n: number) => ((n * 37) % 11) / 5 - 1;
const REPORTS = 40;
const STEP_AT = 24;
const reports: { uuid: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Changes' });
  await createProject(t, ada, 'ada-lovelace', { name: 'Hidden', visibility: 'private' });
  for (let n = 0; n < REPORTS; n++) reports.push(await post('changes', n));
});
afterAll(() => t.close());

async function post(project: string, n: number, only?: 'step') {
  const both = { step: (n < STEP_AT ? 100 : 120) + ripple(n), steady: 50 + ripple(n + 3) / 2 };
  const values = only ? { step: both.step } : both;
  const results = JSON.stringify(
    Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { latency: { value } }])),
  );
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/projects/${project}/reports`,
    headers: bearer(ada.token),
    payload: {
      branch: 'main',
      hash: hash(n),
      testbed: 'linux',
      start_time: day(n).toISOString(),
      end_time: new Date(day(n).getTime() + 60_000).toISOString(),
      results: [results],
      settings: { adapter: 'json' },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { uuid: string };
}

const get = (url: string) => t.app.inject({ method: 'GET', url });
const query = 'branches=main&testbeds=linux&benchmarks=step,steady&measures=latency';

interface Answer {
  results: {
    benchmark: { name: string };
    points: number;
    change_points: {
      index: number;
      report: string;
      version: { number: number; hash: string | null };
      metric: { uuid: string; value: number };
      before: number;
      after: number;
      change: number | null;
      p_value: number;
    }[];
  }[];
}

describe('GET /v0/projects/{project}/perf/changes', () => {
  it('answers each series with its change points and the report, version and metric that start each', async () => {
    const response = await get(`${P}/perf/changes?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Answer;
    expect(body.results.map((r) => [r.benchmark.name, r.points])).toEqual([
      ['step', REPORTS],
      ['steady', REPORTS],
    ]);
    const [step, steady] = body.results;
    expect(steady?.change_points).toEqual([]);
    expect(step?.change_points).toHaveLength(1);
    const point = step?.change_points[0];
    expect(point).toMatchObject({
      index: STEP_AT,
      report: reports[STEP_AT]?.uuid,
      version: { hash: hash(STEP_AT) },
      metric: { value: 120 + ripple(STEP_AT) },
    });
    const mean = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => (from + k < STEP_AT ? 100 : 120) + ripple(from + k)).reduce(
        (s, v) => s + v,
      ) /
      (to - from);
    expect(point?.before).toBeCloseTo(mean(0, STEP_AT), 9);
    expect(point?.after).toBeCloseTo(mean(STEP_AT, REPORTS), 9);
    expect(point?.change).toBeCloseTo(mean(STEP_AT, REPORTS) / mean(0, STEP_AT) - 1, 9);
    const series = Float64Array.from({ length: REPORTS }, (_, n) => (n < STEP_AT ? 100 : 120) + ripple(n));
    expect(point?.p_value).toBe(detectChangePoints(series, DETECTION_DEFAULTS)[0]?.pValue);
    expect(point?.p_value).toBeLessThan(1e-4);
    // the same metric the perf query lists for that report
    const perf = (await get(`${P}/perf?${query}`)).json();
    expect(perf.results[0].metrics[STEP_AT].metric.uuid).toBe(point?.metric.uuid);
    expect(perf.results[0].metrics[STEP_AT].version.number).toBe(point?.version.number);
  });

  it('uses the time window of the perf query and the detector settings given', async () => {
    const late = await get(`${P}/perf/changes?${query}&start_time=${day(STEP_AT).getTime()}`);
    expect(late.statusCode).toBe(200);
    const body = late.json() as Answer;
    expect(body.results[0]?.points).toBe(REPORTS - STEP_AT);
    expect(body.results[0]?.change_points).toEqual([]);
    const strict = (await get(`${P}/perf/changes?${query}&min_magnitude=0.5`)).json() as Answer;
    expect(strict.results[0]?.change_points).toEqual([]);
  });

  it('detects again only the series whose points changed, in a worker', async () => {
    const run = t.pool.run.bind(t.pool);
    const jobs: number[] = []; // series per detection job sent to the pool
    const spy = vi.spyOn(t.pool, 'run').mockImplementation((task, input, transfer) => {
      if (task === 'change-points') jobs.push((input as ChangePointJob).offsets.length - 1);
      return run(task, input, transfer);
    });
    try {
      const url = `${P}/perf/changes?${query}&window_len=40`;
      const first = (await get(url)).json() as Answer;
      expect(jobs).toEqual([2]);
      expect((await get(url)).json()).toEqual(first);
      expect(jobs).toEqual([2]);
      reports.push(await post('changes', REPORTS, 'step'));
      const later = (await get(url)).json() as Answer;
      expect(jobs).toEqual([2, 1]);
      expect(later.results.map((r) => r.points)).toEqual([REPORTS + 1, REPORTS]);
      expect(later.results[0]?.change_points.map((p) => p.index)).toEqual([STEP_AT]);
      expect(later.results[1]?.change_points).toEqual(first.results[1]?.change_points);
    } finally {
      spy.mockRestore();
    }
  });

  it.each([
    ['window_len=1', 'querystring.window_len: must be an integer from 3 to 1000, got 1'],
    ['max_pvalue=0', 'querystring.max_pvalue: must be a number in (0, 1], got 0'],
    ['min_magnitude=-0.1', 'querystring.min_magnitude: must be a finite number of at least 0, got -0.1'],
  ])('rejects %s with a 400 naming the field and the rule', async (bad, message) => {
    const response = await get(`${P}/perf/changes?${query}&${bad}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('keeps private projects invisible', async () => {
    const response = await get(`/v0/projects/hidden/perf/changes?${query}`);
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /v0/projects/{project}/perf/img?changes=true', () => {
  it('draws each series’ change points with the levels before and after them', async () => {
    const run = t.pool.run.bind(t.pool);
    const drawn: PlotImageInput[] = [];
    const spy = vi.spyOn(t.pool, 'run').mockImplementation((task, input, transfer) => {
      if (task === 'plot-image') drawn.push(input as PlotImageInput);
      return run(task, input, transfer);
    });
    try {
      const plain = await get(`${P}/perf/img?${query}`);
      const marked = await get(`${P}/perf/img?${query}&changes=true`);
      expect(marked.statusCode).toBe(200);
      expect(marked.headers['content-type']).toBe('image/png');
      expect(marked.headers.etag).not.toBe(plain.headers.etag);
      expect(Buffer.compare(marked.rawPayload, plain.rawPayload)).not.toBe(0);
      expect(drawn.map((input) => input.series.map((s) => s.changes?.map((c) => c.index)))).toEqual([
        [undefined, undefined],
        [[STEP_AT], []],
      ]);
      const [change] = drawn[1]?.series[0]?.changes ?? [];
      expect(change?.before).toBeCloseTo(100, 0);
      expect(change?.after).toBeCloseTo(120, 0);
    } finally {
      spy.mockRestore();
    }
  });

  it('rejects a changes value that is not a boolean', async () => {
    const response = await get(`${P}/perf/img?${query}&changes=maybe`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('changes');
  });
});
