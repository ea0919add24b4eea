/**
 * Report ingest, the service's hot path: a project seeded with 1,000,000 metrics, then reports of
 * 100 benchmarks x 2 measures with t_test thresholds (max sample size 64) posted over HTTP. Prints p50/p99
 * latency, sustained metrics per second with 4 concurrent clients, and the ratio to the raw cost of the same
 * storage work measured in the same run: what a minimal correct ingest of the same report does on a bare DuckDB
 * connection (its 200 rows as one data chunk through an Appender, its history from memory, the COMMIT; until
 * 2026-11-27 the floor read the history from the table and rolled back). The clients run in a process of their own
 * (bench/lib/ingest-clients.ts), so the API's event loop is this process's alone; the event-loop utilization and
 * the CPU of the API and of the clients during the 4-client load are printed too.
 *
 * On PostgreSQL (`--engine postgres`; both engines by default when PostgreSQL is installed) the same figures, the
 * floor being the same work through the `postgres` driver (one INSERT of 200 rows from arrays, the plugin's
 * history statement, in a READ COMMITTED transaction, as the plugin stores a report), and then ingest through real
 * `benchtrack-api` processes: 1 and 3 on the one database in the order 1, 3, 3, 1, 12 clients round robin
 * (BENCH_INGEST_CLIENTS), each on a branch and testbed of its own (BENCH_INGEST_ONE_BRANCH=1 adds all on one
 * branch, serial by design), with the event-loop utilization of every API process, the CPU the API processes,
 * PostgreSQL's backends, PostgreSQL's background work, the bench's own clients and the rest of the machine used,
 * the write transactions PostgreSQL made the processes run again (health's database.retried), and the CPU a
 * report costs in all against the machine's cores.
 *
 * Run: npm run bench -- ingest [--engine duckdb,postgres]
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
 *   2026-11-24, load average 4.9-11.5, both engines in one run (--engine duckdb,postgres, commit 45d446a):
 *   DuckDB p50 104 ms, 2,697 metrics/s, 4.35x of its floor (23.9 ms); PostgreSQL p50 76.7 ms, 1,999 metrics/s,
 *   1.42x of its floor (54.0 ms). PostgreSQL through real API processes, 6 clients: 1 process 1,026 metrics/s,
 *   3 processes 764 metrics/s (0.75x; aim 2x: missed). CPU was not the bound (API 0.35 cores, PostgreSQL
 *   0.21-0.35 of 2): 437-465 transactions ran again for 120 reports, and 2-3 reports failed with 500 after 40
 *   attempts. Reports of one organization and branch write shared rows; see docs/performance.md.
 *   2026-11-24, load average 12-14, after usage entries (migration 4), PostgreSQL only: one branch 476 metrics/s
 *   with 1 process, 426 with 3 (0.90x); a branch each 1,312 with 1 process (112 retries for 120 reports), 958
 *   with 3 (0.73x, 430 retries). The same bench on the code before (load 5-14): a branch each 795 and 981
 *   metrics/s, 459 and 464 retries. See docs/performance.md, "Ingest into one organization on PostgreSQL".
 *   2026-11-24, PostgreSQL only, before and after ingest moved to READ COMMITTED with explicit locks (e568e50 at
 *   load 2.9-13.7, 5700c83 at load 7.6-10.9): one branch 508 and 383 metrics/s (1 and 3 processes, 473 and 501
 *   retries) before, 799 and 725 after (0 retries); a branch each 1,250 and 945 (98 and 445 retries) before,
 *   1,575 and 1,152 after (0 retries). The machine's 2 cores were busy throughout (API + PostgreSQL + the rest =
 *   2.0 cores, the rest 1.1-1.4): 3 processes are bound by the CPU this shared machine leaves, not by conflicts.
 *   See docs/performance.md, "Ingest on PostgreSQL: explicit locks instead of SERIALIZABLE".
 *   2026-11-24 11:51 UTC, DuckDB only (--engine duckdb, commit 2237c45, load average 3.5-4.9 beside a CI run):
 *   p50 100.8 ms, p99 277.4 ms, 1,954 metrics/s with 4 clients, 1.27x of the raw floor (79.5 ms); history read
 *   0.62 ms from the cache, 24.45 ms from the table.
 *   2026-11-27 08:34-08:41 UTC, DuckDB only, the code before (d312f4a with this bench) and after the deferred rows
 *   (2a42307) alternating, load average 13.7-19.8 (four other engineers' work), clients in their own process,
 *   honest floor: before 1,778 and 1,375 metrics/s, p50 138.7 and 141.0 ms, API 0.37 and 0.33 cores (42-48 ms of
 *   CPU per report), event loop 37%, floor 12.1 and 17.4 ms (11.5x, 8.1x); after 1,527 and 2,023 metrics/s, p50
 *   83.6 and 101.3 ms (p99 555.6, 422.1), API 0.22 and 0.28 cores (28-29 ms per report), event loop 48-51%, floor
 *   21.6 and 21.2 ms (3.9x, 4.8x). Aims missed: 20,000 metrics/s and 3x of the floor; what bounds them is in
 *   docs/performance.md, "Ingest at 20,000 metrics/s".
 *   2026-11-27 10:45 UTC, commit ef4f0fa, DuckDB only, no other jobs (load average 2.9-3.4): p50 25.8 ms, p99
 *   63.2 ms, 11,809 metrics/s with 4 clients (5,579 on the quiet 2026-11-22), event loop 45.8%, API 1.11 cores,
 *   clients 0.32; floor 3.6 ms (7.21x: a quiet COMMIT is cheap, so the ratio grew while every figure improved);
 *   history read 0.56 ms from the cache, 18.69 ms from the table. Aim 20,000 metrics/s: missed.
 *   2026-11-29 06:51-06:55 UTC, DuckDB only, 74e8487 and the webhook read cached alternating, load average
 *   8.8-10.7: before 2,708 and 3,275 metrics/s, p50 108.6 and 96.4 ms, floor 11.3 and 7.8 ms; after 4,276 and
 *   2,335 metrics/s, p50 72.0 and 104.4 ms, floor 4.7 and 10.1 ms: the load moved the runs more than the change,
 *   whose interleaved measure (bench/ab-checkouts.ts) was 0.90x the CPU per report, 0.73x the p50.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import duckdb from '@duckdb/node-bindings';
import { DuckDBDataChunk, DuckDBInstance } from '@duckdb/node-api';
import { HistoryCache } from '../plugins/storage/duckdb/history-cache.js';
import { history } from '../plugins/storage/duckdb/history.js';
import {
  clusterCpu,
  cpuSeconds,
  machineCpuSeconds,
  startApi,
  utilization,
  type EventLoopTimes,
} from './lib/api-process.js';
import { bareName, benchDatabase, onEngine, selectedEngines, type BenchDatabase } from './lib/engines.js';
import { summarize, type Timing } from './lib/measure.js';
import { bareIngestFloor } from './lib/postgres-bare.js';
import { BENCHMARKS, loadFromProcess, post as postReport, prepareIngest } from './lib/ingest-data.js';
import { Random } from './lib/random.js';
import { BenchReport } from './lib/report.js';
import { startBenchServer } from './lib/server.js';

const random = new Random(7);
const root = resolve(fileURLToPath(import.meta.url), '../..');
const post = (url: string, lane?: number) => postReport(url, random, lane);

/**
 * The floor of one report on DuckDB: what a minimal correct ingest of it does, on a bare connection. Its 200
 * metric rows appended as one data chunk (a typed-array copy per column, the cheapest way node-api offers), the
 * history of its 200 series x 64 values taken from memory (a copy out of one array, as a cache would give it: the
 * service keeps the newest values of active series in memory and no longer reads them from the table), and the
 * COMMIT. Until 2026-11-27 the floor read the history from the table (24.45 of its 79.5 ms at load 3.5-4.9) and
 * rolled back instead of committing.
 */
