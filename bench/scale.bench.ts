/**
 * A heavy user's history (issue 21): 10,000,000 and 100,000,000 metrics (5,000 benchmarks x 2 measures x 1,000
 * and 10,000 reports), so the growth from one to the other is visible. For each size, on a real `benchtrack-api`
 * process with the default memory ceiling (database.memory_limit 1GiB), and each with its reference measured in
 * the same run:
 *   seed        the history generated with bare SQL from range() in time order, as ingest leaves it
 *   compaction  the service's clustering of the fact table (storage plugin, memory_limit 1GiB); reference: the
 *               same sorted copy with bare SQL (CREATE TABLE AS ... ORDER BY) under the same limit
 *   disk        the database file after compaction and a checkpoint; reference: the file as seeded
 *   perf/a      4 benchmarks x 2 measures over the newest 1,000 reports (8,000 points at either size)
 *   perf/b      255 benchmarks x 1 measure over 100 of the newest reports (25,500 points)
 *   changes     the change points of (a)'s series, uncached
 *   png         8 lines x 1,000 points, uncached
 *   ingest      a report of 100 benchmarks x 2 measures with t_test thresholds; reference: the bare history
 *               query for its 200 series (the part of ingest that reads the history)
 *   peak RSS    the API process's peak resident memory over all of the above; reference: the memory limit
 * References for perf and changes: the perf SQL for the same rows on a bare connection; for png, the statement the
 * image reads its points with (perfLines: the drawn columns only) for the same rows. Each reference runs
 * on a copy of the compacted file, alternating one query with one request to the API (see collect), so a change in
 * the machine's load during the run weighs on both alike: the first 100 M run (2026-11-24) timed the references
 * first and the API after, and the load changed between them enough to put the API at 0.44x of its bare SQL.
 *
 * Run: npm run bench -- scale                    (both sizes; the 100 M case needs about 8 GB in /tmp)
 *      BENCH_SCALE_MILLIONS=10 npm run bench -- scale   (one size)
 * Figures: docs/performance.md.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { createLogger } from '../core/index.js';
import { duckdbStorage, DEFAULT_MEMORY_LIMIT } from '../plugins/storage/duckdb/index.js';
import { history } from '../plugins/storage/duckdb/history.js';
import { duckDb } from '../plugins/storage/duckdb/sql.js';
import { perf, perfLines } from '../plugins/storage/shared/perf.js';
import { memory, resetPeak, startApi, type ApiProcess } from './lib/api-process.js';
import { summarize, type Timing } from './lib/measure.js';
import { BenchReport } from './lib/report.js';
import { fillHistory, seedRun } from './lib/seed-history.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const BENCHMARKS = 5_000;
const START = Date.UTC(2021, 0, 1);
const STEP = 3_600_000;
const MB = 2 ** 20;
const LIMIT_BYTES = 2 ** 30; // DEFAULT_MEMORY_LIMIT
const millions = (process.env.BENCH_SCALE_MILLIONS ?? '10,100').split(',').map(Number);

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

/** A bare query to time: the perf SQL or the ingest history query (series and head resolved beforehand). */
type BareQuery = () => Promise<unknown>;

