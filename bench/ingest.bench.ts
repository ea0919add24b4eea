/**
 * Report ingest, the service's hot path (issue 7): a project seeded with 1,000,000 metrics, then reports of
 * 100 benchmarks x 2 measures with t_test thresholds (max sample size 64) posted over HTTP. Prints p50/p99
 * latency, sustained metrics per second with 4 concurrent clients, and the ratio to the raw cost of the same
 * storage work measured in the same run: an Appender insert of the same 200 rows plus the history query and the
 * commit, on a bare DuckDB connection.
 *
 * Run: npm run bench -- ingest
 *
 * Figures, 2 vCPUs shared with other jobs, Node 20.20:
 *   2026-11-21, load average 2-3, before the statement cache: p50 77-84 ms, p99 130-200 ms, 1,800-2,400
 *   metrics/s with 4 clients; raw floor 24-26 ms (3.2x).
 *   2026-11-22, load average 6, with the statement cache and the compacted layout: p50 125 ms, p99 336 ms,
 *   1,621 metrics/s; raw floor 62 ms (2.0x). The ratio is the comparable figure: the host gave this run a
 *   third of the CPU the first had.
 *   2026-11-22, load average 1.5-2 (no other jobs), with group commit and the semi-join history read:
 *   p50 36.0 ms, p99 57.1 ms, 5,579 metrics/s with 4 clients; raw floor 15.9 ms (2.27x). Earlier runs that
 *   day on the same code: p50 48.9-80.0 ms, 2,806-3,857 metrics/s, 1.9-3.7x.
 *   Aim p50 < 50 ms: met on a quiet machine. Aim 20,000 metrics/s: missed (one writer, about 36 ms of
 *   DuckDB work per report of 200 metrics; see docs/performance.md).
 *   2026-11-24, load average 19-23 (6 other engineers' tests and benches), one run after the other: before the
 *   history cache (0461a4e) p50 2,188 ms, 227 metrics/s, raw floor 239 ms (9.14x); with it (cc4879a) p50 775 ms,
 *   296 metrics/s, raw floor 885 ms (0.88x). The floor, the same work, moved 3.7x between the runs: the load,
 *   not the change, dominates these figures; measure again on a quiet machine. The next run (load average 21)
 *   timed the history read itself, interleaved on one connection: 230.2 ms from the table, 1.95 ms from the
 *   warm cache (0.008x); p50 500 ms, 684 metrics/s, 2.42x of its raw floor (207 ms).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance, DuckDBTimestampValue } from '@duckdb/node-api';
import { createLogger } from '../core/index.js';
import { duckdbStorage } from '../plugins/storage/duckdb/index.js';
import { HistoryCache } from '../plugins/storage/duckdb/history-cache.js';
import { history } from '../plugins/storage/duckdb/repositories/history.js';
import { summarize } from './lib/measure.js';
import { Random } from './lib/random.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const BENCHMARKS = 100;
const SEED_REPORTS = 5_000;
const random = new Random(7);
const dir = mkdtempSync(join(tmpdir(), 'benchtrack-ingest-'));
const file = join(dir, 'ingest.db');

const results = () =>
  JSON.stringify(
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
const thresholds = {
  models: {
    latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 },
    throughput: { test: 't_test', lower_boundary: 0.99, max_sample_size: 64 },
  },
};

async function post(url: string): Promise<number> {
  const now = new Date().toISOString();
  const started = performance.now();
  const response = await fetch(`${url}/v0/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      project: 'ingest',
      branch: 'main',
      testbed: 'ci',
      start_time: now,
      end_time: now,
      results: [results()],
      settings: { adapter: 'json' },
      thresholds,
    }),
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`POST /v0/run answered ${response.status}`);
  return performance.now() - started;
}

/**
 * Copies the series of the first report into 5,000 earlier reports (1,000,000 metrics) with bare SQL; metric ids
 * grow with time, as ingest assigns them.
 */