async function raw(file: string): Promise<number[]> {
  const instance = await DuckDBInstance.create(file);
  const c = await instance.connect();
  const [head, series] = (
    await c.runAndReadAll(
      `SELECT (SELECT head_id FROM report ORDER BY id DESC LIMIT 1), list(DISTINCT series_id) FROM metric`,
    )
  ).getRowsJS()[0] as [number, number[]];
  const [maxId] = (await c.runAndReadAll('SELECT max(id) FROM metric')).getRowsJS()[0] as [bigint];
  const n = series.length;
  const T = duckdb.Type;
  const types = [T.BIGINT, T.UUID, ...Array<duckdb.Type>(6).fill(T.INTEGER), T.TIMESTAMP, T.TIMESTAMP]
    .concat(
      Array<duckdb.Type>(3).fill(T.DOUBLE),
      [T.INTEGER, T.INTEGER],
      Array<duckdb.Type>(3).fill(T.DOUBLE),
    )
    .map((type) => duckdb.create_logical_type(type));
  const memory = Float64Array.from({ length: n * 64 }, () => 1000 + random.next());
  let id = maxId + 1n;
  const times: number[] = [];
  for (let k = 0; k < 60; k++) {
    const started = performance.now();
    await c.run('BEGIN');
    const history = memory.slice();
    const columns: ArrayBufferView[] = [
      BigInt64Array.from({ length: n }, () => id++),
      crypto.getRandomValues(new Uint8Array(16 * n)),
      new Int32Array(n).fill(1),
      new Int32Array(n).fill(1),
      new Int32Array(n),
      Int32Array.from(series),
      new Int32Array(n).fill(head),
      new Int32Array(n).fill(1),
      new BigInt64Array(n).fill(BigInt(Date.now()) * 1000n),
      new BigInt64Array(n).fill(BigInt(Date.now()) * 1000n),
      Float64Array.from(history.subarray(0, n), (v) => v + 1),
      ...Array.from({ length: 2 }, () => new Float64Array(n)),
      new Int32Array(n).fill(1),
      new Int32Array(n).fill(1),
      ...Array.from({ length: 3 }, () => new Float64Array(n)),
    ];
    const appender = await c.createAppender('metric');
    const chunk = duckdb.create_data_chunk(types);
    columns.forEach((column, i) =>
      duckdb.copy_data_to_vector(
        duckdb.data_chunk_get_vector(chunk, i),
        0,
        column.buffer as ArrayBuffer,
        column.byteOffset,
        column.byteLength,
      ),
    );
    duckdb.data_chunk_set_size(chunk, n);
    appender.appendDataChunk(new DuckDBDataChunk(chunk));
    appender.flushSync();
    appender.closeSync();
    await c.run('COMMIT');
    times.push(performance.now() - started);
  }
  c.closeSync();
  instance.closeSync();
  return times.slice(10);
}

