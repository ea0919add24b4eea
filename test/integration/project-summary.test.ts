import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { submitRun } from '../helpers/runs.js';

// Project lists with summary=true: each card's last run, what needs triage, and runs per day, in the list's answer.
let t: TestApp;
let ada: Session;
const DAY = 86_400_000;
const NOW = Date.now();
// days ago of each report: twelve daily runs, a second run today, and one outside the 30 days
const DAYS_AGO = [45, ...Array.from({ length: 12 }, (_, i) => 11 - i), 0];
/** When report `n` starts: an hour before its day's moment, the last a minute before now. */
const startOf = (n: number, ago: number) =>
  NOW - ago * DAY - (n === DAYS_AGO.length - 1 ? 60_000 : 3_600_000);

async function get<T>(url: string): Promise<T> {
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(ada.token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

interface Listed {
  slug: string;
  summary?: {
    last_report: string | null;
    alerts: { active: number };
    regressions: { open: number };
    reports: number[];
  };
}

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Busy' });
  await createProject(t, ada, 'ada-lovelace', { name: 'Quiet' });
  const api = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const [n, ago] of DAYS_AGO.entries()) {
    await submitRun(api, ada.token, {
      project: 'busy',
      start: new Date(startOf(n, ago)),
      results: { parse: { latency: { value: n === DAYS_AGO.length - 1 ? 200 : 100 + (n % 3) } } },
      thresholds: { latency: { test: 't_test', upper_boundary: 0.99 } },
    });
  }
});
afterAll(() => t.close());

describe('project summaries', () => {
  it('gives each listed project its last report, active alerts, open regressions and reports per day', async () => {
    const listed = await get<Listed[]>('/v0/projects?summary=true&sort=name');
    const busy = listed.find((p) => p.slug === 'busy')!;
    const reports = await get<{ start_time: string }[]>('/v0/projects/busy/reports?per_page=1');
    const alerts = await get<{ active: number }>('/v0/projects/busy/alerts/counts');
    const regressions = await get<{ open: number }>('/v0/projects/busy/regressions/counts');
    expect(alerts.active).toBeGreaterThan(0);
    expect(busy.summary!.last_report).toBe(reports[0]!.start_time);
    expect(busy.summary!.alerts).toEqual({ active: alerts.active });
    expect(busy.summary!.regressions).toEqual({ open: regressions.open });
    // UTC days, oldest first: each run counted on the UTC day it started
    const expected = new Array<number>(30).fill(0);
    const today = Math.floor(NOW / DAY);
    for (const [n, ago] of DAYS_AGO.entries()) {
      const index = 29 - (today - Math.floor(startOf(n, ago) / DAY));
      if (index >= 0) expected[index]!++;
    }
    expect(busy.summary!.reports).toEqual(expected);
    expect(busy.summary!.reports.reduce((a, b) => a + b)).toBe(DAYS_AGO.length - 1);

    const quiet = listed.find((p) => p.slug === 'quiet')!;
    expect(quiet.summary).toEqual({
      last_report: null,
      alerts: { active: 0 },
      regressions: { open: 0 },
      reports: new Array<number>(30).fill(0),
    });
  });

  it("answers the same in an organization's list, and no summary unless asked", async () => {
    const everywhere = await get<Listed[]>('/v0/projects?summary=true&sort=name');
    const mine = await get<Listed[]>('/v0/organizations/ada-lovelace/projects?summary=true&sort=name');
    expect(mine).toEqual(everywhere);
    const plain = await get<Listed[]>('/v0/projects');
    expect(plain.every((p) => !('summary' in p))).toBe(true);
    const refused = await t.app.inject({ method: 'GET', url: '/v0/projects?summary=maybe' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/summary/);
  });
});
