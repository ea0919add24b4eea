import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Storage } from '../../core/index.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { watchedRepositories } from '../helpers/repository-calls.js';
import { seedSteps, stepHash, T_TEST_BOTH } from '../helpers/steps.js';

// One commit makes 30 benchmarks 50% slower and 10 others 40% faster: its report alerts on 40 series that group
// into two regressions (one of each kind), and the next report's 40 alerts attach to them. The grouping is counted
// in repository calls (those of ingest's transaction after the alerts' insert): a few per report and per
// regression it touches, however many alerts, where one or more per alert would grow with them.
let t: TestApp;
let ada: Session;
const SLOWER = Array.from({ length: 30 }, (_, i) => `slower_${i}`);
const FASTER = Array.from({ length: 10 }, (_, i) => `faster_${i}`);
const level = (name: string, version: number) => (version < 40 ? 1 : name.startsWith('slower') ? 1.5 : 0.6);
/** Repository calls of each report's grouping, in order. */
const groupingCalls: number[] = [];

/** Counts, for each ingest transaction, the repository calls made after `alerts.raise`. */
function countGroupingCalls(storage: Storage): void {
  const transaction = storage.transaction.bind(storage);
  (storage as { transaction: Storage['transaction'] }).transaction = (fn, options) =>
    transaction((tx) => {
      let calls: number | undefined;
      const counted = watchedRepositories(tx, {
        start: () => calls !== undefined && calls++,
        end: (call) => call === 'alerts.raise' && (calls = 0),
      });
      return fn(counted).finally(() => calls !== undefined && groupingCalls.push(calls));
    }, options);
}

async function post(version: number): Promise<void> {
  const at = Date.parse('2026-01-01T00:00:00Z') + version * 86_400_000;
  const response = await t.app.inject({
    method: 'POST',
    url: '/v0/run',
    headers: bearer(ada.token),
    payload: {
      project: 'engine',
      branch: 'main',
      testbed: 'linux',
      hash: stepHash(version),
      start_time: new Date(at).toISOString(),
      end_time: new Date(at + 60_000).toISOString(),
      results: [
        JSON.stringify(
          Object.fromEntries(
            [...SLOWER, ...FASTER].map((name) => [name, { latency: { value: 1000 * level(name, version) } }]),
          ),
        ),
      ],
      settings: { adapter: 'json' },
      thresholds: { models: { latency: T_TEST_BOTH } },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  expect((response.json() as { alerts: unknown[] }).alerts).toHaveLength(40);
}

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Engine', visibility: 'public' });
  await seedSteps(t, ada, {
    project: 'engine',
    benchmarks: [...SLOWER, ...FASTER],
    level,
    seed: 5,
    reports: 40,
  });
  countGroupingCalls(t.storage);
  await post(40);
  await post(41);
  await t.settled();
}, 300_000);
afterAll(async () => {
  await t?.close();
});

it('groups 40 alerts of one commit into one regression of each kind, and attaches the next report’s to them', async () => {
  const found = await t.storage.read(async (r) => {
    const [v40] = await r.versions.all({ hash: stepHash(40) });
    const regressions = (await r.regressions.all({ first_bad_version_id: v40!.id })).sort((a, b) =>
      a.kind.localeCompare(b.kind),
    );
    return Promise.all(
      regressions.map(async (regression) => ({
        regression,
        series: await r.regressionSeries.all({ regression_id: regression.id }),
        alerts: await r.regressionAlerts.all({ regression_id: regression.id }),
        events: (await r.regressionEvents.all({ regression_id: regression.id })).sort((a, b) => a.id - b.id),
        benchmarks: new Map((await r.benchmarks.all({})).map((b) => [b.id, b.name])),
      })),
    );
  });
  expect(found.map((f) => f.regression.kind)).toEqual(['improvement', 'regression']);
  for (const [{ regression, series, alerts, events, benchmarks }, names] of [
    [found[0]!, FASTER],
    [found[1]!, SLOWER],
  ] as const) {
    expect(regression.last_good_version_id).not.toBeNull();
    expect(series.map((s) => benchmarks.get(s.benchmark_id)).sort()).toEqual([...names].sort());
    // two alerts per series: the step's report, and the next one's at the same level
    const perSeries = new Map<number, number>();
    for (const a of alerts) perSeries.set(a.series_id, (perSeries.get(a.series_id) ?? 0) + 1);
    expect([...perSeries.values()]).toEqual(series.map(() => 2));
    expect([...perSeries.keys()].sort()).toEqual(series.map((s) => s.series_id).sort());
    // the history: opened with the first series, then each further series joined, one event each
    const grouping = events.slice(0, names.length);
    expect(grouping.map((e) => [e.previous_status, e.status, e.user_id, e.reason])).toEqual([
      [null, 'suspected', null, null],
      ...names.slice(1).map(() => ['suspected', 'suspected', null, null]),
    ]);
    const added = grouping.map((e) => (JSON.parse(e.changes!) as { series_added: number[] }).series_added);
    expect(added.every((ids) => ids.length === 1)).toBe(true);
    expect(added.flat().sort()).toEqual(series.map((s) => s.series_id).sort());
  }
});

it('groups a report’s alerts in a few repository calls, not a few per alert', () => {
  expect(groupingCalls).toHaveLength(2);
  for (const calls of groupingCalls) expect(calls).toBeLessThanOrEqual(15);
});
