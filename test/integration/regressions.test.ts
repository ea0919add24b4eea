import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedSteps, type Level } from '../helpers/steps.js';

/**
 * Regressions end to end through the HTTP API: 60 daily reports of six latency benchmarks with 2% Gaussian noise
 * under a t-test threshold on both sides, steps at chosen versions, and what is open after the change-point
 * analysis of every report has run.
 */
const BENCHMARKS = Array.from({ length: 6 }, (_, i) => `bench_${i}`);

interface Series {
  benchmark: { name: string };
  change: number | null;
  state: string;
  alerts: string[];
}

interface Regression {
  uuid: string;
  kind: string;
  status: string;
  first_bad: { number: number; hash: string | null };
  last_good: { number: number; hash: string | null } | null;
  fixed_by: { number: number } | null;
  series: Series[];
  unconfirmed_series: Series[];
  reason: string | null;
}

const steps: Level = (name, version) =>
  (name === 'bench_1' || name === 'bench_3') && version >= 45
    ? 1.15
    : name === 'bench_5' && version >= 50
      ? 0.85
      : 1;

/** No threshold: bench_2 20% slower from v20 to v39 (then back), bench_4 30% faster from v30 on. */
const unwatched: Level = (name, version) =>
  name === 'bench_2' && version >= 20 && version < 40 ? 1.2 : name === 'bench_4' && version >= 30 ? 0.7 : 1;

