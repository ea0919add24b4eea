import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/index.js';
import { openDatabase } from '../../server/composition.js';
import { databaseAt } from '../../server/migrate.js';
import { bearer, createProject, signUp, type Session } from '../helpers/accounts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { eventually } from '../helpers/eventually.js';
import { startPostgres, startReplica, type LocalPostgres } from '../helpers/postgres.js';

// database.replicas through the API: two API processes (test apps) on one primary with one streaming replica
// (pg_basebackup). While the replica's replay is paused, what it answers is what it held before the pause, so an
// answer without a later write proves the read went there. The file starts clusters of its own, so it runs once,
// in the integration-postgres project.

let primary: LocalPostgres;
let replica: LocalPostgres;
/** Two API processes sharing the primary and the replica. */
let a: TestApp;
let b: TestApp;
let ada: Session;

const P = '/v0/projects/replicated';
const PERF = 'testbeds=ci&benchmarks=parse&measures=latency';

async function post(t: TestApp, branch: string, value: number, project = 'replicated') {
  const now = new Date().toISOString();
  const response = await t.app.inject({
    method: 'POST',
    url: `/v0/projects/${project}/reports`,
    headers: bearer(ada.token),
    payload: {
      branch,
      testbed: 'ci',
      start_time: now,
      end_time: now,
      results: [JSON.stringify({ parse: { latency: { value } } })],
      settings: { adapter: 'json' },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { uuid: string };
}

const get = (t: TestApp, url: string, token = ada.token) =>
  t.app.inject({ method: 'GET', url, headers: bearer(token) });

/** The values of the perf answer's one series. */
async function perfValues(t: TestApp, branch: string): Promise<number[]> {
  const response = await get(t, `${P}/perf?branches=${branch}&${PERF}`);
  expect(response.statusCode, response.body).toBe(200);
  const { results } = response.json() as { results: { metrics: { metric: { value: number } }[] }[] };
  return (results[0]?.metrics ?? []).map((point) => point.metric.value);
}

const reportsOnReplica = async () => Number(await replica.sql('SELECT count(*) FROM report', 'replicated'));

beforeAll(async () => {
  if (!onPostgres) return;
  primary = await startPostgres();
  const url = await primary.createDatabase('replicated');
  // the schema first, so the base backup carries it
  const logger = createLogger({ name: 'replicas', log: { mode: 'stderr_terminal', level: 'warn' } });
  await (await openDatabase(databaseAt(url), logger)).close();
  replica = await startReplica(primary);
  const database = { url, replicas: [url.replace(`:${primary.port}/`, `:${replica.port}/`)] };
  [a, b] = await Promise.all([createTestApp({ database }), createTestApp({ database })]);
  ada = await signUp(a, 'Ada Lovelace', 'ada@example.com');
  await createProject(a, ada, ada.user.slug, { name: 'Replicated' });
  for (const value of [10, 11, 12]) await post(a, 'main', value);
  await eventually(async () => expect(await reportsOnReplica()).toBe(3), 20_000);
  await replica.sql('SELECT pg_wal_replay_pause()');
  await eventually(
    async () => expect((await replica.sql('SELECT pg_get_wal_replay_pause_state()')).trim()).toBe('paused'),
    20_000,
  );
}, 180_000);

afterAll(async () => {
  await replica?.sql('SELECT pg_wal_replay_resume()').catch(() => undefined);
  await Promise.all([a?.close(), b?.close()]);
  await replica?.stop();
  await primary?.stop();
}, 120_000);

describe.runIf(onPostgres)('read replicas through the API, the replica paused', () => {
  it('answer perf queries and lists from the replica', async () => {
    // another process writes: the primary has it, the paused replica does not
    await post(b, 'main', 13);
    await post(b, 'feature', 20);
    expect(await reportsOnReplica()).toBe(3);

    const reports = await get(a, `${P}/reports?branch=main`);
    expect(reports.statusCode, reports.body).toBe(200);
    expect(reports.headers['x-total-count']).toBe('3');
    const branches = (await get(a, `${P}/branches`)).json() as { slug: string }[];
    expect(branches.map((branch) => branch.slug)).toEqual(['main']);
    expect(await perfValues(a, 'main')).toEqual([10, 11, 12]);

    // the process that wrote reads its own writes, on the primary
    expect((await get(b, `${P}/reports?branch=main`)).headers['x-total-count']).toBe('4');
    expect(await perfValues(b, 'main')).toEqual([10, 11, 12, 13]);
  });

  it('read who the caller is and what they may see on the primary', async () => {
    // everything here is written through the other process, b; a reads it while its replica lags
    const bo = await signUp(b, 'Bo Newcomer', 'bo@example.com');
    expect((await get(a, `/v0/users/${bo.user.slug}`, bo.token)).statusCode).toBe(200);

    const created = await b.app.inject({
      method: 'POST',
      url: `/v0/users/${ada.user.slug}/tokens`,
      headers: bearer(ada.token),
      payload: { name: 'fresh' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const apiToken = created.json() as { uuid: string; token: string };
    expect((await get(a, `${P}/reports`, apiToken.token)).statusCode).toBe(200);

    await createProject(b, ada, ada.user.slug, { name: 'Fresh', visibility: 'private' });
    const fresh = await get(a, '/v0/projects/fresh/reports');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toEqual([]);

    // a branch the replica does not have yet: the data is read on the primary instead of a 404
    expect(await perfValues(a, 'feature')).toEqual([20]);

    const revoked = await b.app.inject({
      method: 'DELETE',
      url: `/v0/users/${ada.user.slug}/tokens/${apiToken.uuid}`,
      headers: bearer(ada.token),
    });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await get(a, `${P}/reports`, apiToken.token)).statusCode).toBe(401);
    expect(await reportsOnReplica()).toBe(3);
  });

  it('let a client read what it just wrote through the same process', async () => {
    const mine = await post(a, 'main', 14);
    const reports = await get(a, `${P}/reports?branch=main`);
    expect(reports.headers['x-total-count']).toBe('5');
    expect((reports.json() as { uuid: string }[])[0]?.uuid).toBe(mine.uuid);
    expect(await perfValues(a, 'main')).toEqual([10, 11, 12, 13, 14]);
    expect(await reportsOnReplica()).toBe(3);
  });
});