/** The history read of a report's 200 series from the table, and from a warm history cache, in one run. */
async function historyRead(file: string): Promise<{ table: number[]; cached: number[] }> {
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

const failures = ({ failed, reports }: { failed: number; reports: number }) =>
  failed === 0 ? '' : `; ${failed} of ${reports} reports failed with 5xx`;

const ms = (t: Timing) => `p50 ${t.p50Ms.toFixed(1)} ms, p99 ${t.p99Ms.toFixed(1)} ms`;

async function measure(db: BenchDatabase, report: BenchReport): Promise<void> {
  const name = (benchmark: string) => onEngine(db.engine, benchmark);
  await prepareIngest(db);
  const server = await startBenchServer(db.database);
  for (let i = 0; i < 10; i++) await post(server.url);
  // the clients run in a process of their own: what is measured is the API, whose event loop is this process's
  const latency = summarize((await loadFromProcess([server.url], 1, 100)).latencies);
  const clients = 4;
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const sustained = await loadFromProcess([server.url], clients, 40);
  const elu = performance.eventLoopUtilization(elu0).utilization;
  const cpu = process.cpuUsage(cpu0);
  const apiCores = (cpu.user + cpu.system) / 1e6 / sustained.wallSeconds;
  const metricsPerSecond = sustained.perSecond;
  await server.close();

  // the history read first: the floor commits rows of its own into the file, which the read would then meet
  const read = db.engine === 'duckdb' ? await historyRead(db.file) : undefined;
  const floor = summarize(db.engine === 'duckdb' ? await raw(db.file) : await bareIngestFloor(db.url, 50));
  const floorWork =
    db.engine === 'duckdb'
      ? 'data-chunk Appender of 200 rows + history from memory + COMMIT'
      : 'INSERT of 200 rows + history query + ROLLBACK';
  report
    .add(
      name('ingest/report'),
      'latency',
      { value: latency.p50Ms * 1e6, upper_value: latency.p99Ms * 1e6 },
      ms(latency),
    )
    .add(
      name('ingest/sustained'),
      'throughput',
      metricsPerSecond,
      `${Math.round(metricsPerSecond).toLocaleString()} metrics/s (${clients} clients${failures(sustained)})`,
    )
    .add(
      name('ingest/sustained'),
      'event-loop',
      elu,
      `event-loop utilization ${(elu * 100).toFixed(1)}% with ${clients} clients; API process ${apiCores.toFixed(2)} cores, clients' process ${(sustained.clientCpuSeconds / sustained.wallSeconds).toFixed(2)}; load average ${loadavg()[0]?.toFixed(1)}`,
    )
    .add(
      db.engine === 'duckdb' ? 'ingest/raw-duckdb' : `ingest/raw-${db.engine}`,
      'latency',
      floor.p50Ms * 1e6,
      `p50 ${floor.p50Ms.toFixed(1)} ms (${floorWork})`,
    )
    .ratio(name('ingest/report'), `${bareName(db.engine)}: ${floorWork}`, latency.p50Ms, floor.p50Ms);
  if (db.engine === 'duckdb') {
    const fromTable = summarize(read!.table);
    const fromCache = summarize(read!.cached);
    report
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
      );
  } else await scaleOut(db, report);
}