/** The perf SQL of (a) and (b), the image's lines statement, and the ingest history query, on a bare connection. */
async function bare(
  c: DuckDBConnection,
  reports: number,
): Promise<Record<'a' | 'b' | 'png' | 'history', BareQuery>> {
  const q = queries(reports);
  const seriesOf = async (benchmarks: string[], measures: string[]) =>
    Int32Array.from(
      (
        await c.runAndReadAll(
          `SELECT s.id FROM series s JOIN benchmark b ON b.id = s.benchmark_id JOIN measure m ON m.id = s.measure_id
           WHERE b.name IN (${benchmarks.map((n) => `'${n}'`).join(',')})
             AND m.slug IN (${measures.map((m) => `'${m}'`).join(',')}) ORDER BY b.id, m.id`,
        )
      ).getRowsJS(),
      (row) => Number(row[0]),
    );
  const head = Number((await c.runAndReadAll('SELECT head_id FROM branch LIMIT 1')).getRowsJS()[0]?.[0]);
  const request = (series: Int32Array, window: { start: number; end: number }) => ({
    series,
    heads: new Int32Array(series.length).fill(head),
    ...window,
  });
  const run = (series: Int32Array, window: { start: number; end: number }) => () =>
    perf(duckDb(c), request(series, window));
  const png = request(await seriesOf(names(20, 8), ['latency']), q.window(1000));
  const ingest = await seriesOf(names(0, 100), ['latency', 'throughput']);
  return {
    a: run(await seriesOf(names(10, 4), ['latency', 'throughput']), q.window(1000)),
    b: run(await seriesOf(names(100, 255), ['latency']), q.window(100)),
    // the image reads its points with perfLines (what it draws, no joins to report), not the perf statement
    png: () => perfLines(duckDb(c), png),
    history: () =>
      history(c, {
        headId: head,
        series: ingest,
        maxSamples: new Int32Array(ingest.length).fill(64),
        since: new Float64Array(ingest.length).fill(-Infinity),
      }),
  };
}

