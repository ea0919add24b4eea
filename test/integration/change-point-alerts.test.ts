import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let ada: Session;
const P = '/v0/projects/cp-alerts';
const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));
/** A deterministic ±1% ripple. */
const ripple = (n: number) => ((n * 37) % 11) / 5 - 1;
const STEP_AT = 24;
const model = { test: 'change_point', upper_boundary: 0.9995, max_sample_size: 200 };

interface AlertAnswer {
  uuid: string;
  report: string;
  benchmark: { name: string };
  metric: { uuid: string; value: number };
  limit: 'lower' | 'upper';
  status: string;
  threshold: { model: { test: string } };
  change_point: { report: string; before: number; after: number; change: number; p_value: number } | null;
}
interface ReportAnswer {
  uuid: string;
  results: { benchmark: { name: string }; measures: { metric: { uuid: string } }[] }[][];
  alerts: AlertAnswer[];
}

/** Report n: `up` steps from 100 to 110 at STEP_AT, `down` from 80 to 64 (only steps up are alerted), `flat` stays. */
async function post(n: number, thresholds: unknown = { models: { latency: model } }) {
  const values = {
    up: (n < STEP_AT ? 100 : 110) + ripple(n),
    down: (n < STEP_AT ? 80 : 64) + ripple(n + 5),
    flat: 50 + ripple(n + 3) / 2,
  };
  return t.app.inject({
    method: 'POST',
    url: `${P}/reports`,
    headers: bearer(ada.token),
    payload: {
      branch: 'main',
      testbed: 'linux',
      start_time: day(n).toISOString(),
      end_time: new Date(day(n).getTime() + 60_000).toISOString(),
      results: [
        JSON.stringify(
          Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { latency: { value } }])),
        ),
      ],
      settings: { adapter: 'json' },
      thresholds,
    },
  });
}

async function postOk(n: number): Promise<ReportAnswer> {
  const response = await post(n);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ReportAnswer;
}

const reports: ReportAnswer[] = [];
const metricOf = (report: ReportAnswer | undefined, benchmark: string) =>
  report?.results[0]?.find((r) => r.benchmark.name === benchmark)?.measures[0]?.metric.uuid;

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'CP alerts' });
  for (let n = 0; n < 35; n++) reports.push(await postOk(n));
});
afterAll(() => t.close());

describe('change_point thresholds', () => {
  it('raise one alert, on the metric that starts the new regime, from the report that confirms it', async () => {
    const raised = reports.flatMap((report, n) => report.alerts.map((alert) => ({ n, alert })));
    expect(raised).toHaveLength(1);
    const [{ n, alert }] = raised as [{ n: number; alert: AlertAnswer }];
    expect(n).toBeGreaterThan(STEP_AT);
    expect(n - STEP_AT).toBeLessThanOrEqual(4);
    expect(alert).toMatchObject({
      report: reports[n]?.uuid,
      benchmark: { name: 'up' },
      metric: { uuid: metricOf(reports[STEP_AT], 'up'), value: 110 + ripple(STEP_AT) },
      limit: 'upper',
      status: 'active',
      threshold: { model: { test: 'change_point' } },
      change_point: { report: reports[STEP_AT]?.uuid },
    });
    expect(alert.change_point?.before).toBeCloseTo(100, 0);
    expect(alert.change_point?.after).toBeCloseTo(110, 0);
    expect(alert.change_point?.change).toBeCloseTo(
      (alert.change_point?.after ?? 0) / (alert.change_point?.before ?? 1) - 1,
      12,
    );
    expect(alert.change_point?.p_value).toBeLessThan(0.0005);
  });

  it('list the confirmed change point with the confirming report, and as an alert of the project', async () => {
    const confirming = reports.find((r) => r.alerts.length > 0) as ReportAnswer;
    const [alert] = confirming.alerts;
    const stored = await t.app.inject({ method: 'GET', url: `${P}/reports/${confirming.uuid}` });
    expect(stored.statusCode).toBe(200);
    // the threshold shows its branch as it is now, so only the alert's own fields are compared with the POST answer
    const own = ({ uuid, report, metric, benchmark, limit, status, change_point }: AlertAnswer) => ({
      uuid,
      report,
      metric,
      benchmark,
      limit,
      status,
      change_point,
    });
    const [listed] = (stored.json() as ReportAnswer).alerts as [AlertAnswer];
    expect(own(listed)).toEqual(own(alert as AlertAnswer));
    const start = (
      await t.app.inject({ method: 'GET', url: `${P}/reports/${reports[STEP_AT]?.uuid}` })
    ).json();
    expect(start.alerts).toEqual([]);
    const one = await t.app.inject({ method: 'GET', url: `${P}/alerts/${alert?.uuid}` });
    expect(one.json()).toEqual(listed);
  });

  it('show the level of the current regime as the boundary and never alert on a point', async () => {
    const last = reports.at(-1) as ReportAnswer;
    const up = last.results[0]?.find((r) => r.benchmark.name === 'up')?.measures[0] as unknown as {
      boundary: { baseline: number; lower_limit: number | null; upper_limit: number };
    };
    expect(up.boundary.baseline).toBeCloseTo(110, 0);
    expect(up.boundary.lower_limit).toBeNull();
    expect(up.boundary.upper_limit).toBeGreaterThan(up.boundary.baseline);
  });

  it('are dismissed like any alert, and later reports do not raise the same change point again', async () => {
    const [alert] = (reports.find((r) => r.alerts.length > 0) as ReportAnswer).alerts as [AlertAnswer];
    const dismissed = await t.app.inject({
      method: 'PATCH',
      url: `${P}/alerts/${alert.uuid}`,
      headers: bearer(ada.token),
      payload: { status: 'dismissed' },
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json()).toMatchObject({
      status: 'dismissed',
      change_point: { report: reports[STEP_AT]?.uuid },
    });
    for (let n = 35; n < 45; n++) expect((await postOk(n)).alerts).toEqual([]);
    const all = (await t.app.inject({ method: 'GET', url: `${P}/alerts` })).json() as AlertAnswer[];
    expect(all.map((a) => [a.uuid, a.status])).toEqual([[alert.uuid, 'dismissed']]);
  });

  it('reject bad parameters with the field and the rule, changing nothing', async () => {
    const before = (await t.app.inject({ method: 'GET', url: `${P}/reports` })).headers['x-total-count'];
    const response = await post(99, { models: { latency: { ...model, upper_boundary: 0.3 } } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(
      'threshold upper_boundary must be in [0.5, 1.0) for change_point, got 0.3',
    );
    expect((await t.app.inject({ method: 'GET', url: `${P}/reports` })).headers['x-total-count']).toBe(
      before,
    );
  });
});