/**
 * Clients of the scale-out runs: enough that one API process is saturated (its event-loop utilization near 1), so
 * 3 processes have work to take over. BENCH_INGEST_CLIENTS and BENCH_INGEST_PER_CLIENT change them.
 */
const SCALE_CLIENTS = Number(process.env.BENCH_INGEST_CLIENTS ?? 12);
const SCALE_PER_CLIENT = Number(process.env.BENCH_INGEST_PER_CLIENT ?? 15);
/** 1 and 3 processes in turn, so a drift of the shared machine's load during the runs weighs on both. */
const SCALE_ORDER = [1, 3, 3, 1] as const;

/** What one scale-out run measured. */
interface ScaleRun {
  readonly perSecond: number;
  readonly reports: number;
  /** CPU seconds per stored report: the API processes, PostgreSQL's backends and the rest of it, the clients. */
  readonly cpuPerReport: {
    readonly api: number;
    readonly backends: number;
    readonly background: number;
    readonly clients: number;
  };
}

/**
 * Ingest through 1 and 3 real API processes on one PostgreSQL database, `SCALE_CLIENTS` clients round robin, each on
 * a branch and testbed of its own (they share only the organization and project; reports on one branch are serial
 * by design, so that layout measures the branch's lock, not scaling: BENCH_INGEST_ONE_BRANCH=1 adds it). Runs in
 * the order `SCALE_ORDER`; each prints its metrics/s, the event-loop utilization of every API process, and the
 * CPU the API processes, PostgreSQL's backends, PostgreSQL's background work, the bench's own clients and the rest
 * of the machine used; then the ratio of the mean of 3 processes to the mean of 1, and the CPU a report costs in
 * all against the machine's cores.
 */
async function scaleOut(
  db: Extract<BenchDatabase, { engine: 'postgres' }>,
  report: BenchReport,
): Promise<void> {
  const layouts = process.env.BENCH_INGEST_ONE_BRANCH ? [true, false] : [true];
  for (const lanes of layouts) {
    const layout = lanes ? ', a branch each' : ', one branch';
    const runs = new Map<number, ScaleRun[]>([
      [1, []],
      [3, []],
    ]);
    for (const [k, count] of SCALE_ORDER.entries()) {
      const benchmark = `ingest/processes ${count}${layout} [${db.engine}]`;
      runs.get(count)?.push(await processes(db, report, `${benchmark} (run ${k + 1})`, count, lanes));
    }
    const mean = (count: number) => {
      const all = runs.get(count) ?? [];
      return all.reduce((sum, run) => sum + run.perSecond, 0) / all.length;
    };
    report.ratio(`ingest/processes 3${layout} [${db.engine}]`, '1 API process', mean(3), mean(1));
    const all = [...runs.values()].flat();
    const per = (part: keyof ScaleRun['cpuPerReport']) =>
      all.reduce((sum, run) => sum + run.cpuPerReport[part] * run.reports, 0) /
      all.reduce((sum, run) => sum + run.reports, 0);
    const [api, backends, background, clients] = [
      per('api'),
      per('backends'),
      per('background'),
      per('clients'),
    ];
    const total = api + backends + background + clients;
    const cores = machineCpuSeconds().cores;
    report.add(
      `ingest/cpu per report${layout} [${db.engine}]`,
      'cpu',
      total,
      `${(total * 1000).toFixed(0)} ms of CPU per report of 200 metrics (API ${(api * 1000).toFixed(0)}, PostgreSQL backends ${(backends * 1000).toFixed(0)}, PostgreSQL background ${(background * 1000).toFixed(0)}, clients ${(clients * 1000).toFixed(0)}): ${cores} cores carry at most ${(cores / total).toFixed(1)} reports/s (${Math.round((cores / total) * BENCHMARKS * 2).toLocaleString()} metrics/s) with nothing else running`,
    );
  }
}