/** The service's compaction, and the same sorted copy with bare SQL, both under the default memory limit. */
async function compact(file: string): Promise<{ service: number; bare: number }> {
  const instance = await DuckDBInstance.create(file, { memory_limit: DEFAULT_MEMORY_LIMIT });
  const c = await instance.connect();
  const started = performance.now();
  await c.run(
    'CREATE TABLE metric_sorted AS SELECT * FROM metric ORDER BY series_id, start_time, report_id, iteration, id',
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
    if (!result.compacted) throw new Error('compaction did not run');
    return { service: result.ms, bare: bareMs };
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

/**
 * Times `count` requests to the API and as many runs of the bare reference, alternating one of each (after two
 * warm-ups of each), so a change in the machine's load during the run weighs on both alike.
 */
async function collect(
  count: number,
  fn: () => Promise<{ ms: number; status: number }>,
  reference: BareQuery,
  ok = 200,
): Promise<{ api: Timing; bare: Timing }> {
  const timedReference = async () => {
    const started = performance.now();
    await reference();
    return performance.now() - started;
  };
  for (let i = 0; i < 2; i++) {
    await fn();
    await timedReference();
  }
  const api: number[] = [];
  const bareMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const result = await fn();
    if (result.status !== ok) throw new Error(`request answered ${result.status}`);
    api.push(result.ms);
    bareMs.push(await timedReference());
  }
  return { api: summarize(api), bare: summarize(bareMs) };
}

/** A report of 100 benchmarks x 2 measures with t_test thresholds, newer than everything seeded. */
function ingestBody(k: number, reports: number): string {
  const time = new Date(START + (reports + k) * STEP).toISOString();
  const results = Object.fromEntries(
    names(0, 100).map((name, i) => [
      name,
      { latency: { value: 100 + i + Math.random() }, throughput: { value: 100 + i + Math.random() } },
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

async function measureSize(report: BenchReport, million: number): Promise<void> {
  const reports = (million * 1_000_000) / (BENCHMARKS * 2);
  const tag = `scale/${million}M`;
  const dir = mkdtempSync(join(tmpdir(), 'benchtrack-scale-'));
  const file = join(dir, 'scale.db');
  let api: ApiProcess | undefined;
  try {
    api = await startApi(root, { file });
    await seedRun(api.url, 'scale', START);
    await api.stop();
    const seeding = performance.now();
    await fillHistory(file, { benchmarks: BENCHMARKS, reports, startMs: START, stepMs: STEP, order: 'time' });
    const seedMs = performance.now() - seeding;
    const seededBytes = fileBytes(file);
    process.stderr.write(`${tag}: seeded in ${(seedMs / 1000).toFixed(0)} s, compacting\n`);

    const compaction = await compact(file);
    const compactBytes = fileBytes(file);
    // the bare references run on a copy, beside the API process that holds the database file, one query of each
    // in turn (see collect)
    const copy = join(dir, 'bare.db');
    copyFileSync(file, copy);
    const instance = await DuckDBInstance.create(copy, { memory_limit: DEFAULT_MEMORY_LIMIT });
    const c = await instance.connect();
    const reference = await bare(c, reports);
    process.stderr.write(`${tag}: compacted, measuring the API\n`);

    api = await startApi(root, { file });
    const pid = api.child.pid as number;
    const atRest = memory(pid).rss;
    resetPeak(pid);
    const q = queries(reports);
    const base = api.url;
    const url = (path: string, query: string) => `${base}/v0/projects/scale/${path}?${query}`;
    const a = await collect(20, () => fetchTimed(url('perf', q.a)), reference.a);
    const b = await collect(10, () => fetchTimed(url('perf', q.b)), reference.b);
    let k = 0;
    const changes = await collect(
      10,
      () => fetchTimed(url('perf/changes', `${q.a}&max_pvalue=${(0.0005 + k++ * 1e-12).toPrecision(15)}`)),
      reference.a,
    );
    const png = await collect(
      10,
      () => fetchTimed(url('perf/img', `${q.png}&title=run-${k++}`)),
      reference.png,
    );
    let n = 0;
    const ingest = await collect(
      20,
      () =>
        fetchTimed(`${base}/v0/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: ingestBody(n++, reports),
        }),
      reference.history,
      201,
    );
    const { peak } = memory(pid);
    await api.stop();
    api = undefined;
    c.closeSync();
    instance.closeSync();

    report
      .add(`${tag} seed`, 'duration', seedMs * 1e6, `${(seedMs / 1000).toFixed(1)} s`)
      .add(
        `${tag} compaction`,
        'duration',
        compaction.service * 1e6,
        `${(compaction.service / 1000).toFixed(1)} s`,
      )
      .ratio(`${tag} compaction`, 'bare sorted copy', compaction.service, compaction.bare)
      .add(
        `${tag} disk`,
        'bytes',
        compactBytes,
        `${(compactBytes / MB).toFixed(0)} MiB (${(compactBytes / (million * 1e6)).toFixed(1)} bytes a metric)`,
      )
      .ratio(`${tag} disk`, 'the file as seeded', compactBytes, seededBytes)
      .add(`${tag} perf/a`, 'latency', ms(a.api), `${p(a.api)} (8,000 points)`)
      .ratio(`${tag} perf/a`, 'bare SQL', a.api.p50Ms, a.bare.p50Ms)
      .add(`${tag} perf/b`, 'latency', ms(b.api), `${p(b.api)} (25,500 points)`)
      .ratio(`${tag} perf/b`, 'bare SQL', b.api.p50Ms, b.bare.p50Ms)
      .add(`${tag} changes`, 'latency', ms(changes.api), `${p(changes.api)} (uncached)`)
      .ratio(`${tag} changes`, 'bare SQL of perf/a', changes.api.p50Ms, changes.bare.p50Ms)
      .add(`${tag} png`, 'latency', ms(png.api), `${p(png.api)} (8 x 1,000, uncached)`)
      .ratio(`${tag} png`, 'bare perfLines SQL', png.api.p50Ms, png.bare.p50Ms)
      .add(`${tag} ingest`, 'latency', ms(ingest.api), `${p(ingest.api)} (200 metrics, t_test)`)
      .ratio(`${tag} ingest`, 'bare history query', ingest.api.p50Ms, ingest.bare.p50Ms)
      .add(`${tag} bare perf/a`, 'latency', ms(a.bare), p(a.bare))
      .add(`${tag} bare history`, 'latency', ms(ingest.bare), p(ingest.bare))
      .add(
        `${tag} peak rss`,
        'bytes',
        peak,
        `${(peak / MB).toFixed(0)} MiB (at rest ${(atRest / MB).toFixed(0)} MiB)`,
      )
      .ratio(`${tag} peak rss`, `memory_limit ${DEFAULT_MEMORY_LIMIT}`, peak, LIMIT_BYTES);
  } finally {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// each size prints as soon as it is measured: the 100 M case takes long enough to want the 10 M figures first
for (const million of millions) {
  const report = new BenchReport(`scale: ${million},000,000 metrics (5,000 benchmarks x 2 measures)`);
  await measureSize(report, million);
  report.print();
}
