import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedSteps } from '../helpers/steps.js';

// One commit makes 40 benchmarks 20% slower (2% noise, t-test thresholds on both sides). The thresholds of a few
// series alert only a report or two after the step, each raising a suspected regression of its own at its late
// version; the detector places those changes at the step, and they must end in the step's regression: one commit,
// one item to triage.
let t: TestApp;
let ada: Session;
const BENCHMARKS = Array.from({ length: 40 }, (_, i) => `bench_${i}`);

interface Regression {
  uuid: string;
  kind: string;
  status: string;
  first_bad: { number: number };
  last_good: { number: number } | null;
  series: { benchmark: { name: string }; state: string; alerts: string[] }[];
  unconfirmed_series: unknown[];
}

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Engine', visibility: 'public' });
  await seedSteps(t, ada, {
    project: 'engine',
    benchmarks: BENCHMARKS,
    level: (_name, version) => (version >= 40 ? 1.2 : 1),
    seed: 3,
  });
}, 300_000);
afterAll(async () => {
  await t?.close();
});

it('a step in 40 benchmarks at one commit is one regression holding all 40, whatever report each alerted at', async () => {
  const response = await t.app.inject({
    method: 'GET',
    url: '/v0/projects/engine/regressions?status=suspected,untriaged,acknowledged,invalid,fixed,expected&per_page=255',
    headers: bearer(ada.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  const all = response.json() as Regression[];
  const atStep = all.filter((r) => r.first_bad.number >= 39);
  // the noise of the report just before the step may leave a denied suspected regression there; none opens
  expect(atStep.filter((r) => r.status !== 'invalid')).toHaveLength(1);
  const [step] = atStep.filter((r) => r.status !== 'invalid');
  expect([step!.kind, step!.status, step!.last_good?.number, step!.first_bad.number]).toEqual([
    'regression',
    'untriaged',
    39,
    40,
  ]);
  expect(step!.series.map((s) => s.benchmark.name).sort()).toEqual([...BENCHMARKS].sort());
  expect(step!.series.every((s) => s.state === 'confirmed' && s.alerts.length > 0)).toBe(true);
  expect(step!.unconfirmed_series).toEqual([]);
});