/** One run of `scaleOut`: `count` API processes. */
async function processes(
  db: Extract<BenchDatabase, { engine: 'postgres' }>,
  report: BenchReport,
  benchmark: string,
  count: number,
  lanes: boolean,
): Promise<ScaleRun> {
  const apis = await Promise.all(Array.from({ length: count }, () => startApi(root, db.database)));
  try {
    const urls = apis.map((api) => api.url);
    for (const url of urls) for (let i = 0; i < 3; i++) await post(url);
    // each lane's branch, testbed and series exist before the clock starts
    if (lanes) for (let c = 0; c < SCALE_CLIENTS; c++) await post(urls[0] as string, c);
    const pids = apis.map((api) => api.child.pid as number);
    const apiCpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const retriedNow = async () => {
      let retried = 0;
      for (const url of urls)
        retried +=
          ((await (await fetch(`${url}/v0/server/health`)).json()) as HealthBody).database.retried ?? 0;
      return retried;
    };
    const retried0 = await retriedNow();
    const loops0 = await Promise.all(apis.map((api) => api.eventLoop()));
    const [api0, pg0, machine0] = [apiCpu(), clusterCpu(db.cluster.dataDir), machineCpuSeconds()];
    const wall0 = performance.now();
    const run = await loadFromProcess(urls, SCALE_CLIENTS, SCALE_PER_CLIENT, lanes);
    const wall = (performance.now() - wall0) / 1000;
    const pg = clusterCpu(db.cluster.dataDir);
    const machine = machineCpuSeconds();
    const loops = await Promise.all(apis.map((api) => api.eventLoop()));
    const used = {
      api: apiCpu() - api0,
      backends: pg.backends - pg0.backends,
      background: pg.background - pg0.background,
      clients: run.clientCpuSeconds,
    };
    const others = machine.busy - machine0.busy - used.api - used.backends - used.background - used.clients;
    const retried = (await retriedNow()) - retried0;
    const stored = run.reports - run.failed;
    const cores = (seconds: number) => `${seconds.toFixed(1)} CPU-s, ${(seconds / wall).toFixed(2)} cores`;
    const elu = loops.map((times, i) => utilization(loops0[i] as EventLoopTimes, times));
    report
      .add(
        benchmark,
        'throughput',
        run.perSecond,
        `${Math.round(run.perSecond).toLocaleString()} metrics/s, ${(stored / wall).toFixed(1)} reports/s (${count} API process${count > 1 ? 'es' : ''}, ${SCALE_CLIENTS} clients${failures(run)}) in ${wall.toFixed(1)} s`,
      )
      .add(
        benchmark,
        'event-loop',
        Math.max(...elu),
        `event-loop utilization of each API process: ${elu.map((u) => u.toFixed(2)).join(', ')}`,
      )
      .add(
        benchmark,
        'cpu',
        (used.api + used.backends + used.background + used.clients) / wall,
        `CPU: API processes ${cores(used.api)}; PostgreSQL backends ${cores(used.backends)}, background ${cores(used.background)}; the bench's clients ${cores(used.clients)}; the rest of the machine ${cores(others)} (of ${machine.cores}; load average ${loadavg()[0]?.toFixed(1)})`,
      )
      .add(
        benchmark,
        'retries',
        retried,
        `${retried} write transactions run again for ${run.reports} reports`,
      )
      .add(benchmark, 'failures', run.failed, `${run.failed} reports answered 5xx`);
    process.stderr.write(
      `${benchmark}: ${Math.round(run.perSecond)} metrics/s, event loop ${elu.map((u) => u.toFixed(2)).join('/')}, CPU-s API ${used.api.toFixed(1)} PG backends ${used.backends.toFixed(1)} PG background ${used.background.toFixed(1)} clients ${used.clients.toFixed(1)} rest ${others.toFixed(1)} in ${wall.toFixed(1)} s (load ${loadavg()[0]?.toFixed(1)})\n`,
    );
    const perReport = (seconds: number) => seconds / Math.max(stored, 1);
    return {
      perSecond: run.perSecond,
      reports: stored,
      cpuPerReport: {
        api: perReport(used.api),
        backends: perReport(used.backends),
        background: perReport(used.background),
        clients: perReport(used.clients),
      },
    };
  } finally {
    await Promise.all(apis.map((api) => api.stop()));
  }
}

interface HealthBody {
  readonly database: { readonly retried?: number };
}

const report = new BenchReport(
  'ingest: 100 benchmarks x 2 measures, t_test thresholds, 1,000,000 metrics seeded',
);
process.stderr.write(
  `load average at the start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}\n`,
);
for (const engine of selectedEngines()) {
  const db = await benchDatabase(engine, 'ingest');
  try {
    await measure(db, report);
  } finally {
    await db.remove();
  }
}
report.print();
