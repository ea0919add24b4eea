import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { createLogger } from '../../core/index.js';
import { duckdbStorage } from '../../plugins/storage/duckdb/index.js';
import type { BenchDatabase } from './engines.js';
import { seedIngestPostgres } from './postgres-bare.js';
import { Random } from './random.js';
import { startBenchServer } from './server.js';

/** The ingest bench's report: 100 benchmarks x 2 measures (200 metrics), both measures tested by t_test. */
export const BENCHMARKS = 100;
/** Reports seeded before the clock starts: 5,000 x 200 = 1,000,000 metrics. */
export const SEED_REPORTS = 5_000;

export const thresholds = {
  models: {
    latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 },
    throughput: { test: 't_test', lower_boundary: 0.99, max_sample_size: 64 },
  },
};

/** One report's BMF text, values drawn from `random`. */
export function results(random: Random): string {
  return JSON.stringify(
    Object.fromEntries(
      Array.from({ length: BENCHMARKS }, (_, i) => [
        `bench::case_${i}`,
        {
          latency: { value: 1000 + i + random.next() * 20 },
          throughput: { value: 5000 - i + random.next() * 50 },
        },
      ]),
    ),
  );
}

/** The body of `POST /v0/run`: on branch `main` and testbed `ci`, or, for a `lane`, a branch and testbed of its own. */
export function runBody(random: Random, lane?: number): string {
  const now = new Date().toISOString();
  return JSON.stringify({
    project: 'ingest',
    branch: lane === undefined ? 'main' : `lane-${lane}`,
    testbed: lane === undefined ? 'ci' : `ci-${lane}`,
    start_time: now,
    end_time: now,
    results: [results(random)],
    settings: { adapter: 'json' },
    thresholds,
  });
}

/** Posts one report; answers its latency in ms, or throws naming the status when it is not 201. */
export async function post(url: string, random: Random, lane?: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v0/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: runBody(random, lane),
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`POST /v0/run answered ${response.status}`);
  return performance.now() - started;
}

/**
 * Copies the series of the first report into 5,000 earlier reports (1,000,000 metrics) with bare SQL; metric ids
 * grow with time, as ingest assigns them.
 */
export async function seedDuckDb(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  await c.run('BEGIN');
  await c.run(`CREATE TEMP TABLE s AS SELECT series_id, value FROM metric`);
  await c.run(`INSERT INTO version (id, uuid, project_id, number, hash, created)
    SELECT 1000000 + r, uuid(), 1, -r, NULL, now()::TIMESTAMP FROM range(1, ${SEED_REPORTS}) t(r)`);
  await c.run(
    `INSERT INTO head_version SELECT (SELECT head_id FROM report LIMIT 1), 1000000 + r FROM range(1, ${SEED_REPORTS}) t(r)`,
  );
  await c.run(`INSERT INTO report (id, uuid, project_id, user_id, branch_id, head_id, version_id, testbed_id, adapter,
      idempotency_key, start_time, end_time, created)
    SELECT 1000000 + r, uuid(), 1, NULL, f.branch_id, f.head_id, 1000000 + r, f.testbed_id, 'json', NULL,
      f.start_time - to_minutes(r), f.start_time - to_minutes(r), now()::TIMESTAMP
    FROM range(1, ${SEED_REPORTS}) t(r), (SELECT * FROM report LIMIT 1) f`);
  await c.run(`INSERT INTO metric (id, uuid, project_id, report_id, iteration, series_id, head_id, version_id,
      start_time, end_time, value)
    SELECT 10000000 + (${SEED_REPORTS} - r) * 1000 + s.series_id, uuidv7(), 1, 1000000 + r, 0, s.series_id, rep.head_id, rep.version_id,
      rep.start_time, rep.end_time, s.value * (0.99 + random() * 0.02)
    FROM range(1, ${SEED_REPORTS}) t(r) JOIN report rep ON rep.id = 1000000 + r, s
    ORDER BY rep.start_time`);
  // The first report, posted through the API, is the newest: its metrics get the highest ids.
  await c.run('UPDATE metric SET id = id + 20000000 WHERE id < 10000000');
  await c.run('COMMIT');
  await c.run('CHECKPOINT');
  c.closeSync();
  instance.closeSync();
}

/** What a load of clients measured: stored metrics per second, reports refused with 5xx, each report's latency. */
export interface LoadResult {
  readonly perSecond: number;
  readonly failed: number;
  readonly reports: number;
  readonly latencies: readonly number[];
  /** CPU seconds the clients' process used (user + system), so it can be told apart from the API's. */
  readonly clientCpuSeconds: number;
  readonly wallSeconds: number;
}

const CLIENT_SCRIPT = fileURLToPath(new URL('./ingest-clients.ts', import.meta.url));

/**
 * `clients` clients posting `perClient` reports each, round robin over `urls` (with `lanes`, each client on a
 * branch and testbed of its own), in a process of their own, so the clients' JSON and HTTP work does not run on
 * the API's event loop or compete with it inside one process. A report the server refused with 5xx is counted in
 * `failed` (on PostgreSQL: a transaction that lost to concurrent writers more often than the plugin runs one
 * again), not thrown, so the figure is still taken.
 */
export function loadFromProcess(
  urls: readonly string[],
  clients: number,
  perClient: number,
  lanes = false,
): Promise<LoadResult> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLIENT_SCRIPT, JSON.stringify({ urls, clients, perClient, lanes })],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the ingest clients' process exited with ${code}`));
      else resolve(JSON.parse(out) as LoadResult);
    });
  });
}

/** The ingest project posted once through the API, then the older history seeded with bare SQL. */
export async function prepareIngest(db: BenchDatabase): Promise<void> {
  const server = await startBenchServer(db.database);
  await post(server.url, new Random(7));
  await server.close();
  const seedStart = performance.now();
  if (db.engine === 'postgres') await seedIngestPostgres(db.url, SEED_REPORTS);
  else {
    await seedDuckDb(db.file);
    // the layout the service keeps in the background: older metrics clustered by series, the newest in time order
    const storage = await duckdbStorage.open(
      { file: db.file },
      { logger: createLogger({ name: 'bench', log: { mode: 'stderr_terminal', level: 'error' } }) },
    );
    await storage.maintain!();
    await storage.close();
  }
  process.stderr.write(
    `${db.engine}: seeded ${(SEED_REPORTS * BENCHMARKS * 2).toLocaleString()} metrics in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`,
  );
}
