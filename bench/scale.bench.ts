/**
 * A heavy user's history grown through 1,000,000, 10,000,000, 100,000,000 and 1,000,000,000 metrics, so what
 * grows with the table is visible. The history is NOT posted through the API (a billion metrics would take days):
 * it is generated with bare SQL from range() straight into the DuckDB file, in the layout the storage plugin's
 * compaction leaves (sealed segments sorted by series and time, then the newest reports in time order as ingest
 * leaves them), with the plugin's own `server_meta` keys. Shape: 5,000 benchmarks x 2 measures (500 at 1 M, so
 * that every size holds 1,000 reports or more). For each size, on a real `benchtrack-api` process with the
 * default memory ceiling (database.memory_limit 1GiB), and each with its reference measured in the same run:
 *   seed        the generated history (bare SQL, not the API)
 *   compaction  the service's compaction of the tail (the newest 2,000,000 rows, or half the history at 1 M) with
 *               the open segment; reference: the same rows sorted with bare SQL (CREATE TABLE AS ... ORDER BY)
 *   disk        the database file after compaction and a checkpoint, in bytes a metric
 *   perf/a      4 benchmarks x 2 measures over the newest 1,000 reports (8,000 points at every size)
 *   perf/b      255 benchmarks x 1 measure over 100 of the newest reports (25,500 points)
 *   changes     the change points of (a)'s series, uncached
 *   png         8 lines x 1,000 points, uncached
 *   reports     a page of 100 reports (the report list); reference: the page's rows and its reports' summaries
 *               (metrics and alerts per report) with bare SQL
 *   ingest      a report of 100 benchmarks x 2 measures with t_test thresholds, its values drawn as the seed's (no
 *               alert, at every size and run); reference: the bare history query for its 200 series (the part of
 *               ingest that reads the history)
 *   peak RSS    the API process's peak resident memory over all of the above; reference: the memory limit
 * References for perf and changes: the perf SQL for the same rows on a bare connection; for png, the statement the
 * image reads its points with (perfLines: the drawn columns only). Each reference runs on a copy of the compacted
 * file, alternating one query with one request to the API (see collect), so a change in the machine's load during
 * the run weighs on both alike.
 *
 * With `--engine postgres` (or both, the default where PostgreSQL is installed), the same history also grows in a
 * throwaway PostgreSQL cluster (tmp directory, 127.0.0.1, a free port, removed after) up to 100 M metrics: generated
 * with generate_series into the month partitions the plugin's own function creates, in time order as ingest writes
 * it, the metric indexes rebuilt after each load, then VACUUM ANALYZE. The same figures through a new API process on
 * it, each alternating with its reference on a bare connection (the plugin's statements through the `postgres`
 * driver), disk as the whole database's size, and at each size PostgreSQL's figures over DuckDB's of the same run.
 *
 * Run: nice -n 10 npm run bench -- scale              (1 M to 1 B: about 40 GB in /tmp at 1 B, for the file and
 *                                                     the references' copy; PostgreSQL to 100 M: about 25 GB more)
 *      BENCH_SCALE_MILLIONS=1,10,100 npm run bench -- scale --engine duckdb,postgres   (some sizes)
 * Seeding a billion takes an hour, the measurement minutes, so on a shared machine the two can be apart (DuckDB only):
 *      BENCH_SCALE_DIR=/tmp/scale1b BENCH_SCALE_SEED_ONLY=1 BENCH_SCALE_MILLIONS=1000 npm run bench -- scale --engine duckdb
 *      BENCH_SCALE_DIR=/tmp/scale1b BENCH_SCALE_MILLIONS=1000 npm run bench -- scale --engine duckdb   (when quiet)
 * BENCH_SCALE_DIR keeps the file there (and its progress in scale.json) and takes up where it stopped;
 * BENCH_SCALE_SEED_ONLY grows the history and stops before compaction and measuring. With PostgreSQL, the cluster
 * lives in BENCH_SCALE_DIR/postgres, started again on later runs (100 M seeds in 20 minutes, so one database can be
 * measured again after a change): remove the directory when done.
 * Figures: docs/performance.md.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { createLogger } from '../core/index.js';
import type { HistoryRequest } from '../kit/index.js';
import { CLUSTERED_THROUGH, SEALED_THROUGH, SEGMENT_ROWS } from '../plugins/storage/duckdb/compaction.js';
import { duckdbStorage, DEFAULT_MEMORY_LIMIT } from '../plugins/storage/duckdb/index.js';
import { history } from '../plugins/storage/duckdb/history.js';
import { duckDb } from '../plugins/storage/duckdb/sql.js';
import { history as postgresHistory } from '../plugins/storage/postgres/metrics.js';
import { postgresDb } from '../plugins/storage/postgres/sql.js';
import { perf, perfLines } from '../plugins/storage/shared/perf.js';
import type { Db } from '../plugins/storage/shared/sql.js';
import { memory, resetPeak, startApi } from './lib/api-process.js';
import { benchDatabase, onEngine, selectedEngines, type EngineName } from './lib/engines.js';
import { summarize, type Timing } from './lib/measure.js';
import { bareConnection, growHistoryPostgres } from './lib/postgres-bare.js';
import { BenchReport } from './lib/report.js';
import { growSegmentedHistory, seedRun } from './lib/seed-history.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const BENCHMARKS = 5_000;
const SERIES = BENCHMARKS * 2;
const START = Date.UTC(2021, 0, 1);
const STEP = 3_600_000;
const MB = 2 ** 20;
/** Rows of the tail compaction sorts at every size (the newest 200 reports of 5,000 x 2 series). */
const TAIL_ROWS = 2_000_000;
/** Larger files are not copied for the references (the copy's time and disk): see measureSize. */
const COPY_MAX_BYTES = 8 * 2 ** 30;
const LIMIT_BYTES = 2 ** 30; // DEFAULT_MEMORY_LIMIT
/** The largest PostgreSQL history grown (its seed and index builds take long past it). */
const POSTGRES_MAX_MILLIONS = 100;
const millions = (process.env.BENCH_SCALE_MILLIONS ?? '1,10,100,250,500,1000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
/** Reports at the largest size: reports posted through the API go after them, so that growing never meets them. */
const FINAL_REPORTS = (Math.max(...millions) * 1e6) / SERIES;

const names = (from: number, count: number) => Array.from({ length: count }, (_, i) => `b-${from + i}`);

interface Queries {
  readonly a: string;
  readonly b: string;
  readonly png: string;
}

/** The same selections at every size: the newest 1,000 (a, png) and 100 (b) reports. */
function queries(reports: number): Queries & { window: (n: number) => { start: number; end: number } } {
  const window = (n: number) => ({
    start: START + (reports - n) * STEP,
    end: START + (reports - 1) * STEP + 60_000,
  });
  const w = (n: number) => `&start_time=${window(n).start}&end_time=${window(n).end}`;
  return {
    window,
    a: `branches=main&testbeds=ci&benchmarks=${names(10, 4).join(',')}&measures=latency,throughput${w(1000)}`,
    b: `branches=main&testbeds=ci&benchmarks=${names(100, 255).join(',')}&measures=latency${w(100)}`,
    png: `branches=main&testbeds=ci&benchmarks=${names(20, 8).join(',')}&measures=latency${w(1000)}`,
  };
}

function fileBytes(file: string): number {
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return size(file) + size(`${file}.wal`);
}

/** The history both engines grow: reports `from` to `to` of the bench's benchmarks, an hour apart. */
const shape = (from: number, to: number) => ({
  benchmarks: BENCHMARKS,
  from,
  to,
  startMs: START,
  stepMs: STEP,
});

/** A bare query to time: the perf SQL or the ingest history query (series and head resolved beforehand). */
type BareQuery = () => Promise<unknown>;

/** The perf SQL of (a) and (b), the image's lines statement, and the ingest history query, on a bare connection. */
async function bare(
  db: Db,
  history: (request: HistoryRequest) => Promise<unknown>,
  reports: number,
): Promise<Record<'a' | 'b' | 'png' | 'history' | 'reports', BareQuery>> {
  const q = queries(reports);
  const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(',');
  const seriesOf = async (benchmarks: string[], measures: string[]) =>
    Int32Array.from(
      await db.query<{ id: number }>(
        `SELECT s.id FROM series s JOIN benchmark b ON b.id = s.benchmark_id JOIN measure m ON m.id = s.measure_id
         WHERE b.name IN (${list(benchmarks)}) AND m.slug IN (${list(measures)}) ORDER BY b.id, m.id`,
      ),
      (row) => Number(row.id),
    );
  const [branch] = await db.query<{ head_id: number }>('SELECT head_id FROM branch LIMIT 1');
  const head = Number(branch?.head_id);
  const request = (series: Int32Array, window: { start: number; end: number }) => ({
    series,
    heads: new Int32Array(series.length).fill(head),
    ...window,
  });
  const run = (series: Int32Array, window: { start: number; end: number }) => () =>
    perf(db, request(series, window));
  const png = request(await seriesOf(names(20, 8), ['latency']), q.window(1000));
  const ingest = await seriesOf(names(0, 100), ['latency', 'throughput']);
  return {
    a: run(await seriesOf(names(10, 4), ['latency', 'throughput']), q.window(1000)),
    b: run(await seriesOf(names(100, 255), ['latency']), q.window(100)),
    // the image reads its points with perfLines (what it draws, no joins to report), not the perf statement
    png: () => perfLines(db, png),
    // the page's rows, then what the list shows of each report: benchmarks and metrics per iteration, alerts
    reports: async () => {
      const page = await db.query<{ id: number }>(
        `SELECT r.*, b.name, t.name FROM report r JOIN branch b ON b.id = r.branch_id JOIN testbed t ON t.id = r.testbed_id
         WHERE r.project_id = 1 ORDER BY r.start_time DESC, r.id DESC LIMIT 100`,
      );
      const ids = page.map((row) => Number(row.id)).join(',');
      await db.query(
        `SELECT m.report_id, m.iteration, count(DISTINCT s.benchmark_id), count(*)
         FROM metric m JOIN series s ON s.id = m.series_id WHERE m.report_id IN (${ids}) GROUP BY m.report_id, m.iteration`,
      );
      await db.query(`SELECT report_id, count(*) FROM alert WHERE report_id IN (${ids}) GROUP BY report_id`);
    },
    history: () =>
      history({
        headId: head,
        series: ingest,
        maxSamples: new Int32Array(ingest.length).fill(64),
        since: new Float64Array(ingest.length).fill(-Infinity),
      }),
  };
}

type References = Awaited<ReturnType<typeof bare>>;

/** `fn` on a bare connection to the DuckDB file, closed after. */
async function onFile<T>(file: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(file, { memory_limit: DEFAULT_MEMORY_LIMIT });
  const c = await instance.connect();
  try {
    return await fn(duckDb(c));
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** The service's compaction of the tail, and the same rows sorted with bare SQL, both under the default limit. */
async function compact(file: string): Promise<{ service: number; bare: number; rows: number } | undefined> {
  const instance = await DuckDBInstance.create(file, { memory_limit: DEFAULT_MEMORY_LIMIT });
  const c = await instance.connect();
  const sealed = (
    await c.runAndReadAll(`SELECT value FROM server_meta WHERE key = '${SEALED_THROUGH}'`)
  ).getRows()[0]?.[0] as string;
  const started = performance.now();
  await c.run(
    `CREATE TABLE metric_sorted AS SELECT * FROM metric WHERE id > ${sealed}
     ORDER BY series_id, start_time, report_id, iteration, id`,
  );
  const bareMs = performance.now() - started;
  await c.run('DROP TABLE metric_sorted');
  await c.run('CHECKPOINT');
  c.closeSync();
  instance.closeSync();
  const logger = createLogger({ name: 'bench', log: { mode: 'stderr_terminal', level: 'error' } });
  const storage = await duckdbStorage.open({ file }, { logger });
  try {
    const result = await storage.maintain!();
    // a kept file measured before has nothing new to compact
    if (!result.compacted) return undefined;
    return { service: result.ms, bare: bareMs, rows: result.rewrittenRows ?? Number.NaN };
  } finally {
    await storage.close();
  }
}

async function fetchTimed(url: string, init?: RequestInit): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    ...init,
    headers: { 'accept-encoding': 'identity', ...init?.headers },
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

/** The figures measured through the API, each with its bare reference. */
const FIGURES = ['a', 'b', 'changes', 'png', 'reports', 'ingest'] as const;
type Figure = (typeof FIGURES)[number];
/** Requests timed for each figure, and the bare query that is its reference. */
const COUNTS: Record<Figure, number> = { a: 20, b: 10, changes: 10, png: 10, reports: 10, ingest: 20 };
const REFERENCE: Record<Figure, keyof References> = {
  a: 'a',
  b: 'b',
  changes: 'a',
  png: 'png',
  reports: 'reports',
  ingest: 'history',
};

const timed = async (query: BareQuery) => {
  const started = performance.now();
  await query();
  return performance.now() - started;
};

/**
 * Times `count` requests to the API and, given a reference, as many runs of it, alternating one of each (after two
 * warm-ups of each), so a change in the machine's load during the run weighs on both alike.
 */
async function collect(
  count: number,
  fn: () => Promise<{ ms: number; status: number }>,
  reference: BareQuery | undefined,
  ok = 200,
): Promise<{ api: number[]; bare: number[] }> {
  for (let i = 0; i < 2; i++) {
    await fn();
    if (reference) await timed(reference);
  }
  const api: number[] = [];
  const bareMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const result = await fn();
    if (result.status !== ok) throw new Error(`request answered ${result.status}`);
    api.push(result.ms);
    if (reference) bareMs.push(await timed(reference));
  }
  return { api, bare: bareMs };
}

/** Each figure's reference `share` x its count times (after two warm-ups), on a connection to `file` of its own. */
async function timeReferences(
  file: string,
  reports: number,
  share: number,
): Promise<Record<Figure, number[]>> {
  const instance = await DuckDBInstance.create(file, { memory_limit: DEFAULT_MEMORY_LIMIT });
  const c = await instance.connect();
  try {
    const reference = await bare(duckDb(c), (request) => history(c, request), reports);
    const result = {} as Record<Figure, number[]>;
    for (const figure of FIGURES) {
      const query = reference[REFERENCE[figure]];
      for (let i = 0; i < 2; i++) await timed(query);
      result[figure] = [];
      for (let i = 0; i < Math.ceil(COUNTS[figure] * share); i++) result[figure].push(await timed(query));
    }
    return result;
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** Every figure through the API of `api` over a history of `reports`, alternating with its reference if given. */
async function measureApi(
  base: string,
  reports: number,
  reference: References | undefined,
  levels: Levels,
): Promise<Record<Figure, { api: number[]; bare: number[] }>> {
  const q = queries(reports);
  const url = (path: string, query: string) => `${base}/v0/projects/scale/${path}?${query}`;
  const ref = (figure: Figure) => reference?.[REFERENCE[figure]];
  let k = 0;
  const requests: Record<Figure, () => Promise<{ ms: number; status: number }>> = {
    a: () => fetchTimed(url('perf', q.a)),
    b: () => fetchTimed(url('perf', q.b)),
    changes: () =>
      fetchTimed(url('perf/changes', `${q.a}&max_pvalue=${(0.0005 + k++ * 1e-12).toPrecision(15)}`)),
    png: () => fetchTimed(url('perf/img', `${q.png}&title=run-${k++}`)),
    reports: () => fetchTimed(url('reports', 'per_page=100')),
    ingest: () =>
      fetchTimed(`${base}/v0/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: ingestBody(posted++, levels),
      }),
  };
  const result = {} as Record<Figure, { api: number[]; bare: number[] }>;
  for (const figure of FIGURES)
    result[figure] = await collect(
      COUNTS[figure],
      requests[figure],
      ref(figure),
      figure === 'ingest' ? 201 : 200,
    );
  return result;
}

/** Reports posted through the API so far, at every size. */
let posted = 0;

/** The seeded level of each series a posted report writes, by benchmark and measure (`b-0/latency`). */
type Levels = ReadonlyMap<string, number>;

/**
 * The level the seed gives each series of the posted reports (100 + its id mod 97, plus up to 1: see seed-history
 * and postgres-bare): posted values drawn the same way raise no alert, at every size and on every run over a kept
 * file. Values off that level alert only on the first dozen reports after the seed (then enough of them are in the
 * t_test sample), each with a regression analysis of the alerted series beside the next report, so the figure
 * would depend on how many reports earlier runs posted to the file.
 */
async function seededLevels(db: Db): Promise<Levels> {
  const rows = await db.query<{ name: string; slug: string; id: number }>(
    `SELECT b.name, m.slug, s.id FROM series s JOIN benchmark b ON b.id = s.benchmark_id
     JOIN measure m ON m.id = s.measure_id
     WHERE b.name IN (${names(0, 100)
       .map((name) => `'${name}'`)
       .join(',')}) AND m.slug IN ('latency', 'throughput')`,
  );
  return new Map(rows.map((row) => [`${row.name}/${row.slug}`, 100 + (Number(row.id) % 97)]));
}

/** A report of 100 benchmarks x 2 measures with t_test thresholds, newer than everything seeded at any size. */
function ingestBody(k: number, levels: Levels): string {
  const time = new Date(START + (FINAL_REPORTS + k) * STEP).toISOString();
  const value = (name: string, measure: string) => {
    const level = levels.get(`${name}/${measure}`);
    if (level === undefined) throw new Error(`no seeded series for ${name}/${measure}`);
    return { value: level + Math.random() };
  };
  const results = Object.fromEntries(
    names(0, 100).map((name) => [
      name,
      { latency: value(name, 'latency'), throughput: value(name, 'throughput') },
    ]),
  );
  return JSON.stringify({
    project: 'scale',
    branch: 'main',
    testbed: 'ci',
    start_time: time,
    end_time: time,
    results: [JSON.stringify(results)],
    settings: { adapter: 'json' },
    thresholds: {
      models: {
        latency: { test: 't_test', upper_boundary: 0.99, max_sample_size: 64 },
        throughput: { test: 't_test', lower_boundary: 0.99, max_sample_size: 64 },
      },
    },
  });
}

const ms = (t: Timing) => ({ value: t.p50Ms * 1e6, upper_value: t.p99Ms * 1e6 });
const p = (t: Timing) => `p50 ${t.p50Ms.toFixed(1)} ms, p99 ${t.p99Ms.toFixed(1)} ms`;

type Figures = Record<Figure, { api: Timing; bare: Timing }>;

function summarizeAll(timings: Record<Figure, { api: number[]; bare: number[] }>): Figures {
  return Object.fromEntries(
    FIGURES.map((figure) => [
      figure,
      { api: summarize(timings[figure].api), bare: summarize(timings[figure].bare) },
    ]),
  ) as Figures;
}

/** The figures through the API with their references, and the API process's memory, on either engine. */
function addFigures(
  report: BenchReport,
  tag: string,
  t: Figures,
  mode: string,
  rss: { peak: number; atRest: number; limit: string },
): void {
  const { a, b, changes, png, reports: list, ingest } = t;
  report
    .add(`${tag} perf/a`, 'latency', ms(a.api), `${p(a.api)} (8,000 points)`)
    .ratio(`${tag} perf/a`, `bare SQL (${mode})`, a.api.p50Ms, a.bare.p50Ms)
    .add(`${tag} perf/b`, 'latency', ms(b.api), `${p(b.api)} (25,500 points)`)
    .ratio(`${tag} perf/b`, 'bare SQL', b.api.p50Ms, b.bare.p50Ms)
    .add(`${tag} changes`, 'latency', ms(changes.api), `${p(changes.api)} (uncached)`)
    .ratio(`${tag} changes`, 'bare SQL of perf/a', changes.api.p50Ms, changes.bare.p50Ms)
    .add(`${tag} png`, 'latency', ms(png.api), `${p(png.api)} (8 x 1,000, uncached)`)
    .ratio(`${tag} png`, 'bare perfLines SQL', png.api.p50Ms, png.bare.p50Ms)
    .add(`${tag} reports`, 'latency', ms(list.api), `${p(list.api)} (a page of 100)`)
    .ratio(`${tag} reports`, 'bare SQL of the page', list.api.p50Ms, list.bare.p50Ms)
    .add(`${tag} ingest`, 'latency', ms(ingest.api), `${p(ingest.api)} (200 metrics, t_test)`)
    .ratio(`${tag} ingest`, 'bare history query', ingest.api.p50Ms, ingest.bare.p50Ms)
    .add(`${tag} bare perf/a`, 'latency', ms(a.bare), p(a.bare))
    .add(`${tag} bare history`, 'latency', ms(ingest.bare), p(ingest.bare))
    .add(
      `${tag} peak rss`,
      'bytes',
      rss.peak,
      `${(rss.peak / MB).toFixed(0)} MiB (at rest ${(rss.atRest / MB).toFixed(0)} MiB)`,
    )
    .ratio(`${tag} peak rss`, rss.limit, rss.peak, LIMIT_BYTES);
}

/** Every figure through a new API process over `database`, which it stops after; its memory at rest and peak. */
async function onNewApi(
  database: Record<string, unknown>,
  reports: number,
  reference: References | undefined,
  levels: Levels,
): Promise<{ timings: Record<Figure, { api: number[]; bare: number[] }>; atRest: number; peak: number }> {
  const api = await startApi(root, database);
  try {
    const pid = api.child.pid as number;
    const atRest = memory(pid).rss;
    resetPeak(pid);
    const timings = await measureApi(api.url, reports, reference, levels);
    return { timings, atRest, peak: memory(pid).peak };
  } finally {
    await api.stop();
  }
}

/** Grows the history of `file` from `from` reports to `million` M metrics, then measures it; returns its reports and figures. */
async function measureSize(
  report: BenchReport,
  million: number,
  file: string,
  from: number,
): Promise<{ reports: number; figures: Figures | undefined }> {
  const reports = (million * 1_000_000) / SERIES;
  const tag = `scale/${million}M`;
  const dir = dirname(file);
  const seeding = performance.now();
  let reported = 0;
  if (from < reports)
    await growSegmentedHistory(file, {
      ...shape(from, reports),
      segmentRows: SEGMENT_ROWS,
      tailReports: Math.min(TAIL_ROWS / SERIES, (reports - from) / 2),
      meta: { clusteredThrough: CLUSTERED_THROUGH, sealedThrough: SEALED_THROUGH },
      progress: (rows) => {
        if (rows - reported < 50_000_000 && rows < (reports - from) * SERIES) return;
        reported = rows;
        const seconds = ((performance.now() - seeding) / 1000).toFixed(0);
        const total = ((from * SERIES + rows) / 1e6).toFixed(0);
        process.stderr.write(`${tag}: ${total} M rows in the history, seeded with bare SQL, ${seconds} s\n`);
      },
    });
  const seedMs = from < reports ? performance.now() - seeding : Number.NaN;
  const seededBytes = fileBytes(file);
  saveProgress({ reports });
  if (seedOnly) {
    process.stderr.write(
      `${tag}: seeded in ${(seedMs / 1000).toFixed(0)} s; not measured (BENCH_SCALE_SEED_ONLY)\n`,
    );
    return { reports, figures: undefined };
  }
  const seeded = from < reports ? `seeded in ${(seedMs / 1000).toFixed(0)} s` : 'seeded before';
  process.stderr.write(`${tag}: ${seeded}, compacting\n`);

  const compaction = await compact(file);
  const compactBytes = fileBytes(file);
  // The bare references run on a copy, beside the API process that holds the database file, one query of each
  // in turn (see collect). Where the disk has no room for a copy (1 B), half of them run on the file before the
  // API starts and half after it stops, and the output says so.
  const { bavail, bsize } = statfsSync(dir);
  const interleaved = compactBytes < COPY_MAX_BYTES && bavail * bsize > 1.5 * compactBytes + 4 * 2 ** 30;
  let timings: Record<Figure, { api: number[]; bare: number[] }>;
  let atRest: number;
  let peak: number;
  const levels = await onFile(file, seededLevels);
  const onApi = (reference: References | undefined) => onNewApi({ file }, reports, reference, levels);
  if (interleaved) {
    const copy = join(dir, 'bare.db');
    copyFileSync(file, copy);
    const instance = await DuckDBInstance.create(copy, { memory_limit: DEFAULT_MEMORY_LIMIT });
    const c = await instance.connect();
    try {
      const reference = await bare(duckDb(c), (request) => history(c, request), reports);
      process.stderr.write(`${tag}: compacted, measuring the API and its references in turn\n`);
      ({ timings, atRest, peak } = await onApi(reference));
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  } else {
    process.stderr.write(`${tag}: no copy: references before and after the API, on the file\n`);
    const before = await timeReferences(file, reports, 0.5);
    ({ timings, atRest, peak } = await onApi(undefined));
    const after = await timeReferences(file, reports, 0.5);
    for (const figure of FIGURES) timings[figure].bare = [...before[figure], ...after[figure]];
  }
  const t = summarizeAll(timings);
  saveProgress({ reports });
  const mode = interleaved ? 'interleaved' : 'before and after';
  if (from < reports)
    report.add(`${tag} seed`, 'duration', seedMs * 1e6, `${(seedMs / 1000).toFixed(1)} s (bare SQL)`);
  if (compaction)
    report
      .add(
        `${tag} compaction`,
        'duration',
        compaction.service * 1e6,
        `${(compaction.service / 1000).toFixed(1)} s for ${(compaction.rows / 1e6).toFixed(2)} M rows rewritten`,
      )
      .ratio(`${tag} compaction`, 'bare SQL sort of the same rows', compaction.service, compaction.bare);
  report
    .add(
      `${tag} disk`,
      'bytes',
      compactBytes,
      `${(compactBytes / MB).toFixed(0)} MiB (${(compactBytes / (million * 1e6)).toFixed(1)} bytes a metric)`,
    )
    .ratio(`${tag} disk`, 'the file as seeded', compactBytes, seededBytes);
  addFigures(report, tag, t, mode, { peak, atRest, limit: `memory_limit ${DEFAULT_MEMORY_LIMIT}` });
  return { reports, figures: t };
}

/**
 * PostgreSQL's twin of measureSize: grows the history of a throwaway cluster's database from `from` reports to
 * `million` M metrics with generate_series (not the API), then measures every figure through a new API process over
 * it, each alternating with its reference on a bare connection of the `postgres` driver (the plugin's statements).
 */
async function measurePostgresSize(
  report: BenchReport,
  million: number,
  url: string,
  from: number,
): Promise<{ reports: number; figures: Figures | undefined }> {
  const reports = (million * 1_000_000) / SERIES;
  const tag = onEngine('postgres', `scale/${million}M`);
  const seeding = performance.now();
  if (from < reports)
    await growHistoryPostgres(url, {
      ...shape(from, reports),
      progress: (rows) => {
        const seconds = ((performance.now() - seeding) / 1000).toFixed(0);
        const total = ((from * SERIES + rows) / 1e6).toFixed(0);
        process.stderr.write(`${tag}: ${total} M rows in the history, seeded with bare SQL, ${seconds} s\n`);
      },
    });
  const seedMs = from < reports ? performance.now() - seeding : Number.NaN;
  saveProgress({ postgres: reports });
  const sql = bareConnection(url);
  try {
    const [size] = await sql.unsafe<{ bytes: string; partitions: string }[]>(
      `SELECT pg_database_size(current_database())::text AS bytes,
        (SELECT count(*) FROM pg_inherits WHERE inhparent = 'metric'::regclass)::text AS partitions`,
    );
    const bytes = Number(size?.bytes);
    const db = postgresDb(sql);
    const reference = await bare(db, (request) => postgresHistory(sql, request), reports);
    process.stderr.write(`${tag}: seeded, measuring the API and its references in turn\n`);
    const { timings, atRest, peak } = await onNewApi({ url }, reports, reference, await seededLevels(db));
    saveProgress({});
    const t = summarizeAll(timings);
    if (from < reports)
      report.add(
        `${tag} seed`,
        'duration',
        seedMs * 1e6,
        `${(seedMs / 1000).toFixed(1)} s (bare SQL, indexes rebuilt)`,
      );
    report.add(
      `${tag} disk`,
      'bytes',
      bytes,
      `${(bytes / MB).toFixed(0)} MiB, the whole database (${(bytes / (million * 1e6)).toFixed(1)} bytes a metric; ${size?.partitions} metric partitions)`,
    );
    addFigures(report, tag, t, 'interleaved', { peak, atRest, limit: "DuckDB's memory_limit 1GiB" });
    return { reports, figures: t };
  } finally {
    await sql.end();
  }
}

// One file (and one PostgreSQL database) grows through every size; each prints as soon as it is measured, the
// larger ones taking long enough to want the smaller ones first. PostgreSQL grows to POSTGRES_MAX_MILLIONS only.
const engines = selectedEngines();
const kept = process.env.BENCH_SCALE_DIR;
const seedOnly = process.env.BENCH_SCALE_SEED_ONLY === '1';
if (seedOnly && engines.join() !== 'duckdb')
  throw new Error('BENCH_SCALE_SEED_ONLY is for DuckDB alone: add --engine duckdb');
if (kept) mkdirSync(kept, { recursive: true });
const dir = kept ?? mkdtempSync(join(tmpdir(), 'benchtrack-scale-'));
/**
 * How far a kept file (`reports`) and kept cluster (`postgres`) have grown, and the reports posted to them through the
 * API (so new ones come after them).
 */
interface Progress {
  readonly reports?: number;
  readonly posted?: number;
  readonly postgres?: number;
}
const progressFile = join(dir, 'scale.json');
const resumed: Progress | undefined =
  kept && existsSync(progressFile) ? JSON.parse(readFileSync(progressFile, 'utf8')) : undefined;
let progress: Progress = resumed ?? {};
function saveProgress(update: Progress): void {
  progress = { ...progress, ...update, posted };
  if (kept) writeFileSync(progressFile, JSON.stringify(progress));
}
posted = resumed?.posted ?? 0;
const postgres = engines.includes('postgres')
  ? await benchDatabase('postgres', 'scale', kept && join(dir, 'postgres'))
  : undefined;
const cluster = postgres?.engine === 'postgres' ? postgres : undefined;
try {
  const file = join(dir, 'scale.db');
  const databases: { engine: EngineName; database: Record<string, unknown> }[] = [];
  if (engines.includes('duckdb')) databases.push({ engine: 'duckdb', database: { file } });
  if (cluster) databases.push({ engine: 'postgres', database: cluster.database });
  for (const { engine, database } of databases) {
    if ((engine === 'duckdb' ? resumed?.reports : resumed?.postgres) !== undefined) continue;
    const api = await startApi(root, database);
    await seedRun(api.url, 'scale', START);
    await api.stop();
  }
  const grown: Record<EngineName, number> = {
    duckdb: resumed?.reports ?? 0,
    postgres: resumed?.postgres ?? 0,
  };
  for (const engine of engines)
    if (grown[engine] > 0)
      process.stderr.write(`scale: ${dir} holds ${(grown[engine] * SERIES) / 1e6} M metrics (${engine})\n`);
  for (const million of millions) {
    const report = new BenchReport(
      `scale: ${million.toLocaleString('en-US')},000,000 metrics (5,000 benchmarks x 2 measures, seeded with bare SQL)`,
    );
    const figures: Partial<Record<EngineName, Figures>> = {};
    for (const engine of engines)
      if (million * 1e6 < grown[engine] * SERIES)
        process.stderr.write(`scale/${million}M: not measured on ${engine}: ${dir} holds more already\n`);
    if (engines.includes('duckdb') && million * 1e6 >= grown.duckdb * SERIES) {
      const measured = await measureSize(report, million, file, grown.duckdb);
      grown.duckdb = measured.reports;
      figures.duckdb = measured.figures;
    }
    if (cluster && million <= POSTGRES_MAX_MILLIONS && million * 1e6 >= grown.postgres * SERIES) {
      const measured = await measurePostgresSize(report, million, cluster.url, grown.postgres);
      grown.postgres = measured.reports;
      figures.postgres = measured.figures;
    }
    if (figures.duckdb && figures.postgres)
      for (const figure of ['a', 'b', 'png', 'reports', 'ingest'] as const)
        report.ratio(
          `scale/${million}M ${figure === 'a' || figure === 'b' ? `perf/${figure}` : figure} postgres/duckdb`,
          `DuckDB's (same run)`,
          figures.postgres[figure].api.p50Ms,
          figures.duckdb[figure].api.p50Ms,
        );
    if (!seedOnly) report.print();
  }
} finally {
  await postgres?.remove();
  if (!kept) rmSync(dir, { recursive: true, force: true });
}