async function seed(): Promise<void> {
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

/** The storage floor of one report: Appender insert of 200 rows, the same history query, commit. */
async function raw(): Promise<number[]> {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  const [head, series] = (
    await c.runAndReadAll(
      `SELECT (SELECT head_id FROM report ORDER BY id DESC LIMIT 1), list(DISTINCT series_id) FROM metric`,
    )
  ).getRowsJS()[0] as [number, number[]];
  const [maxId] = (await c.runAndReadAll('SELECT max(id) FROM metric')).getRowsJS()[0] as [bigint];
  let id = maxId + 1n;
  const times: number[] = [];
  for (let k = 0; k < 60; k++) {
    const started = performance.now();
    await c.run('BEGIN');
    const appender = await c.createAppender('metric');
    const now = new DuckDBTimestampValue(BigInt(Date.now()) * 1000n);
    for (const s of series) {
      appender.appendBigInt(id++);
      appender.appendVarchar(crypto.randomUUID());
      for (const v of [1, 1, 0, s, head, 1]) appender.appendInteger(v);
      appender.appendTimestamp(now);
      appender.appendTimestamp(now);
      appender.appendDouble(1000000 + random.next());
      for (let n = 0; n < 7; n++) appender.appendNull();
      appender.endRow();
    }
    appender.flushSync();
    appender.closeSync();
    await history(c, {
      headId: head,
      series: Int32Array.from(series),
      maxSamples: new Int32Array(series.length).fill(64),
      since: new Float64Array(series.length).fill(-Infinity),
    });
    await c.run('ROLLBACK');
    times.push(performance.now() - started);
  }
  c.closeSync();
  instance.closeSync();
  return times.slice(10);
}

/** The history read of a report's 200 series from the table, and from a warm history cache, in one run. */
async function historyRead(): Promise<{ table: number[]; cached: number[] }> {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  const [head, series] = (
    await c.runAndReadAll(
      `SELECT (SELECT head_id FROM report ORDER BY id DESC LIMIT 1), list(DISTINCT series_id) FROM metric`,
    )
  ).getRowsJS()[0] as [number, number[]];
  const request = {
    headId: head,
    series: Int32Array.from(series),
    maxSamples: new Int32Array(series.length).fill(64),
    since: new Float64Array(series.length).fill(-Infinity),
  };
  const cache = new HistoryCache();
  await history(c, request, cache);
  cache.end(true);
  const table: number[] = [];
  const cached: number[] = [];
  for (let k = 0; k < 40; k++) {
    let started = performance.now();
    await history(c, request);
    table.push(performance.now() - started);
    started = performance.now();
    await history(c, request, cache);
    cached.push(performance.now() - started);
  }
  c.closeSync();
  instance.closeSync();
  return { table: table.slice(5), cached: cached.slice(5) };
}

const report = new BenchReport(
  'ingest: 100 benchmarks x 2 measures, t_test thresholds, 1,000,000 metrics seeded',
);
try {
  let server = await startBenchServer(file);
  await post(server.url);
  await server.close();
  const seedStart = performance.now();
  await seed();
  process.stderr.write(
    `seeded ${(SEED_REPORTS * BENCHMARKS * 2).toLocaleString()} metrics in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`,
  );

  // The layout the service keeps in the background: older metrics clustered by series, the newest in time order.
  const storage = await duckdbStorage.open(
    { file },
    { logger: createLogger({ name: 'bench', log: { mode: 'stderr_terminal', level: 'error' } }) },
  );
  await storage.maintain!();
  await storage.close();

  server = await startBenchServer(file);
  for (let i = 0; i < 10; i++) await post(server.url);
  const latencies: number[] = [];
  for (let i = 0; i < 100; i++) latencies.push(await post(server.url));
  const latency = summarize(latencies);

  const clients = 4;
  const perClient = 40;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < perClient; i++) await post(server.url);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const metricsPerSecond = (clients * perClient * BENCHMARKS * 2) / seconds;
  await server.close();

  const floor = summarize(await raw());
  const read = await historyRead();
  const fromTable = summarize(read.table);
  const fromCache = summarize(read.cached);
  report
    .add(
      'ingest/report',
      'latency',
      { value: latency.p50Ms * 1e6, upper_value: latency.p99Ms * 1e6 },
      `p50 ${latency.p50Ms.toFixed(1)} ms, p99 ${latency.p99Ms.toFixed(1)} ms`,
    )
    .add(
      'ingest/sustained',
      'throughput',
      metricsPerSecond,
      `${Math.round(metricsPerSecond).toLocaleString()} metrics/s (${clients} clients)`,
    )
    .add(
      'ingest/raw-duckdb',
      'latency',
      floor.p50Ms * 1e6,
      `p50 ${floor.p50Ms.toFixed(1)} ms (Appender 200 rows + history query)`,
    )
    .ratio('ingest/report', 'raw DuckDB (Appender + history query)', latency.p50Ms, floor.p50Ms)
    .add(
      'ingest/history-read',
      'latency',
      fromCache.p50Ms * 1e6,
      `p50 ${fromCache.p50Ms.toFixed(2)} ms from the history cache (200 series x 64)`,
    )
    .ratio('ingest/history-read', 'the same read from the table', fromCache.p50Ms, fromTable.p50Ms)
    .add(
      'ingest/history-read-table',
      'latency',
      fromTable.p50Ms * 1e6,
      `p50 ${fromTable.p50Ms.toFixed(2)} ms from the table`,
    )
    .print();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