describe('regressions', () => {
  let t: TestApp;
  let ada: Session;
  let bob: Session;
  const list = async (project: string, query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/v0/projects/${project}/regressions?per_page=255${query}`,
      headers: bearer(ada.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Regression[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
    bob = await signUp(t, 'Bob Outsider', 'bob@example.com');
    await createProject(t, ada, 'ada-lovelace', { name: 'Steps', visibility: 'public' });
    await createProject(t, ada, 'ada-lovelace', { name: 'Flat', visibility: 'public' });
    await seedSteps(t, ada, { project: 'steps', benchmarks: BENCHMARKS, level: steps, seed: 7 });
    await seedSteps(t, ada, { project: 'flat', benchmarks: BENCHMARKS, level: () => 1, seed: 7 });
    await createProject(t, ada, 'ada-lovelace', { name: 'Unwatched', visibility: 'public' });
    await seedSteps(t, ada, {
      project: 'unwatched',
      benchmarks: BENCHMARKS,
      level: unwatched,
      seed: 7,
      thresholds: false,
    });
    // 180 reports and the analysis of each take tens of seconds, and minutes on a loaded machine
  }, 300_000);
  afterAll(() => t.close());

  it('opens exactly one regression for the two series that stepped up at v45 and one improvement at v50', async () => {
    const open = await list('steps', '&status=open&sort=version&direction=asc');
    expect(open.map((r) => [r.kind, r.status, r.first_bad.number])).toEqual([
      ['regression', 'untriaged', 45],
      ['improvement', 'untriaged', 50],
    ]);
    const [regression, improvement] = open as [Regression, Regression];
    expect(regression.series.map((s) => s.benchmark.name).sort()).toEqual(['bench_1', 'bench_3']);
    for (const s of regression.series) {
      expect(s.change).toBeGreaterThan(0.1);
      expect(s.change).toBeLessThan(0.2);
      expect(s.state).toBe('confirmed');
      // the alerts of the step, every report until the threshold's window took the new level in
      expect(s.alerts.length).toBeGreaterThan(0);
    }
    expect(regression.last_good?.number).toBe(44);
    expect(improvement.series.map((s) => s.benchmark.name)).toEqual(['bench_5']);
    expect(improvement.series[0]?.change).toBeLessThan(-0.1);
  });

  it('leaves nothing open on the same reports without steps', async () => {
    expect(await list('flat', '&status=open')).toEqual([]);
    // whatever stray alerts raised is suspected or was denied, never open
    for (const r of await list('flat', '&status=suspected,invalid')) {
      expect(['suspected', 'invalid']).toContain(r.status);
      if (r.status === 'invalid') expect(r.reason).toContain('no change');
    }
  });

  it('opens what the detector finds where no threshold looks, and fixes a regression that went back', async () => {
    const all = await list('unwatched', '&status=open,fixed&sort=version&direction=asc');
    expect(all.map((r) => [r.kind, r.status, r.first_bad.number, r.fixed_by?.number ?? null])).toEqual([
      ['regression', 'fixed', 20, 40],
      ['improvement', 'untriaged', 30, null],
    ]);
    expect(all.map((r) => r.series.map((s) => s.benchmark.name))).toEqual([['bench_2'], ['bench_4']]);
    expect(all[0]?.reason).toContain('back to the old level');
    expect(all[1]?.reason).toBe('found by the change-point detector');
  });

  it('lets a member triage, keeps the history, and refuses anonymous and outside callers', async () => {
    const [regression] = await list('steps', '&status=open&sort=version&direction=asc');
    const url = `/v0/projects/steps/regressions/${regression!.uuid}`;
    const patch = (headers: Record<string, string>, payload: object) =>
      t.app.inject({ method: 'PATCH', url, headers, payload });

    const anonymous = await patch({}, { status: 'acknowledged' });
    expect([401, 404]).toContain(anonymous.statusCode);
    const outsider = await patch(bearer(bob.token), { status: 'acknowledged' });
    expect([403, 404]).toContain(outsider.statusCode);
    expect((await list('steps', '&status=untriaged')).map((r) => r.uuid)).toContain(regression!.uuid);

    const triaged = await patch(bearer(ada.token), {
      status: 'acknowledged',
      note: 'the new parser',
      issue_url: 'https://example.com/issues/1',
      assignee: 'ada-lovelace',
    });
    expect(triaged.statusCode, triaged.body).toBe(200);
    const again = await t.app.inject({ method: 'GET', url });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      status: 'acknowledged',
      note: 'the new parser',
      issue_url: 'https://example.com/issues/1',
      assignee: { slug: 'ada-lovelace' },
      reason: null,
    });
    const history = await t.app.inject({ method: 'GET', url: `${url}/history` });
    expect(history.statusCode).toBe(200);
    const statuses = (history.json() as { status: string; user: { slug: string } | null }[]).map((e) => [
      e.status,
      e.user?.slug ?? null,
    ]);
    expect(statuses[0]).toEqual(['suspected', null]);
    expect(statuses).toContainEqual(['untriaged', null]);
    expect(statuses.at(-1)).toEqual(['acknowledged', 'ada-lovelace']);

    const bad = await patch(bearer(ada.token), { status: 'suspected' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('status');
  });

  it('filters by status, kind, benchmark and search, and pages', async () => {
    expect((await list('steps', '&kind=improvement&status=open')).map((r) => r.first_bad.number)).toEqual([
      50,
    ]);
    expect((await list('steps', '&benchmark=bench_3&status=open')).map((r) => r.kind)).toEqual([
      'regression',
    ]);
    const found = await list('steps', '&search=bench_5&status=open');
    expect(found.map((r) => r.kind)).toContain('improvement');
    for (const r of found)
      expect([...r.series, ...r.unconfirmed_series].map((s) => s.benchmark.name)).toContain('bench_5');
    const bad = await t.app.inject({ method: 'GET', url: '/v0/projects/steps/regressions?status=closedish' });
    expect(bad.statusCode).toBe(400);
    const page = await t.app.inject({
      method: 'GET',
      url: '/v0/projects/steps/regressions?status=open,acknowledged&per_page=1',
    });
    expect(page.headers['x-total-count']).toBe('2');
    expect(page.json()).toHaveLength(1);
  });

  it('filters by assignee and counts each status under the other filters', async () => {
    const counts = async (query = '') => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/v0/projects/steps/regressions/counts${query}`,
        headers: bearer(ada.token),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Record<string, number>;
    };
    const [regression] = await list('steps', '&kind=regression&status=open');
    const assign = await t.app.inject({
      method: 'PATCH',
      url: `/v0/projects/steps/regressions/${regression!.uuid}`,
      headers: bearer(ada.token),
      payload: { assignee: 'ada-lovelace' },
    });
    expect(assign.statusCode, assign.body).toBe(200);
    expect((await list('steps', '&assignee=ada-lovelace&status=open')).map((r) => r.uuid)).toEqual([
      regression!.uuid,
    ]);
    expect((await list('steps', '&assignee=none&status=open')).map((r) => r.kind)).toEqual(['improvement']);

    const all = await counts();
    const open = await list('steps', '&status=open');
    expect(all.open).toBe(open.length);
    expect(all.untriaged! + all.acknowledged!).toBe(open.length);
    expect(all.suspected).toBe((await list('steps', '&status=suspected')).length);
    expect(await counts('?kind=improvement')).toMatchObject({ open: 1, untriaged: 1, acknowledged: 0 });
    expect((await counts('?assignee=ada-lovelace')).open).toBe(1);
    const outsider = await t.app.inject({
      method: 'GET',
      url: '/v0/projects/steps/regressions?assignee=bob-outsider',
      headers: bearer(ada.token),
    });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().message).toContain('assignee');
  });
});
