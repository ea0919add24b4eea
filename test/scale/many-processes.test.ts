import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../cli/api-server.js';
import { startPostgres, type LocalPostgres } from '../helpers/postgres.js';

/**
 * Issue 16 item 5: three `benchtrack-api` processes (compiled, as deployed) on one PostgreSQL database, clients
 * sending reports round-robin across them, as behind any HTTP load balancer.
 */
const PROCESSES = 3;
const CLIENTS = 8;
const PER_CLIENT = 5;

let pg: LocalPostgres;
let servers: ApiServer[];
let token: string;

/** Reports of value 1000 stored one at a time before the clients start, so every spike crosses the limit. */
const SEEDS = 10;
/** Each client's report k = SPIKE is a spike: 5000 + client, above twice any mean of the history. */
const SPIKE = 2;
/** The percentage model's upper boundary: the limit is the mean of every earlier value times 1 + 1. */
const UPPER = 1;

interface Alert {
  uuid: string;
  report: string;
  limit: 'lower' | 'upper';
  metric: { value: number };
  boundary: { baseline: number | null; upper_limit: number | null };
}

interface Report {
  uuid: string;
  branch: { head: { version: { number: number } } };
  results: {
    measures: {
      metric: { value: number };
      boundary: { baseline: number | null; upper_limit: number | null } | null;
    }[];
  }[][];
  alerts: Alert[];
}

const bmf = (benchmarks: number, value: number) =>
  JSON.stringify(
    Object.fromEntries(
      Array.from({ length: benchmarks }, (_, i) => [`bench-${i}`, { latency: { value: value + i } }]),
    ),
  );

