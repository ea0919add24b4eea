import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { seedSteps } from '../helpers/steps.js';

// Alerts filtered, counted and dismissed by dimension: 60 daily reports of four benchmarks, "slow" and "slower"
// stepping up by 20% and 40% at version 40 (each alerting until its threshold's window takes the step in).
let t: TestApp;
let ada: Session;
const P = '/v0/projects/filters';

interface Alert {
  uuid: string;
  status: string;
  benchmark: { name: string };
  threshold: { branch: { name: string } };
}

beforeAll(async () => {
  t = await createTestApp();
  ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Filters' });
  await seedSteps(t, ada, {
    project: 'filters',
    benchmarks: ['slow', 'slower', 'flat', 'still'],
    level: (name, version) => (version < 40 ? 1 : name === 'slow' ? 1.2 : name === 'slower' ? 1.4 : 1),
    seed: 5,
  });
}, 300_000);
afterAll(() => t.close());

const call = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(ada.token), ...(payload ? { payload } : {}) });
async function alerts(query = ''): Promise<{ items: Alert[]; total: number }> {
  const response = await call('GET', `${P}/alerts?per_page=255${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return { items: response.json() as Alert[], total: Number(response.headers['x-total-count']) };
}
async function counts(query = ''): Promise<Record<string, number>> {
  const response = await call('GET', `${P}/alerts/counts${query ? `?${query}` : ''}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Record<string, number>;
}

describe('alerts by dimension', () => {
  it('lists, pages and counts the alerts of one benchmark, branch or measure', async () => {
    const all = await alerts();
    const slow = all.items.filter((a) => a.benchmark.name === 'slow');
    const slower = all.items.filter((a) => a.benchmark.name === 'slower');
    expect(slow.length).toBeGreaterThan(1);
    expect(slower.length).toBeGreaterThan(1);

    const only = await alerts('&benchmark=slow');
    expect(only.items.map((a) => a.uuid).sort()).toEqual(slow.map((a) => a.uuid).sort());
    expect(only.total).toBe(slow.length);
    expect((await alerts('&branch=main&testbed=linux&measure=latency')).total).toBe(all.total);

    const page = await call('GET', `${P}/alerts?benchmark=slower&per_page=1&page=2`);
    expect(page.headers['x-total-count']).toBe(String(slower.length));
    expect(page.json()).toHaveLength(1);

    expect(await counts('benchmark=slow')).toEqual({ active: slow.length, dismissed: 0, silenced: 0 });
    expect((await counts()).active).toBe(all.total);

    const unknown = await call('GET', `${P}/alerts?branch=nope`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('branch');
  });

  it('dismisses all of one benchmark only, and nothing when the filter names an unknown one', async () => {
    const before = await counts();
    const slow = (await counts('benchmark=slow')).active!;
    const refused = await call('PATCH', `${P}/alerts?benchmark=nope`, { status: 'dismissed' });
    expect(refused.statusCode).toBe(404);
    expect(await counts()).toEqual(before);

    const dismissed = await call('PATCH', `${P}/alerts?benchmark=slow`, { status: 'dismissed' });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json()).toEqual({ dismissed: slow });
    expect(await counts('benchmark=slow')).toEqual({ active: 0, dismissed: slow, silenced: 0 });
    expect((await counts('benchmark=slower')).active).toBeGreaterThan(1);
    expect((await alerts('&status=active')).items.every((a) => a.benchmark.name !== 'slow')).toBe(true);

    const rest = await call('PATCH', `${P}/alerts`, { status: 'dismissed' });
    expect(rest.json()).toEqual({ dismissed: before.active! - slow });
    expect((await counts()).active).toBe(0);
  });
});
