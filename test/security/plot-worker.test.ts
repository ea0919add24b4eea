import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { CLOSE_GRACE_MS } from '../../workers/pool.js';

/**
 * Issue 14 item 1: anonymous image requests must not hang the plot worker, a stuck or crashing task must not take
 * the pool down, and shutdown must end in time whatever a worker does.
 */

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const P = '/v0/projects/plots';
const query = (benchmark: string, extra = '') =>
  `${P}/perf/img?branches=main&testbeds=linux&benchmarks=${benchmark}&measures=latency${extra}`;

async function seed(t: TestApp): Promise<Session> {
  const ada = await signUp(t, 'Ada Lovelace', 'ada@example.com');
  await createProject(t, ada, 'ada-lovelace', { name: 'Plots' });
  const values: [number, number][] = [
    [1e300, 1.797e308],
    [1, 1],
  ];
  for (const [day, [huge, largest]] of values.entries()) {
    const start = new Date(Date.UTC(2026, 0, 1 + day));
    const response = await t.app.inject({
      method: 'POST',
      url: `${P}/reports`,
      headers: bearer(ada.token),
      payload: {
        branch: 'main',
        testbed: 'linux',
        start_time: start.toISOString(),
        end_time: new Date(start.getTime() + 60_000).toISOString(),
        results: [
          JSON.stringify({ huge: { latency: { value: huge } }, largest: { latency: { value: largest } } }),
        ],
        settings: { adapter: 'json' },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  return ada;
}

const health = async (t: TestApp) => {
  const response = await t.app.inject({ method: 'GET', url: '/v0/server/health' });
  return { status: response.statusCode, body: response.json() };
};

describe('plot worker: overflowing axes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { pool: { maxThreads: 1 } });
    await seed(t);
  });
  afterAll(() => t.close());

  it('answers both anonymous overflow images with a PNG, and the pool stays free', async () => {
    // 1e300 and 1 (auto: a log axis) and 1.797e308 on a log axis once spun the only worker thread forever
    for (const url of [query('huge'), query('largest', '&y_axis=log'), query('huge', '&y_axis=linear')]) {
      const started = performance.now();
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
      expect(response.rawPayload.subarray(0, 8)).toEqual(PNG);
      expect(performance.now() - started).toBeLessThan(10_000);
    }
    const perf = await t.app.inject({
      method: 'GET',
      url: `${P}/perf?branches=main&testbeds=linux&benchmarks=huge,largest&measures=latency`,
    });
    expect(perf.statusCode).toBe(200);
    expect(await health(t)).toMatchObject({
      status: 200,
      body: { status: 'ok', workers: { status: 'ok', tasks_in_flight: 0, tasks_timed_out: 0 } },
    });
  });
});

describe('plot worker: a stuck task', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { pool: { maxThreads: 1, taskTimeLimit: 3_000 } });
    await seed(t);
  });
  afterAll(() => t.close());

  it('is stopped at its time limit: the waiting request gets 503 worker_failed, the next one a PNG', async () => {
    // the only thread runs a task that never ends (fault injection on the probe task)
    const stuck = t.pool
      .run('probe', { values: new Float64Array(1), fault: 'hang' })
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const during = await health(t);
    expect(during.status).toBe(200);
    expect(during.body.workers.tasks_in_flight).toBeGreaterThanOrEqual(1);

    const waiting = await t.app.inject({ method: 'GET', url: query('huge', '&title=waiting') });
    expect(waiting.statusCode, waiting.body).toBe(503);
    expect(waiting.headers['retry-after']).toBe('5');
    expect(waiting.json()).toMatchObject({ error_code: 'worker_failed' });
    expect(waiting.json().message).toContain('did not finish within 3000 ms');
    expect((await stuck) as Error).toMatchObject({ name: 'WorkerError' });

    const next = await t.app.inject({ method: 'GET', url: query('huge', '&title=next') });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.rawPayload.subarray(0, 8)).toEqual(PNG);
    const after = await health(t);
    expect(after).toMatchObject({ status: 200, body: { status: 'ok', workers: { threads: 1 } } });
    expect(after.body.workers.tasks_timed_out).toBeGreaterThanOrEqual(2);
  }, 30_000);
});

describe('plot worker: shutdown', () => {
  it('ends within its grace period while a worker is stuck and a request waits on it', async () => {
    const grace = 1_000;
    const t = await createTestApp({}, { stopGraceMs: grace, pool: { maxThreads: 1 } });
    await seed(t);
    const stuck = t.pool
      .run('probe', { values: new Float64Array(1), fault: 'hang' })
      .catch((e: unknown) => e);
    const { port } = t.app.server.address() as AddressInfo;
    const waiting = fetch(`http://127.0.0.1:${port}${query('huge', '&title=shutdown')}`).then(
      (response) => response.status,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    await t.close();
    expect(performance.now() - started).toBeLessThan(grace + CLOSE_GRACE_MS + 5_000);
    expect(await stuck).toBeInstanceOf(Error);
    // the waiting request was answered or its connection closed: it does not hang either
    await waiting;
  }, 30_000);
});