async function post(server: string, branch: string, value: number, benchmarks = 1): Promise<Response> {
  const now = new Date().toISOString();
  return fetch(`${server}/v0/projects/busy/reports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      branch,
      testbed: 'ci',
      start_time: now,
      end_time: now,
      results: [bmf(benchmarks, value)],
      settings: { adapter: 'json' },
      thresholds: {
        models: { latency: { test: 'percentage', upper_boundary: UPPER, max_sample_size: 1000 } },
      },
    }),
  });
}

async function get(server: string, path: string): Promise<Response> {
  return fetch(`${server}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

beforeAll(async () => {
  pg = await startPostgres();
  const url = await pg.createDatabase('benchtrack');
  servers = [];
  // one at a time: the first migrates the database, the others find it current
  for (let i = 0; i < PROCESSES; i++) servers.push(await startApiServer({ database: { url } }));
  const session = await servers[0]!.signUp('Ada Lovelace', 'ada@example.com');
  token = session.token;
  const created = await fetch(`${servers[1]!.url}/v0/organizations/${session.user.slug}/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Busy' }),
  });
  expect(created.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await Promise.all((servers ?? []).map((server) => server.close()));
  await pg?.stop();
});

describe(`${PROCESSES} API processes on one PostgreSQL database`, () => {
  it('store every report once, keep versions unique, and test each against history as it was', async () => {
    let next = 0;
    const seeds: Report[] = [];
    for (let k = 0; k < SEEDS; k++) {
      const response = await post(servers[k % PROCESSES]!.url, 'main', 1000);
      expect(response.status, await response.clone().text()).toBe(201);
      seeds.push((await response.json()) as Report);
    }
    const spikes = new Set<string>();
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      const mine: Report[] = [];
      for (let k = 0; k < PER_CLIENT; k++) {
        const server = servers[next++ % PROCESSES]!.url;
        const response = await post(server, 'main', k === SPIKE ? 5000 + client : 1000 + 10 * client + k);
        expect(response.status, await response.clone().text()).toBe(201);
        const report = (await response.json()) as Report;
        if (k === SPIKE) spikes.add(report.uuid);
        mine.push(report);
      }
      return mine;
    });
    const reports = [...seeds, ...(await Promise.all(clients)).flat()];
    const total = SEEDS + CLIENTS * PER_CLIENT;

    expect(new Set(reports.map((r) => r.uuid)).size).toBe(total);
    for (const server of servers) {
      const list = await get(server.url, '/v0/projects/busy/reports?per_page=255&branch=main');
      expect(list.headers.get('x-total-count')).toBe(String(total));
    }
    const versions = reports.map((r) => r.branch.head.version.number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: total }, (_, i) => i));

    // each boundary's baseline is the mean of every value stored before it, whichever process stored them
    const byVersion = [...reports].sort(
      (a, b) => a.branch.head.version.number - b.branch.head.version.number,
    );
    // and it raised an alert exactly when its value is above that mean times 1 + UPPER: the spikes, whatever the
    // order the processes stored them in
    const values: number[] = [];
    const alerted = new Set<string>();
    for (const report of byVersion) {
      const measure = report.results[0]?.[0]?.measures[0];
      const value = measure?.metric.value as number;
      const expected = values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
      if (expected === null) expect(measure?.boundary?.baseline ?? null).toBeNull();
      else expect(measure?.boundary?.baseline).toBeCloseTo(expected, 9);
      const crosses = expected !== null && value > expected * (1 + UPPER);
      expect(
        report.alerts.map((a) => [a.limit, a.metric.value]),
        report.uuid,
      ).toEqual(crosses ? [['upper', value]] : []);
      if (crosses) alerted.add(report.uuid);
      values.push(value);
    }
    expect([...alerted].sort()).toEqual([...spikes].sort());

    // each stored once, whichever process is asked
    for (const server of servers) {
      const list = await get(server.url, '/v0/projects/busy/alerts?per_page=255');
      const alerts = (await list.json()) as Alert[];
      expect(list.headers.get('x-total-count')).toBe(String(CLIENTS));
      expect(alerts.map((a) => a.report).sort()).toEqual([...spikes].sort());
      const raised = reports.flatMap((r) => r.alerts.map((a) => a.uuid));
      expect(alerts.map((a) => a.uuid).sort()).toEqual(raised.sort());
    }
  });

  it('serve no stale plot from a cache after another process stored a report', async () => {
    const image = '/v0/projects/busy/perf/img?branches=main&testbeds=ci&benchmarks=bench-0&measures=latency';
    const [a, b] = [servers[0]!.url, servers[1]!.url];
    const first = await get(a, image);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') as string;
    expect((await get(a, image)).headers.get('etag')).toBe(etag);
    expect((await post(b, 'main', 5000)).status).toBe(201);
    const after = await fetch(`${a}${image}`, {
      headers: { authorization: `Bearer ${token}`, 'if-none-match': etag },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
  });

  it('lose nothing acknowledged when a process is killed with SIGKILL mid-ingest', async () => {
    const victim = servers[PROCESSES - 1]!;
    const targets = [...servers];
    const acknowledged: string[] = [];
    let refused = 0;
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let k = 0; k < 6; k++) {
        const server = targets[(client + k) % PROCESSES]!.url;
        try {
          const response = await post(server, 'crash', client * 100 + k, 20);
          if (response.status === 201) acknowledged.push(((await response.json()) as Report).uuid);
          else refused++;
        } catch {
          refused++; // the connection died with the process: not acknowledged
        }
      }
    });
    setTimeout(() => victim.process.child.kill('SIGKILL'), 300);
    await Promise.all(clients);
    expect(victim.process.child.signalCode).toBe('SIGKILL');
    servers.pop();
    rmSync(victim.dir, { recursive: true, force: true });
    expect(refused).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(0);

    const survivor = servers[0]!.url;
    const list = await get(survivor, '/v0/projects/busy/reports?per_page=255&branch=crash');
    const stored = (await list.json()) as { uuid: string; results: unknown[][] }[];
    const storedIds = new Set(stored.map((r) => r.uuid));
    for (const uuid of acknowledged) expect(storedIds.has(uuid), uuid).toBe(true);
    // and every stored report is whole: all 20 benchmarks of its one iteration
    for (const uuid of storedIds) {
      const report = (await (await get(survivor, `/v0/projects/busy/reports/${uuid}`)).json()) as Report;
      expect(report.results[0]?.length, uuid).toBe(20);
    }
  });
});
